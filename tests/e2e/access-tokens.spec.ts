// A person's access tokens, from the browser: created under their settings (reached from the user
// menu), shown once with a copy button, used by a script over HTTP as that person, listed with their
// scope and last use, and revoked behind a keyboard-friendly confirmation, after which they stop working.
import { mkdirSync } from "node:fs";
import { expect, test, type APIRequestContext } from "./fixtures";
import { people, signUpFirstOrSignIn } from "./helpers";

const run = Date.now().toString(36).slice(-6);

/** `workspace.me` as a script calls it: no cookie, only the token. Answers the HTTP status and the handle or the error code. */
async function whoAmI(request: APIRequestContext, token: string): Promise<{ status: number; who: string }> {
  const response = await request.get("/api/trpc/workspace.me", { headers: { Authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { result?: { data: { json: { me: { handle: string } } } }; error?: { json: { data: { app: { code: string } } } } };
  return { status: response.status(), who: body.result?.data.json.me.handle ?? body.error!.json.data.app.code };
}

test("a person creates an access token, sees it once, uses it from a script and revokes it", async ({ page, playwright }) => {
  mkdirSync("artifacts", { recursive: true });
  await signUpFirstOrSignIn(page, people.alice);

  // Settings are in the user menu.
  await page.getByTestId("user-menu").click();
  await page.getByTestId("nav-access-tokens").click();
  await page.waitForURL(/\/settings\/tokens$/);
  await expect(page.getByTestId("page-title")).toHaveText("Access tokens");
  await expect(page.getByTestId("tokens-list").or(page.getByTestId("tokens-empty"))).toBeVisible();

  // Create: name, scope, expiry.
  const name = `deploy script ${run}`;
  await page.getByTestId("open-create-token").click();
  const dialog = page.getByTestId("create-token-dialog");
  await expect(dialog).toBeVisible();
  await page.getByTestId("token-name").fill(name);
  await page.getByTestId("token-scope-choice-write").click();
  await page.getByTestId("token-expiry").selectOption("90");
  await page.getByTestId("create-token-submit").click();

  // Shown once, with a copy button and the warning.
  const field = page.getByTestId("access-token");
  await expect(field).toHaveValue(/^sbp_[A-Za-z0-9]{10}_[A-Za-z0-9_-]{43}$/);
  const token = await field.inputValue();
  await expect(page.getByTestId("secret-warning")).toContainText("you won't see it again");
  await expect(page.getByTestId("access-token-copy")).toBeVisible();
  await expect(page.getByTestId("token-curl")).toContainText(`Authorization: Bearer ${token}`);
  await dialog.screenshot({ path: "artifacts/access-token-created.png" });
  await page.getByTestId("create-token-done").click();
  await expect(dialog).toBeHidden();

  // A script, without the browser's cookie, acts as Alice with it.
  const script = await playwright.request.newContext({ baseURL: new URL(page.url()).origin });
  expect(await whoAmI(script, token)).toEqual({ status: 200, who: people.alice.handle });

  // Listed by name and prefix (never the whole token again), with its scope and its last use.
  await page.reload();
  const row = page.getByTestId("token-row").filter({ hasText: name });
  await expect(row).toHaveAttribute("data-state", "active");
  await expect(row.getByTestId("token-scope")).toHaveText("Read and write");
  await expect(row.getByTestId("token-prefix")).toHaveText(`${token.slice(0, 14)}…`);
  await expect(row.getByTestId("token-last-used")).toHaveText("just now");
  await expect(page.getByTestId("tokens-page")).not.toContainText(token.slice(15));
  await page.getByTestId("tokens-page").screenshot({ path: "artifacts/access-tokens.png" });

  // Revoke, from the keyboard: Escape cancels and nothing changes; then confirm.
  await row.getByTestId("token-revoke").focus();
  await page.keyboard.press("Enter");
  const confirm = page.getByTestId("revoke-token-dialog");
  await expect(confirm).toContainText(name);
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expect(row).toHaveAttribute("data-state", "active");
  await row.getByTestId("token-revoke").click();
  await page.getByTestId("confirm-revoke-token").click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveAttribute("data-state", "revoked");
  await expect(row.getByTestId("token-revoke")).toHaveCount(0);

  // It stops working at once.
  expect(await whoAmI(script, token)).toEqual({ status: 401, who: "UNAUTHENTICATED" });
  await script.dispose();
});
