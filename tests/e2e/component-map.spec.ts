// The component map in the admin console: an admin starts from the top folders agents actually touched,
// renames one and narrows its glob while the preview files the touched paths live, orders the entries,
// and saves; the Work board files history by the new map. Screenshot: docs/screenshots/component-map.png.
import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { SwitchboardClient } from "../../sdk";
import { people, signUpFirstOrSignIn, trpc } from "./helpers";

const run = Date.now().toString(36).slice(-6);

test("admins map paths to components, previewed against the files agents touched", async ({ page, baseURL }) => {
  await signUpFirstOrSignIn(page, people.alice);
  const made = await trpc<{ agent: { id: string }; apiKey: string }>(page, "agents.create", { handle: `mapper-${run}`, displayName: "Mapper", description: "Touches files.", framework: "script", capabilities: [] });
  const agent = new SwitchboardClient({ url: baseURL!, apiKey: made.apiKey });
  try {
    await agent.connect();
    await agent.reportFiles({
      sessionId: `s-${run}`,
      files: [
        { path: "server/services/billing.ts", operation: "edit", linesAdded: 12 },
        { path: "server/db.ts", operation: "read" },
        { path: "app/billing/page.tsx", operation: "create", linesAdded: 80 },
      ],
    });
  } finally {
    await agent.close();
  }

  await page.goto("/admin#settings");
  const card = page.getByTestId("settings-components");
  const preview = card.getByTestId("components-preview");
  const previewed = (name: string) => preview.locator(`[data-testid="preview-component"][data-name="${name}"]`);
  await expect(previewed("server")).toContainText("top folder");
  await expect(previewed("server")).toContainText("2 files");

  // One entry per top folder, then "server" becomes Services, narrowed to server/services.
  await card.getByTestId("components-suggest").click();
  const rules = card.getByTestId("component-rule");
  await expect(rules).toHaveCount(2);
  const names = await card.getByTestId("component-name").evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
  const at = names.indexOf("server");
  await rules.nth(at).getByTestId("component-name").fill("Services");
  await rules.nth(at).getByTestId("component-patterns").fill("server/services/**");
  await expect(previewed("Services")).toContainText("1 file");
  await expect(previewed("Services")).toContainText("server/services/billing.ts");
  await expect(previewed("server")).toContainText("top folder"); // server/db.ts falls back

  // An entry that catches nothing says so; first-match order is changed with the arrows (keyboard too).
  await card.getByTestId("component-add").click();
  await rules.nth(2).getByTestId("component-name").fill("Mobile");
  await rules.nth(2).getByTestId("component-patterns").fill("ios/**");
  await expect(previewed("Mobile")).toContainText("matches no recent file");
  await page.getByRole("button", { name: "Move Mobile up" }).press("Enter");
  await expect(card.getByTestId("component-name").nth(1)).toHaveValue("Mobile");

  mkdirSync("docs/screenshots", { recursive: true });
  await card.screenshot({ path: "docs/screenshots/component-map.png" });
  await card.getByTestId("save-components").click();
  await expect(page.getByText("Component map saved")).toBeVisible();

  const saved = await trpc<{ components: { name: string; patterns: string[] }[] }>(page, "work.components", undefined, "query");
  expect(saved.components.map((c) => c.name)).toEqual(at === 0 ? ["Services", "Mobile", "app"] : ["app", "Mobile", "Services"]);
  const board = await trpc<{ agents: { agent: { id: string }; files: { path: string; component: string | null }[] }[] }>(page, "work.board", {}, "query");
  const files = board.agents.find((a) => a.agent.id === made.agent.id)!.files;
  expect(files.find((f) => f.path === "server/services/billing.ts")?.component).toBe("Services");

  // After a reload the saved map is what the form shows.
  await page.reload();
  await expect(page.getByTestId("settings-components").getByTestId("component-rule")).toHaveCount(3);
});
