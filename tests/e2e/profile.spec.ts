// Profiles and channel settings in the browser: Alice sets a status in Settings and Pat, in another
// browser, sees it beside her name live (the author line, the members panel, her profile card); Alice
// renames a channel and sets its topic from its settings dialog, and Pat's header and timeline follow.
// Screenshot: docs/screenshots/profile.png.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { deflateSync } from "node:zlib";
import type { RoomView } from "@switchboard/sdk/contract";
import { expect, test } from "./fixtures";
import { createInviteLink, messageWithText, people, signUpFirstOrSignIn, signUpWithInvite, timeline, trpc, type Person } from "./helpers";

const run = Date.now().toString(36).slice(-6);
/** A PNG of `size`×`size` pixels in two colours, diagonally split: an avatar to upload. */
function twoTonePng(size: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Array.from({ length: size }, (_, y) =>
    Buffer.from([0, ...Array.from({ length: size }, (_, x) => (x > y ? [236, 72, 153] : [79, 70, 229])).flat()]),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const pat: Person = { name: "Pat Reyes", handle: `pat-${run}`, email: `pat-${run}@example.com`, password: "pat-password-123" };

test("a status set in Settings shows beside the name in another browser; a channel is renamed from its settings", async ({ browser }) => {
  const a = await (await browser.newContext()).newPage();
  await signUpFirstOrSignIn(a, people.alice);
  const invite = await createInviteLink(a);
  const p = await (await browser.newContext({ viewport: { width: 1280, height: 820 } })).newPage();
  await signUpWithInvite(p, invite, pat, people.alice.name);

  const room = await trpc<RoomView>(a, "rooms.createChannel", { name: `launch-${run}`, visibility: "public", topic: "", memberIds: [] });
  await trpc(p, "rooms.join", { roomId: room.id });
  const said = `Launch checklist ${run} is ready for review`;
  await trpc(a, "messages.send", { roomId: room.id, body: said, clientMsgId: randomUUID() });
  await p.goto(`/r/${room.id}`);
  const aliceMessage = messageWithText(p, said);
  await expect(aliceMessage).toBeVisible();
  await expect(aliceMessage.getByTestId("status-emoji")).toHaveCount(0);

  // ---- Alice uploads an avatar and sets her status in Settings, beside her notification settings.
  await a.goto("/settings");
  await expect(a.getByTestId("notification-settings")).toBeVisible();
  await a.getByTestId("avatar-input").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: twoTonePng(64) });
  await expect(a.getByTestId("avatar-settings").getByTestId("avatar-image")).toBeVisible();
  await a.getByTestId("status-emoji-input").fill("🚀");
  await a.getByTestId("status-text-input").fill(`Shipping ${run}`);
  await a.getByTestId("status-clear-after").selectOption("1h");
  await a.getByTestId("status-save").click();
  await expect(a.getByTestId("status-now")).toContainText(`Shipping ${run}`);

  // ---- Pat sees it beside her name without reloading: the author line (its words as the tooltip), the members panel.
  await expect(aliceMessage.getByTestId("avatar-image")).toBeVisible();
  const emoji = aliceMessage.getByTestId("status-emoji");
  await expect(emoji).toHaveText("🚀");
  await expect(emoji).toHaveAttribute("title", `Shipping ${run}`);
  await p.getByTestId("toggle-members").click();
  await expect(p.locator(`[data-testid="member"][data-handle="alice"] [data-testid="status-emoji"]`)).toHaveText("🚀");
  // Her name opens her card: handle, status, and a way to message her.
  await aliceMessage.getByTestId("message-author").click();
  const card = p.getByTestId("profile-card");
  await expect(card.getByTestId("profile-card-name")).toHaveText(people.alice.name);
  await expect(card.getByTestId("profile-card-status")).toContainText(`Shipping ${run}`);
  await expect(card.getByTestId("profile-card-message")).toBeVisible();
  await p.keyboard.press("Escape");
  await expect(card).toBeHidden();

  // ---- Alice renames the channel and sets its topic from its settings dialog; Pat may not (no gear).
  await expect(p.getByTestId("channel-settings")).toHaveCount(0);
  await a.goto(`/r/${room.id}`);
  await a.getByTestId("channel-settings").click();
  const dialog = a.getByTestId("channel-settings-dialog");
  await dialog.getByTestId("channel-settings-name").fill(`liftoff-${run}`);
  await dialog.getByTestId("channel-settings-topic").fill("Everything about Friday's launch");
  await dialog.getByTestId("channel-settings-save").click();
  await expect(dialog).toBeHidden();
  await expect(a.getByTestId("room-title")).toHaveText(`liftoff-${run}`);

  // Pat's header, sidebar and timeline follow.
  await expect(p.getByTestId("room-title")).toHaveText(`liftoff-${run}`);
  await expect(p.getByTestId("room-topic")).toHaveText("Everything about Friday's launch");
  await expect(p.locator(`[data-testid="sidebar-room"][data-room-id="${room.id}"]`)).toHaveAttribute("data-title", `liftoff-${run}`);
  await expect(
    timeline(p)
      .getByTestId("event-line")
      .filter({ hasText: `@alice renamed the channel to #liftoff-${run}` }),
  ).toBeVisible();
  await expect(timeline(p).getByTestId("event-line").filter({ hasText: "@alice set the topic: Everything about Friday's launch" })).toBeVisible();

  // The screenshot without the hover toolbar and the focus ring the closed card gave back to the name.
  await p.mouse.move(0, 0);
  await p.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  mkdirSync("docs/screenshots", { recursive: true });
  await p.screenshot({ path: "docs/screenshots/profile.png" });

  // Alice's status is hers to clear; it goes from Pat's view too.
  await a.goto("/settings");
  await a.getByTestId("status-clear").click();
  await a.getByTestId("avatar-remove").click();
  await expect(a.getByTestId("avatar-settings").getByTestId("avatar-image")).toHaveCount(0);
  await expect(a.getByTestId("status-now")).not.toContainText(`Shipping ${run}`);
  await expect(p.locator(`[data-testid="member"][data-handle="alice"] [data-testid="status-emoji"]`)).toHaveCount(0);
});
