// Many workspaces in one deployment: a person creates a second workspace and switches between them
// (the URL names each, the rail shows each one's unread messages); a person of one joins another by an
// invite link, signed in; and the admins of two workspaces connect them with a code, each side saying
// what it allows. Runs on the second server, where anyone may create a workspace (playwright.config.ts).
import { expect, test } from "@playwright/test";
import { expectInGeneral, send, signUpCreating, workspaceIdOf, type Person } from "./helpers";

const wes: Person = { name: "Wes Adeyemi", handle: "wes", email: "wes@northwind.example", password: "wes-password-12" };
const ula: Person = { name: "Ula Berg", handle: "ula", email: "ula@globex.example", password: "ula-password-123" };

test("a person in two workspaces switches between them, joins another by invite, and connects two of them", async ({ browser }) => {
  const wesContext = await browser.newContext();
  const ulaContext = await browser.newContext();
  const w = await wesContext.newPage();
  const u = await ulaContext.newPage();

  await signUpCreating(w, wes, "Northwind");
  const northwind = workspaceIdOf(w);
  expect(w.url()).toMatch(new RegExp(`/w/${northwind}/r/[^/]+$`));
  // One workspace: no rail.
  await expect(w.getByTestId("workspace-rail")).toHaveCount(0);

  // A second workspace, from the workspace menu.
  await w.getByTestId("workspace-menu").click();
  await w.getByTestId("menu-create-workspace").click();
  await w.getByTestId("create-workspace-name").fill("Northwind Labs");
  await w.getByTestId("create-workspace-name").press("Enter");
  await expect(w.getByTestId("workspace-name")).toHaveText("Northwind Labs");
  await expectInGeneral(w);
  const labs = workspaceIdOf(w);
  expect(labs).not.toBe(northwind);
  const tiles = w.getByTestId("workspace-tile");
  await expect(tiles).toHaveCount(2);
  await expect(w.locator(`[data-testid="workspace-tile"][data-workspace="${labs}"]`)).toHaveAttribute("aria-current", "page");

  // Ula, of another company, is invited into Northwind Labs and joins it signed in as her own account.
  await signUpCreating(u, ula, "Globex");
  await w.getByTestId("workspace-menu").click();
  await w.getByRole("menuitem", { name: "Invite people" }).click();
  await w.getByTestId("create-invite").click();
  const link = await w.getByTestId("invite-link").inputValue();
  await w.keyboard.press("Escape");
  await u.goto(link);
  await expect(u.getByTestId("join-workspace-form")).toBeVisible();
  await u.getByTestId("join-workspace-submit").click();
  await expectInGeneral(u);
  await expect(u.getByTestId("workspace-name")).toHaveText("Northwind Labs");
  expect(workspaceIdOf(u)).toBe(labs);
  await expect(u.getByTestId("workspace-tile")).toHaveCount(2);

  // Wes goes back to Northwind; Ula mentions him in Labs: Labs' tile shows it at once (workspace:activity).
  await w.locator(`[data-testid="workspace-tile"][data-workspace="${northwind}"]`).click();
  await expect(w.getByTestId("workspace-name")).toHaveText("Northwind");
  await expectInGeneral(w);
  expect(workspaceIdOf(w)).toBe(northwind);
  await send(u, "@wes the Labs numbers are in");
  const labsTile = w.locator(`[data-testid="workspace-tile"][data-workspace="${labs}"]`);
  await expect(labsTile.locator("..").getByTestId("workspace-mentions")).toHaveText("1");
  await expect(labsTile).toHaveAttribute("aria-label", /^Northwind Labs, 1 mentions, \d+ unread$/);
  // A page named without its workspace opens in the one the browser was last in.
  await w.goto("/agents");
  await expect(w).toHaveURL(new RegExp(`/w/${northwind}/agents$`));

  // Ula (an owner of Globex) invites Northwind to connect; Wes, Northwind's owner, accepts with the link.
  await u.locator('[data-testid="workspace-tile"]').first().click();
  await expect(u.getByTestId("workspace-name")).toHaveText("Globex");
  await u.goto(`/w/${workspaceIdOf(u)}/admin#connections`);
  await u.getByTestId("invite-directory").selectOption("everyone");
  await u.getByTestId("connection-invite-create").click();
  const connectLink = await u.getByTestId("connection-invite-link").inputValue();
  await w.goto(new URL(connectLink).pathname);
  await expect(w).toHaveURL(new RegExp(`/w/${northwind}/admin\\?connect=`));
  await expect(w.getByTestId("connection-preview-name")).toHaveText("Globex");
  await w.getByTestId("connection-accept").click();
  const row = w.getByTestId("connection-row").filter({ hasText: "Globex" });
  await expect(row.getByTestId("connection-status")).toHaveText("Connected");
  await expect(row).toContainText("You can find all of their people and agents");
  await w.screenshot({ path: "docs/screenshots/workspace-connections.png" });

  await u.reload();
  const theirs = u.getByTestId("connection-row").filter({ hasText: "Northwind" });
  await expect(theirs.getByTestId("connection-status")).toHaveText("Connected");
  // Either side disconnects.
  await theirs.getByTestId("connection-disconnect").click();
  await u.getByTestId("connection-disconnect-confirm").click();
  await expect(theirs.getByTestId("connection-status")).toHaveText("Disconnected");

  await wesContext.close();
  await ulaContext.close();
});
