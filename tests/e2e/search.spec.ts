// Searching messages in the browser: Ctrl+Shift+F opens Search with focus in its field; typing finds
// messages by any form of a word, each shown with where it matched; a hit opens in its room, paging
// back to an old message and highlighting it (its copied link is the same), or in its thread.
// Screenshot: docs/screenshots/search.png.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { expect, test } from "./fixtures";
import type { MessageView, RoomView } from "@switchboard/sdk/contract";
import { clickHoverAction, people, signUpFirstOrSignIn, trpc } from "./helpers";

const run = randomUUID().slice(0, 6);

test("search finds messages by their words, and each opens where it was said, highlighted", async ({ page }) => {
  await signUpFirstOrSignIn(page, people.alice);
  const room = await trpc<RoomView>(page, "rooms.createChannel", { name: `search-${run}`, visibility: "public", memberIds: [] });
  // Sixty messages at once: past a person's burst (the workspace's limits, restored at the end for the specs after this one).
  const limits = await trpc<{ peopleMessagesPerMinute: number; peopleBurst: number }>(page, "workspace.limits", undefined, "query");
  await trpc(page, "workspace.setLimits", { peopleMessagesPerMinute: 10_000, peopleBurst: 10_000 });
  const restore = () => trpc(page, "workspace.setLimits", { peopleMessagesPerMinute: limits.peopleMessagesPerMinute, peopleBurst: limits.peopleBurst });
  const say = (body: string, threadRootId?: string) =>
    trpc<MessageView>(page, "messages.send", { roomId: room.id, body, clientMsgId: randomUUID(), ...(threadRootId ? { threadRootId } : {}) });
  // An old message, 60 messages back (the room shows the newest 50), then a thread.
  const old = await say(`The zebra${run} deploy pipeline is flaky on Fridays`);
  for (let i = 0; i < 60; i++) await say(`filler ${i}`);
  const root = await say(`Release notes for zebra${run}`);
  const reply = await say(`Deploying zebra${run} now, all green`, root.id);
  await restore();

  await page.keyboard.press("Control+Shift+F");
  await expect(page).toHaveURL(/\/search$/);
  await expect(page.getByTestId("search-input")).toBeFocused();
  await page.keyboard.type(`zebra${run} deploy`);
  const hits = page.getByTestId("search-hit");
  await expect(hits).toHaveCount(2);
  await expect(page).toHaveURL(new RegExp(`q=zebra${run}`));
  // Where the words matched: each form of "deploy", and the word itself.
  await expect(page.locator(`[data-testid="search-hit"][data-message-id="${old.id}"] mark`)).toHaveText([`zebra${run}`, "deploy"]);
  await expect(page.locator(`[data-testid="search-hit"][data-message-id="${reply.id}"] mark`)).toHaveText(["Deploying", `zebra${run}`]);
  await expect(page.locator(`[data-testid="search-hit"][data-message-id="${reply.id}"]`)).toContainText("in a thread");
  // Newest first on request.
  await page.getByTestId("search-sort-date").click();
  await expect(hits.first()).toHaveAttribute("data-message-id", reply.id);
  mkdirSync("docs/screenshots", { recursive: true });
  await page.screenshot({ path: "docs/screenshots/search.png" });
  // A query to fix says what to write.
  await page.getByTestId("search-input").fill("deploy before:yesterday");
  await expect(page.getByTestId("search-error")).toContainText("YYYY-MM-DD");

  // The old message opens in its room, paged back to and highlighted.
  await page.getByTestId("search-input").fill(`zebra${run} fridays`);
  await page.locator(`[data-testid="search-hit"][data-message-id="${old.id}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/r/${room.id}\\?message=${old.id}`));
  const shown = page.locator(`[data-testid="message"][data-message-id="${old.id}"]`);
  await expect(shown).toHaveAttribute("data-highlighted", "true");
  await expect(shown).toBeInViewport();
  // Its link, copied from its actions, is the same kind of link (what reaches the clipboard, kept by the page).
  await page.evaluate(() => {
    navigator.clipboard.writeText = async (text: string) => void document.body.setAttribute("data-copied", text);
  });
  await clickHoverAction(shown, "action-copy-link");
  await expect(page.getByText("Link copied")).toBeVisible();
  await expect(page.locator("body")).toHaveAttribute("data-copied", new RegExp(`/r/${room.id}\\?message=${old.id}$`));

  // A reply opens its thread, highlighted there.
  await page.goto(`/search?q=${encodeURIComponent(`zebra${run} green`)}`);
  await page.locator(`[data-testid="search-hit"][data-message-id="${reply.id}"]`).click();
  await expect(page.getByTestId("thread-panel")).toBeVisible();
  await expect(page.getByTestId("thread-panel").locator(`[data-message-id="${reply.id}"]`)).toHaveAttribute("data-highlighted", "true");
});
