// The keyboard alone: dialogs open in their first field and give focus back, Ctrl+K, ↑ to edit the
// last message, messages and their actions by Tab and arrows, Alt+↑/↓ through the sidebar, `?` for the
// shortcuts sheet (screenshot: docs/screenshots/keyboard-shortcuts.png), the skip link and "Jump to latest".
import { randomUUID } from "node:crypto";
import type { RoomView } from "@switchboard/sdk/contract";
import { expect, test } from "./fixtures";
import { messageWithText, people, send, signUpFirstOrSignIn, timeline, trpc } from "./helpers";

test("a person works the room with the keyboard alone", async ({ page }) => {
  await signUpFirstOrSignIn(page, people.alice);
  const composer = page.getByTestId("composer");
  const rowOf = (text: string) => messageWithText(page, text).locator("[data-message-row]");

  // A dialog opens with focus in its first field; Escape closes it and focus goes back to its button.
  const createButton = page.getByTestId("create-channel");
  await createButton.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("channel-name")).toBeFocused();
  await page.keyboard.type("typed-at-once");
  await expect(page.getByTestId("channel-name")).toHaveValue("typed-at-once");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("create-channel-dialog")).toBeHidden();
  await expect(createButton).toBeFocused();

  // Ctrl+K from the composer: what is typed lands in the switcher, Enter opens the room. Escape gives focus back.
  const name = `kb-${randomUUID().slice(0, 8)}`;
  const room = await trpc<RoomView>(page, "rooms.createChannel", { name });
  await expect(page.locator(`[data-testid="sidebar-room"][data-room-id="${room.id}"]`)).toBeVisible();
  await composer.focus();
  await page.keyboard.press("Control+k");
  await expect(page.getByTestId("switcher-input")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("quick-switcher")).toBeHidden();
  await expect(composer).toBeFocused();
  await page.keyboard.press("Control+k");
  await page.keyboard.type(name);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/r/${room.id}$`));
  await expect(page.getByTestId("room-title")).toHaveText(name);
  await expect(composer).toBeFocused();

  // ↑ in the empty composer edits my last message: Enter saves, Escape cancels; focus comes back.
  await send(page, "first draft");
  await send(page, "second draft");
  await expect(messageWithText(page, "second draft")).toBeVisible();
  await page.keyboard.press("ArrowUp");
  const editor = page.getByTestId("edit-input");
  await expect(editor).toBeFocused();
  await expect(editor).toHaveValue("second draft");
  await page.keyboard.type(", final");
  await page.keyboard.press("Enter");
  await expect(messageWithText(page, "second draft, final").getByTestId("edited-marker")).toBeVisible();
  await expect(composer).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.type(" and more");
  await page.keyboard.press("Escape");
  await expect(editor).toHaveCount(0);
  await expect(messageWithText(page, "second draft, final")).toBeVisible();
  await expect(composer).toBeFocused();

  // Shift+Tab from the composer reaches the newest message; arrows move between messages; Tab reaches
  // its actions; Enter on Reply opens the thread, in its reply box; Escape closes it.
  await page.keyboard.press("Shift+Tab");
  await expect(rowOf("second draft, final")).toBeFocused();
  await expect(messageWithText(page, "second draft, final").getByTestId("message-actions")).toBeVisible();
  await page.keyboard.press("ArrowUp");
  await expect(rowOf("first draft")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(rowOf("second draft, final")).toBeFocused();
  const actions = ["action-reply", "action-react", "action-copy-link", "action-pin", "action-mark-unread", "action-edit", "action-delete"];
  for (const action of actions) {
    await page.keyboard.press("Tab");
    await expect(messageWithText(page, "second draft, final").getByTestId(action)).toBeFocused();
  }
  for (let i = 1; i < actions.length; i++) await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("thread-root")).toContainText("second draft, final");
  await expect(page.getByTestId("thread-composer")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("thread-panel")).toHaveCount(0);
  await expect(composer).toBeFocused();

  // `?` is text in the composer; on a message it opens the shortcuts sheet (so does the sidebar's keyboard
  // button), and Escape gives focus back.
  await page.keyboard.type("?");
  await expect(composer).toHaveValue("?");
  await expect(page.getByTestId("shortcuts-sheet")).toBeHidden();
  await composer.fill("");
  await page.keyboard.press("Shift+Tab");
  await expect(rowOf("second draft, final")).toBeFocused();
  await page.keyboard.press("?");
  const sheet = page.getByTestId("shortcuts-sheet");
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText("Previous or next unread conversation");
  await sheet.screenshot({ path: "docs/screenshots/keyboard-shortcuts.png" });
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
  await expect(rowOf("second draft, final")).toBeFocused();
  await page.getByTestId("open-shortcuts").click();
  await expect(sheet).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("open-shortcuts")).toBeFocused();

  // Alt+↑ and Alt+↓ move through the sidebar's rooms, in its order, from the composer too.
  const order = await page.getByTestId("sidebar-room").evaluateAll((links) => links.map((a) => a.getAttribute("data-room-id")));
  const at = order.indexOf(room.id);
  expect(at).toBeGreaterThan(0); // #general sorts before it
  await composer.focus();
  await page.keyboard.press("Alt+ArrowUp");
  await expect(page).toHaveURL(new RegExp(`/r/${order[at - 1]}$`));
  await expect(composer).toBeFocused();
  await page.keyboard.press("Alt+ArrowDown");
  await expect(page).toHaveURL(new RegExp(`/r/${room.id}$`));
  await expect(composer).toBeFocused();

  // The skip link comes before the sidebar, shows when focused and moves focus to the composer.
  await page.getByTestId("workspace-menu").focus();
  await page.keyboard.press("Shift+Tab");
  const skip = page.getByTestId("skip-link");
  await expect(skip).toBeFocused();
  await expect(skip).toHaveText("Skip to the composer");
  expect((await skip.boundingBox())?.width).toBeGreaterThan(50);
  await page.keyboard.press("Enter");
  await expect(composer).toBeFocused();

  // "Jump to latest" goes away once pressed: focus goes with it to the newest message, not to the page.
  const lines = Array.from({ length: 16 }, (_, i) => `line ${i + 1}`).join("\n");
  for (let i = 1; i <= 4; i++) await trpc(page, "messages.send", { roomId: room.id, body: `${lines}\ntall ${i}`, clientMsgId: randomUUID() });
  const newest = timeline(page).locator("[data-message-row]").filter({ hasText: "tall 4" });
  await expect(newest).toBeVisible();
  await timeline(page).evaluate((el) => el.scrollTo(0, 0));
  const jump = page.getByTestId("jump-to-latest");
  await jump.focus();
  await page.keyboard.press("Enter");
  await expect(jump).toBeHidden();
  await expect(newest).toBeFocused();
});
