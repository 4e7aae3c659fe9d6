// Invite links and onboarding tokens are listed with their state and revoked from the browser; a
// revoked one stops working at once. A revoked connection says who revoked it and when.
import { mkdirSync } from "node:fs";
import { expect, test, type Browser, type BrowserContext, type Page } from "./fixtures";
import { expectInGeneral, people, signUpFirstOrSignIn, signUpWithInvite, trpc, type Person } from "./helpers";

// Lin joins in the first test and is signed in again in the last.
const lin: Person = { name: "Lin Park", handle: "lin", email: "lin@example.com", password: "lin-password-12" };
// Ivy joins as an admin in the second test.
const ivy: Person = { name: "Ivy Lund", handle: "ivy", email: "ivy@example.com", password: "ivy-password-12" };

const contexts: BrowserContext[] = [];
async function newPage(browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  return context.newPage();
}
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

/** Creates an invite link in the admin console's form and returns it (it is shown once). */
async function createLink(page: Page, role: "member" | "guest", maxUses?: number): Promise<string> {
  await page.getByTestId("admin-invite-role").selectOption(role);
  await page.getByTestId("admin-invite-max-uses").fill(maxUses ? String(maxUses) : "");
  await page.getByTestId("admin-create-invite").click();
  const field = page.getByTestId("admin-invite-link");
  await expect(field).toHaveValue(/\/invite\/.+/);
  const link = await field.inputValue();
  await page.getByTestId("admin-invite-another").click();
  return link;
}

test("admins see every invite link and onboarding token with its state, and revoke them for good", async ({ browser }) => {
  const a = await newPage(browser, { viewport: { width: 1440, height: 900 } });
  const l = await newPage(browser);
  const anonymous = await newPage(browser);
  await signUpFirstOrSignIn(a, people.alice);

  await a.getByTestId("nav-admin").click();
  await a.getByTestId("tab-invites").click();
  const links = a.getByTestId("invite-links");
  await expect(links.or(a.getByTestId("invite-links-empty"))).toBeVisible();

  // A single-use link that Lin uses up, a member link for seven people, and an open guest link.
  const single = await createLink(a, "member", 1);
  await l.goto(single);
  await l.getByTestId("signup-name").fill(lin.name);
  await l.getByTestId("signup-handle").fill(lin.handle);
  await l.getByTestId("signup-email").fill(lin.email);
  await l.getByTestId("signup-password").fill(lin.password);
  await l.getByTestId("signup-submit").click();
  await expectInGeneral(l);
  const seven = await createLink(a, "member", 7);
  const guests = await createLink(a, "guest");

  // Everyone's onboarding tokens are listed here too.
  await trpc(a, "agents.createOnboardingToken", { label: "CI runners", maxUses: 20 });
  await a.reload();
  const tokens = a.getByTestId("workspace-onboarding-tokens");
  await expect(tokens.getByTestId("workspace-onboarding-tokens-row").filter({ hasText: "CI runners" })).toHaveAttribute("data-state", "active");

  const row = (uses: string) => links.getByTestId("invite-links-row").filter({ hasText: uses }).first();
  await expect(row("1 / 1")).toHaveAttribute("data-state", "used_up");
  await expect(row("0 / 7")).toHaveAttribute("data-state", "active");
  await expect(row("0 / 7")).toContainText("Alice Moreau");

  // The confirmation is keyboard-friendly: Enter opens it, Escape cancels and nothing changes.
  await row("0 / 7").getByTestId("invite-links-revoke").focus();
  await a.keyboard.press("Enter");
  const dialog = a.getByTestId("invite-links-revoke-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Nobody has joined with it yet.");
  await a.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(row("0 / 7")).toHaveAttribute("data-state", "active");

  await row("0 / 7").getByTestId("invite-links-revoke").click();
  await a.getByTestId("invite-links-confirm-revoke").click();
  await expect(dialog).toBeHidden();
  await expect(row("0 / 7")).toHaveAttribute("data-state", "revoked");
  await expect(row("0 / 7").getByTestId("invite-links-revoke")).toHaveCount(0);
  await expect(a.getByTestId("toast")).toContainText("Invite link revoked");

  mkdirSync("artifacts", { recursive: true });
  await a.getByTestId("panel-invites").screenshot({ path: "artifacts/admin-invite-links.png" });

  // The revoked link is refused; the others still work.
  await anonymous.goto(seven);
  await expect(anonymous.getByTestId("invite-invalid")).toBeVisible();
  await anonymous.goto(guests);
  await expect(anonymous.getByTestId("invite-details")).toContainText(people.alice.name);

  // A member has no access to the list.
  expect(await l.request.get(`/api/trpc/workspace.invites`).then((r) => r.status())).toBe(403);
});

