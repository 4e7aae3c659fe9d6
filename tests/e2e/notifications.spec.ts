// Desktop notifications from the browser: the settings page asks for the browser's permission only on a
// click, and then, with the tab in the background, an agent's mention raises a real Notification that
// opens the room when clicked, and so does a question for the person. `window.Notification` is wrapped
// to record what was constructed (the real one still runs); the wrapper reports "default" until the
// page asks, so the button is the one asking.
import { mkdirSync } from "node:fs";
import { expect, test } from "./fixtures";
import { SwitchboardClient } from "@switchboard/sdk";
import { people, signUpFirstOrSignIn, trpc } from "./helpers";

const run = Date.now().toString(36).slice(-6);

test.use({ permissions: ["notifications"] });

declare global {
  interface Window {
    __notices: { title: string; body?: string; tag?: string }[];
    __noticeObjects: Notification[];
    __permissionAsked: boolean;
  }
}

test("desktop notifications: enabled from settings on a click, raised for a mention while the tab is hidden", async ({ page, baseURL }) => {
  await page.addInitScript(() => {
    const Real = window.Notification;
    window.__notices = [];
    window.__noticeObjects = [];
    window.__permissionAsked = false;
    class Recording extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        window.__notices.push({ title, body: options?.body, tag: options?.tag });
        window.__noticeObjects.push(this);
      }
      static get permission(): NotificationPermission {
        return window.__permissionAsked ? Real.permission : "default";
      }
      static requestPermission(): Promise<NotificationPermission> {
        window.__permissionAsked = true;
        return Real.requestPermission();
      }
    }
    window.Notification = Recording as typeof Notification;
  });
  await signUpFirstOrSignIn(page, people.alice);

  // Settings, from the user menu. Nothing asked the browser on load.
  await page.getByTestId("user-menu").click();
  await page.getByTestId("nav-settings").click();
  await page.waitForURL(/\/settings$/);
  const settings = page.getByTestId("notification-settings");
  await expect(settings.getByTestId("notifications-preference-mentions")).toHaveAttribute("aria-checked", "true");
  expect(await page.evaluate(() => window.__permissionAsked)).toBe(false);

  // The preference sticks.
  await settings.getByTestId("notifications-preference-all").click();
  await expect(settings.getByTestId("notifications-says")).toContainText("every message in your direct messages");
  await page.reload();
  await expect(settings.getByTestId("notifications-preference-all")).toHaveAttribute("aria-checked", "true");
  await settings.getByTestId("notifications-preference-mentions").click();
  await expect(settings.getByTestId("notifications-preference-mentions")).toHaveAttribute("aria-checked", "true");

  // The shell offers it too, dismissibly; the settings button is what asks here.
  await expect(page.getByTestId("desktop-prompt")).toBeVisible();
  mkdirSync("docs/screenshots", { recursive: true });
  await settings.screenshot({ path: "docs/screenshots/notification-settings.png" });
  await settings.getByTestId("enable-desktop-notifications").click();
  await expect(settings.getByTestId("desktop-enabled")).toBeVisible();
  expect(await page.evaluate(() => window.__permissionAsked)).toBe(true);
  await expect(page.getByTestId("desktop-prompt")).toBeHidden();

  // An agent of Alice's, in a channel with her, through the SDK.
  const { agent, apiKey } = await trpc<{ agent: { id: string }; apiKey: string }>(page, "agents.create", { handle: `pager-${run}`, displayName: "Pager" });
  const room = await trpc<{ id: string }>(page, "rooms.createChannel", { name: `alerts-${run}`, visibility: "private", memberIds: [agent.id] });
  const client = new SwitchboardClient({ url: baseURL!, apiKey });
  try {
    await client.connect();

    // A visible tab raises nothing: the message is on screen (or a click away).
    await client.send(room.id, `@${people.alice.handle} visible-tab ping`);
    // The tab goes to the background.
    await page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
      Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await client.send(room.id, "no mention, so no notification");
    await client.send(room.id, `@${people.alice.handle} the nightly build is red`);

    await expect.poll(() => page.evaluate(() => window.__notices.length)).toBe(1);
    const [notice] = await page.evaluate(() => window.__notices);
    expect(notice.title).toBe(`Pager mentioned you in #alerts-${run}`);
    expect(notice.body).toBe(`@${people.alice.handle} the nightly build is red`);
    expect(notice.tag).toBe(`room:${room.id}`);

    // A question for her raises one too, once (the server says whom a question is for).
    const question = await client.postQuestion(room.id, { prompt: "Restart the flaky runner?", kind: "approval", audience: { type: "owner" } });
    await expect.poll(() => page.evaluate(() => window.__notices.length)).toBe(2);
    const asked = (await page.evaluate(() => window.__notices))[1];
    expect(asked).toMatchObject({ title: "Pager asks you", body: "Restart the flaky runner?", tag: `question:${question.id}` });
    await client.cancelQuestion(question.id); // later specs start with nothing waiting for Alice

    // Clicking it opens the room.
    await page.evaluate(() => window.__noticeObjects[0].onclick?.(new Event("click")));
    await page.waitForURL(new RegExp(`/r/${room.id}$`));
  } finally {
    await client.close();
  }
});
