// Reactions, pins and "mark unread" in two browsers, and a message's actions on a phone: a reaction
// picked in one browser shows in the other live, with who reacted; a pin shows in the room header's
// list and jumps to the message; "mark unread from here" brings the sidebar's badge back and the room
// does not mark itself read while the reader stays; on a phone the ⋯ button opens the action sheet and
// Reply opens the thread full screen. Screenshots: docs/screenshots/reactions.png, phone-actions.png.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { expect, test } from "./fixtures";
import type { MessageView, RoomView } from "@switchboard/sdk/contract";
import { clickHoverAction, createInviteLink, people, type Person, signUpFirstOrSignIn, signUpWithInvite, trpc } from "./helpers";

const run = randomUUID().slice(0, 6);
const rosa: Person = { name: "Rosa Diaz", handle: "rosa", email: "rosa@example.com", password: "rosa-password-12" };

test("reactions and pins are live for the room, and mark unread brings the badge back", async ({ browser }) => {
  const ctxA = await browser.newContext();
  const ctxR = await browser.newContext();
  const a = await ctxA.newPage();
  const r = await ctxR.newPage();
  await signUpFirstOrSignIn(a, people.alice);
  await signUpWithInvite(r, await createInviteLink(a), rosa, people.alice.name);
  const participants = await trpc<{ id: string; handle: string }[]>(a, "workspace.participants", undefined, "query");
  const rosaId = participants.find((p) => p.handle === "rosa")!.id;
  const room = await trpc<RoomView>(a, "rooms.createChannel", { name: `reactions-${run}`, visibility: "public", memberIds: [rosaId] });
  const say = (body: string) => trpc<MessageView>(a, "messages.send", { roomId: room.id, body, clientMsgId: randomUUID() });
  const lunch = await say("Lunch at noon? The new ramen place opened on 5th.");
  const plan = await say("Release plan: freeze Thursday, ship Monday. Runbook in the wiki.");
  await a.goto(`/r/${room.id}`);
  await r.goto(`/r/${room.id}`);

  // Rosa reacts from the message's toolbar and the picker.
  const rosaLunch = r.locator(`[data-testid="message"][data-message-id="${lunch.id}"]`);
  await clickHoverAction(rosaLunch, "action-react");
  await expect(r.getByTestId("emoji-picker")).toBeVisible();
  await r.locator('[data-testid="emoji-option"][data-emoji="🎉"]').click();
  await expect(rosaLunch.locator('[data-testid="reaction"][data-emoji="🎉"]')).toHaveAttribute("data-mine", "true");

  // Alice sees it live, with who reacted, and adds hers with a click on it; Rosa sees the count move.
  const aliceLunch = a.locator(`[data-testid="message"][data-message-id="${lunch.id}"]`);
  const party = aliceLunch.locator('[data-testid="reaction"][data-emoji="🎉"]');
  await expect(party.getByTestId("reaction-count")).toHaveText("1");
  await expect(party).toHaveAttribute("title", "Rosa Diaz reacted with 🎉");
  await party.click();
  await expect(party.getByTestId("reaction-count")).toHaveText("2");
  await expect(rosaLunch.locator('[data-testid="reaction"][data-emoji="🎉"] [data-testid="reaction-count"]')).toHaveText("2");
  // Any emoji may be typed; one that is not an emoji is refused in the field.
  await clickHoverAction(aliceLunch, "action-react");
  await a.getByTestId("emoji-input").fill("ok");
  await a.getByTestId("emoji-input").press("Enter");
  await expect(a.getByTestId("emoji-picker").getByRole("alert")).toHaveText("Type one emoji");
  await a.getByTestId("emoji-input").fill("🍜");
  await a.getByTestId("emoji-input").press("Enter");
  await expect(rosaLunch.locator('[data-testid="reaction"][data-emoji="🍜"]')).toBeVisible();

  // Alice pins the plan: the header's count shows in both browsers, and Rosa's list jumps to it.
  const alicePlan = a.locator(`[data-testid="message"][data-message-id="${plan.id}"]`);
  await clickHoverAction(alicePlan, "action-pin");
  await expect(alicePlan.getByTestId("pinned-marker")).toHaveText("Pinned by you");
  await expect(a.getByTestId("pinned-count")).toHaveText("1");
  await expect(r.getByTestId("pinned-count")).toHaveText("1");
  mkdirSync("docs/screenshots", { recursive: true });
  await a.getByTestId("pinned-button").click();
  await expect(a.getByTestId("pinned-item")).toHaveCount(1);
  await aliceLunch.hover();
  await a.screenshot({ path: "docs/screenshots/reactions.png" });
  await a.keyboard.press("Escape");
  await r.getByTestId("pinned-button").click();
  await expect(r.getByTestId("pinned-item")).toHaveCount(1);
  await expect(r.getByTestId("pinned-item")).toContainText("Release plan");
  await r.getByTestId("pinned-item").click();
  await expect(r).toHaveURL(new RegExp(`/r/${room.id}\\?message=${plan.id}`));
  await expect(r.locator(`[data-testid="message"][data-message-id="${plan.id}"]`)).toHaveAttribute("data-highlighted", "true");

  // Rosa marks the room unread from the lunch message: her sidebar shows both messages unread again,
  // with the new-messages line there, while she stays in the room.
  const rosaSidebarRoom = r.locator(`[data-testid="sidebar-room"][data-room-id="${room.id}"]`);
  await expect(rosaSidebarRoom.getByTestId("unread-count")).toHaveCount(0);
  await clickHoverAction(rosaLunch, "action-mark-unread");
  await expect(rosaSidebarRoom.getByTestId("unread-count")).toHaveText("2");
  await expect(r.getByTestId("new-messages-line")).toBeVisible();
  // Activity that is not a new message (Alice unpins, live, with the keyboard's P) does not mark it read.
  await alicePlan.locator("[data-message-row]").focus();
  await a.keyboard.press("p");
  await expect(r.getByTestId("pinned-button")).toHaveCount(0);
  await expect(rosaSidebarRoom.getByTestId("unread-count")).toHaveText("2");
  const mine = await trpc<{ id: string; unread: number }[]>(r, "rooms.mine", undefined, "query");
  expect(mine.find((x) => x.id === room.id)?.unread).toBe(2);
});

