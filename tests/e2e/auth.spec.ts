// The signed-out side: gating, clear errors, invite-only sign-up, broken invite links, sign-out.
import { expect, test } from "./fixtures";
import { people, signUpFirstOrSignIn } from "./helpers";

test("signed-out visitors are sent to sign-in, and failures read clearly", async ({ browser }) => {
  const owner = await (await browser.newContext()).newPage();
  await signUpFirstOrSignIn(owner, people.alice); // the workspace exists from here on

  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto("/r/some-room-id");
  await expect(page).toHaveURL(/\/signin$/);

  await page.getByTestId("signin-email").fill(people.alice.email);
  await page.getByTestId("signin-password").fill("not-the-password");
  await page.getByTestId("signin-submit").click();
  await expect(page.getByTestId("signin-error")).toHaveText("Wrong email or password.");

  await page.goto("/signup");
  await expect(page.getByTestId("invite-only")).toBeVisible();
  await expect(page.getByTestId("signup-form")).toHaveCount(0);

  await page.goto("/invite/not-a-real-token");
  await expect(page.getByTestId("invite-invalid")).toBeVisible();

  // Sign in, then out from the user menu.
  await page.goto("/signin");
  await page.getByTestId("signin-email").fill(people.alice.email);
  await page.getByTestId("signin-password").fill(people.alice.password);
  await page.getByTestId("signin-submit").click();
  await expect(page.getByTestId("room-title")).toHaveText("general");
  await page.getByTestId("user-menu").click();
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin$/);
  await ctx.close();
  await owner.context().close();
});
