// Steps the e2e tests share: signing up and in through the UI, sending, reading a timeline.
import fs from "node:fs/promises";
import path from "node:path";
import { expect, test, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { e2eDataDir } from "./data-dir";

export interface Person {
  name: string;
  handle: string;
  email: string;
  password: string;
}

export const WORKSPACE = "Acme Robotics";

export const people = {
  alice: { name: "Alice Moreau", handle: "alice", email: "alice@example.com", password: "alice-password-1" },
  bob: { name: "Bob Okafor", handle: "bob", email: "bob@example.com", password: "bob-password-12" },
  carol: { name: "Carol Nguyen", handle: "carol", email: "carol@example.com", password: "carol-password-1" },
  maya: { name: "Maya Chen", handle: "maya", email: "maya@example.com", password: "maya-password-12" },
  nina: { name: "Nina Patel", handle: "nina", email: "nina@example.com", password: "nina-password-12" },
} satisfies Record<string, Person>;

async function fillSignUp(page: Page, person: Person) {
  await page.getByTestId("signup-name").fill(person.name);
  await page.getByTestId("signup-handle").fill(person.handle);
  await page.getByTestId("signup-email").fill(person.email);
  await page.getByTestId("signup-password").fill(person.password);
}

export async function expectInGeneral(page: Page) {
  await page.waitForURL(/\/r\/[^/]+$/);
  await expect(page.getByTestId("room-title")).toHaveText("general");
}

/** Signs up creating a workspace of one's own (where sign-up is open, or the first), and lands in its #general. */
export async function signUpCreating(page: Page, person: Person, workspace: string) {
  await page.goto("/signup");
  await fillSignUp(page, person);
  await page.getByTestId("signup-workspace").fill(workspace);
  await page.getByTestId("signup-submit").click();
  await expectInGeneral(page);
  await expect(page.getByTestId("workspace-name")).toHaveText(workspace);
}

/** The workspace a page is in, from its URL (/w/<id>/…). */
export const workspaceIdOf = (page: Page): string => new URL(page.url()).pathname.split("/")[2];

/**
 * The first person creates the workspace; if it already exists (tests run alone), they sign in. Asked of
 * the API the sign-up page asks, so that signing in does not load that page first. A person signed in once
 * in this run is signed in again from their stored session cookies; the forms themselves are tested once,
 * here and in auth.spec.ts.
 */
export async function signUpFirstOrSignIn(page: Page, person: Person) {
  if (await trpc<boolean>(page, "workspace.firstRun", null, "query")) {
    await page.goto("/signup");
    await fillSignUp(page, person);
    await page.getByTestId("signup-workspace").fill(WORKSPACE);
    await page.getByTestId("signup-submit").click();
  } else if (!(await restoreSignIn(page, person))) {
    await signIn(page, person);
  }
  await expectInGeneral(page);
  await storeSignIn(page.context(), person);
}

/** Where a person's session is kept between tests: the data directory of the test's server (playwright.config.ts). */
function signInFile(person: Person): string {
  const baseURL = test.info().project.use.baseURL;
  if (!baseURL) throw new Error("No baseURL: run the e2e tests with playwright.config.ts");
  return path.join(e2eDataDir(new URL(baseURL).port), `signed-in-${person.handle}.json`);
}

async function storeSignIn(context: BrowserContext, person: Person) {
  await context.storageState({ path: signInFile(person) });
}

/** Signs the page's context in with the person's stored cookies; false when none are stored or they no longer work. */
async function restoreSignIn(page: Page, person: Person): Promise<boolean> {
  const stored = await fs.readFile(signInFile(person), "utf8").catch(() => null);
  if (!stored) return false;
  const { cookies } = JSON.parse(stored) as Awaited<ReturnType<BrowserContext["storageState"]>>;
  await page.context().addCookies(cookies);
  await page.goto("/");
  await page.waitForURL(/\/(r\/[^/]+|signin)$/);
  return !page.url().endsWith("/signin");
}

export async function signIn(page: Page, person: Person) {
  await page.goto("/signin");
  await page.getByTestId("signin-email").fill(person.email);
  await page.getByTestId("signin-password").fill(person.password);
  await page.getByTestId("signin-submit").click();
  await page.waitForURL(/\/r\//);
}

export async function signUpWithInvite(page: Page, link: string, person: Person, invitedBy: string) {
  await page.goto(link);
  await expect(page.getByTestId("invite-details")).toContainText(WORKSPACE);
  await expect(page.getByTestId("invite-details")).toContainText(invitedBy);
  await fillSignUp(page, person);
  await page.getByTestId("signup-submit").click();
  await expectInGeneral(page);
}

export async function createInviteLink(page: Page): Promise<string> {
  await page.getByTestId("invite-people").click();
  await page.getByTestId("create-invite").click();
  const field = page.getByTestId("invite-link");
  await expect(field).toHaveValue(/\/invite\/.+/);
  const link = await field.inputValue();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("invite-dialog")).toBeHidden();
  return link;
}

export function timeline(page: Page): Locator {
  return page.getByTestId("timeline");
}

/** The texts of the main timeline's messages, top to bottom (no events, no pending sends). */
export function messageBodies(page: Page): Locator {
  return timeline(page).locator('[data-testid="message"][data-kind="text"] [data-testid="message-body"]');
}

export async function send(page: Page, text: string, composer = "composer") {
  const box = page.getByTestId(composer);
  await box.fill(text);
  await box.press("Enter");
  await expect(box).toHaveValue("");
}

export function messageWithText(page: Page, text: string): Locator {
  return timeline(page)
    .locator('[data-testid="message"][data-kind="text"]')
    .filter({ has: page.getByTestId("message-body").getByText(text, { exact: true }) });
}

/**
 * Clicks one of a row's actions that show on hover (a message's reply, react, delete...). It hovers the
 * row again until the action shows and takes the click: the list may move under the mouse between the
 * two (a message arriving, a page loading above), and a hidden action would be waited for forever.
 */
export async function clickHoverAction(row: Locator, action: string): Promise<void> {
  await expect(async () => {
    await row.hover();
    await row.getByTestId(action).click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** Calls a tRPC procedure with the page's session cookie (setup steps the UI is not under test for). */
export async function trpc<T>(page: Page, path: string, input: unknown, kind: "query" | "mutation" = "mutation"): Promise<T> {
  const response =
    kind === "mutation"
      ? await page.request.post(`/api/trpc/${path}`, { data: { json: input } })
      : await page.request.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
  const body = (await response.json()) as { result?: { data: { json: T } }; error?: unknown };
  if (!body.result) throw new Error(`${path} failed: ${JSON.stringify(body.error)}`);
  return body.result.data.json;
}