test("on a phone, ⋯ opens a message's actions in a sheet, and a thread opens full screen", async ({ browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await ctx.newPage();
  await signUpFirstOrSignIn(page, people.alice);
  const room = await trpc<RoomView>(page, "rooms.createChannel", { name: `phone-${run}`, visibility: "public", memberIds: [] });
  const message = await trpc<MessageView>(page, "messages.send", {
    roomId: room.id,
    body: "Standup moved to 10:30 tomorrow; agenda in the doc.",
    clientMsgId: randomUUID(),
  });
  await page.goto(`/r/${room.id}`);
  const row = page.locator(`[data-testid="message"][data-message-id="${message.id}"]`);
  await row.getByTestId("message-more").tap();
  const sheet = page.getByTestId("message-sheet");
  await expect(sheet).toBeVisible();
  for (const action of ["sheet-reply", "sheet-react", "sheet-edit", "sheet-copy-link", "sheet-pin", "sheet-mark-unread", "sheet-delete"]) {
    await expect(sheet.getByTestId(action)).toBeVisible();
  }
  await page.screenshot({ path: "docs/screenshots/phone-actions.png" });
  // A reaction from the sheet's row of emoji.
  await sheet.locator('[data-testid="sheet-emoji"][data-emoji="👍"]').tap();
  await expect(sheet).toBeHidden();
  await expect(row.locator('[data-testid="reaction"][data-emoji="👍"]')).toHaveAttribute("data-mine", "true");

  // Reply in thread: the thread takes the whole screen, with a way back.
  await row.getByTestId("message-more").tap();
  await page.getByTestId("sheet-reply").tap();
  const thread = page.getByTestId("thread-panel");
  await expect(thread).toBeVisible();
  const box = await thread.boundingBox();
  expect(box).toMatchObject({ x: 0, y: 0, width: 390, height: 844 });
  await page.getByTestId("thread-back").tap();
  await expect(thread).toBeHidden();
});