test("only the owner makes admins: an admin is offered no admin role, by invite link or in the members list", async ({ browser }) => {
  const a = await newPage(browser);
  const i = await newPage(browser, { viewport: { width: 1440, height: 900 } });
  await signUpFirstOrSignIn(a, people.alice);
  await a.getByTestId("nav-admin").click();
  await a.getByTestId("tab-invites").click();
  await expect(a.getByTestId("admin-invite-role").locator("option")).toHaveText(["Member", "Admin", "Guest"]);
  await a.getByTestId("admin-invite-role").selectOption("admin");
  await a.getByTestId("admin-create-invite").click();
  await expect(a.getByTestId("admin-invite-link")).toHaveValue(/\/invite\/.+/);
  const link = await a.getByTestId("admin-invite-link").inputValue();

  // Ivy joins as an admin: her invite form offers members and guests only, and the server agrees.
  await signUpWithInvite(i, link, ivy, people.alice.name);
  await i.getByTestId("nav-admin").click();
  await i.getByTestId("tab-invites").click();
  await expect(i.getByTestId("admin-invite-role").locator("option")).toHaveText(["Member", "Guest"]);
  const refused = await i.request.post("/api/trpc/workspace.createInvite", { data: { json: { role: "admin" } } });
  expect(refused.status()).toBe(403);

  // In the members list she may make Lin a guest but not an admin; her own role and the owner's are locked.
  await i.getByTestId("tab-members").click();
  const linRow = i.locator(`[data-testid="member-row"][data-handle="${lin.handle}"]`);
  await expect(linRow.getByTestId("member-role")).toBeEnabled();
  await expect(linRow.locator('option[value="admin"]')).toBeDisabled();
  await expect(linRow.locator('option[value="guest"]')).toBeEnabled();
  const ivyRow = i.locator(`[data-testid="member-row"][data-handle="${ivy.handle}"]`);
  await expect(ivyRow.getByTestId("member-role")).toBeDisabled();
  await expect(ivyRow.getByTestId("member-role")).toHaveAttribute("title", "You cannot change your own role");
  mkdirSync("artifacts", { recursive: true });
  await i.getByTestId("admin-page").screenshot({ path: "artifacts/admin-members-as-admin.png" });
});

test("a person revokes their own onboarding token on the Agents page, and scripts are refused", async ({ browser }) => {
  const a = await newPage(browser);
  await signUpFirstOrSignIn(a, people.alice);
  await a.getByTestId("nav-agents").click();
  await a.getByTestId("open-onboarding").click();
  await a.getByTestId("onboarding-label").fill("Nightly evals");
  await a.getByTestId("create-onboarding-token").click();
  const token = await a.getByTestId("onboarding-token").inputValue();
  await a.getByTestId("onboarding-done").click();

  const mine = a.getByTestId("my-onboarding-tokens-row").filter({ hasText: "Nightly evals" });
  await expect(mine).toHaveAttribute("data-state", "active");
  await mine.getByTestId("my-onboarding-tokens-revoke").click();
  await expect(a.getByTestId("my-onboarding-tokens-revoke-dialog")).toContainText("keep their keys");
  await a.getByTestId("my-onboarding-tokens-confirm-revoke").click();
  await expect(mine).toHaveAttribute("data-state", "revoked");

  const register = await a.request.post("/api/v1/agents/register", { data: { onboardingToken: token, handle: "nightly", displayName: "Nightly" } });
  expect(register.status()).toBe(401);
  expect(((await register.json()) as { error: { code: string } }).error.code).toBe("UNAUTHENTICATED");
});

test("the inbox history says who revoked a connection, and when", async ({ browser }) => {
  const a = await newPage(browser);
  const l = await newPage(browser);
  await signUpFirstOrSignIn(a, people.alice);
  await l.goto("/signin");
  await l.getByTestId("signin-email").fill(lin.email);
  await l.getByTestId("signin-password").fill(lin.password);
  await l.getByTestId("signin-submit").click();
  await expectInGeneral(l);

  const { agent } = await trpc<{ agent: { id: string; handle: string } }>(a, "agents.create", { handle: "archivist", displayName: "Archivist" });
  const request = await trpc<{ id: string }>(l, "connections.request", { participantId: agent.id, message: "May I file things with you?" });
  await trpc(a, "connections.respond", { connectionId: request.id, decision: "accept" });

  await a.getByTestId("nav-inbox").click();
  await a.getByTestId("tab-history").click();
  const entry = a.locator(`[data-testid="history-row"][data-connection-id="${request.id}"]`);
  await expect(entry).toHaveAttribute("data-status", "accepted");
  await entry.getByTestId("revoke-connection").click();
  await a.getByTestId("confirm-revoke-connection").click();
  await expect(entry).toHaveAttribute("data-status", "revoked");
  await expect(entry.getByTestId("history-decision")).toHaveText("Revoked by you · just now");

  // The history comes 50 at a time: older connections load on demand.
  for (let i = 0; i < 51; i++) {
    const { agent: helper } = await trpc<{ agent: { id: string } }>(a, "agents.create", { handle: `pager-${i}`, displayName: `Pager ${i}` });
    const asked = await trpc<{ id: string }>(l, "connections.request", { participantId: helper.id });
    await trpc(a, "connections.respond", { connectionId: asked.id, decision: "decline" });
  }
  await a.reload();
  await a.getByTestId("tab-history").click();
  const rows = a.getByTestId("history-row");
  await expect(rows).toHaveCount(50);
  await expect(entry).toHaveCount(0); // the revoked one is older than the newest 50
  await a.getByTestId("history-load-more").click();
  await expect(entry).toHaveAttribute("data-status", "revoked");
  expect(await rows.count()).toBeGreaterThan(51);
});
