// Two people in two browsers: invite, a private channel, live chat in one order, a thread, a reload,
// and a third person who is kept out of the private channel.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { expect, test, type BrowserContext } from "./fixtures";
import { io } from "socket.io-client";
import { clickHoverAction, createInviteLink, messageBodies, messageWithText, people, send, signUpFirstOrSignIn, signUpWithInvite, timeline } from "./helpers";
import type { Ack, MessageView } from "@switchboard/sdk/contract";

test("people chat live in a private channel, in one order, with threads and no access for outsiders", async ({ browser }) => {
  test.setTimeout(240_000);
  const ctxA = await browser.newContext();
  const ctxB = await browser.newContext();
  const ctxC = await browser.newContext();
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  const c = await ctxC.newPage();
  // Socket.IO frames that carry a batch of messages committed together (B's browser asks for them).
  let batchFrames = 0;
  b.on("websocket", (ws) => ws.on("framereceived", (f) => void (typeof f.payload === "string" && f.payload.startsWith('42["message:batch"') && batchFrames++)));

  // A creates the workspace and an invite link; B and C join with it.
  await signUpFirstOrSignIn(a, people.alice);
  const invite = await createInviteLink(a);
  expect(invite).toContain("/invite/");
  await signUpWithInvite(b, invite, people.bob, people.alice.name);

  // A creates a private channel with B in it.
  await a.getByTestId("create-channel").click();
  await a.getByTestId("channel-name").fill("launch-plan");
  await a.getByTestId("visibility-private").check();
  await a.getByTestId("channel-topic").fill("Shipping the agent SDK");
  await a.locator('[data-testid="participant-option"][data-handle="bob"]').click();
  await a.getByTestId("create-channel-submit").click();
  await expect(a.getByTestId("room-title")).toHaveText("launch-plan");
  await expect(a.getByTestId("room-private")).toBeVisible();
  await expect(a.getByTestId("member-count")).toHaveText("2");
  const roomUrl = a.url();

  // B's sidebar gets the new room live.
  const bRoomLink = b.locator('[data-testid="sidebar-room"][data-title="launch-plan"]');
  await expect(bRoomLink).toBeVisible();
  await bRoomLink.click();
  await expect(b.getByTestId("room-title")).toHaveText("launch-plan");
  await expect(b).toHaveURL(roomUrl);

  // Typing shows on the other side.
  await a.getByTestId("composer").fill("typing something");
  await expect(b.getByTestId("typing-indicator")).toContainText(`${people.alice.name} is typing`);
  await a.getByTestId("composer").fill("");

  // Both chat; sends interleave, some back to back. The server's seq decides the order; both
  // people must see the same one, live.
  const script: [typeof a, string][] = [
    [a, "Morning Bob! Ready to plan the launch?"],
    [b, "Morning. Yes: the SDK docs are the last blocker."],
    [a, "I'll take the **protocol** page."],
    [a, "Can you own the `examples/` folder?"],
    [b, "On it."],
    [b, "Draft PR by noon."],
  ];
  for (const [page, text] of script) await send(page, text);
  const texts = script.map(([, text]) => text.replace(/\*\*|`/g, ""));
  await expect(messageBodies(a)).toHaveCount(texts.length);
  await expect(messageBodies(b)).toHaveCount(texts.length);
  await expect(a.getByTestId("pending-message")).toHaveCount(0);
  await expect(b.getByTestId("pending-message")).toHaveCount(0);
  const order = await messageBodies(a).allInnerTexts();
  expect([...order].sort()).toEqual([...texts].sort());
  await expect(messageBodies(b)).toHaveText(order);
  // Each person's own messages keep the order they were typed in.
  for (const page of [a, b]) {
    const own = script.filter(([p]) => p === page).map(([, t]) => t.replace(/\*\*|`/g, ""));
    expect(order.filter((t) => own.includes(t))).toEqual(own);
  }

  // A thread: B opens it first, A replies, B sees the reply arrive in the panel.
  const root = "Morning Bob! Ready to plan the launch?";
  await clickHoverAction(messageWithText(b, root), "action-reply");
  await expect(b.getByTestId("thread-panel")).toBeVisible();
  await expect(b.getByTestId("thread-root")).toContainText(root);

  await clickHoverAction(messageWithText(a, root), "action-reply");
  await send(a, "Thread: protocol page outline is in the doc.", "thread-composer");
  await expect(b.getByTestId("thread-replies")).toContainText("Thread: protocol page outline is in the doc.");
  await expect(messageWithText(b, root).getByTestId("thread-summary")).toHaveText(/1 reply/);
  await send(b, "Thread: great, reviewing now.", "thread-composer");
  await expect(a.getByTestId("thread-replies").getByTestId("message-body")).toHaveText([
    "Thread: protocol page outline is in the doc.",
    "Thread: great, reviewing now.",
  ]);
  // Replies stay out of the main timeline.
  await expect(timeline(a).getByText("Thread: great, reviewing now.")).toHaveCount(0);
  await expect(messageBodies(a)).toHaveText(order);

  mkdirSync("artifacts", { recursive: true });
  await a.screenshot({ path: "artifacts/room-view.png" });

  // After a reload, both see the same stored history.
  await Promise.all([a.reload(), b.reload()]);
  await expect(messageBodies(a)).toHaveText(order);
  await expect(messageBodies(b)).toHaveText(order);
  await expect(messageWithText(a, root).getByTestId("thread-summary")).toHaveText(/2 replies/);

  // An agent-speed burst: A's sends all in flight at once are stored a few per commit, and B's
  // browser, taking each commit as one message:batch, shows every message live, in the stored order.
  const burst = await burstFrom(ctxA, new URL(roomUrl).origin, new URL(roomUrl).pathname.split("/").pop()!, 24);
  const afterBurst = [...order, ...burst.map((m) => m.body)];
  for (const page of [a, b]) {
    // The timeline is virtualized: what it renders is a window, which must be the stored order's tail.
    await expect(messageBodies(page).last()).toHaveText(afterBurst[afterBurst.length - 1]);
    const shown = await messageBodies(page).allInnerTexts();
    expect(shown.length).toBeGreaterThan(1);
    expect(shown).toEqual(afterBurst.slice(afterBurst.length - shown.length));
  }
  expect(batchFrames).toBeGreaterThan(0);

  // Owners and admins moderate: A (the workspace's owner) is offered Delete, not Edit, on B's message
  // and deletes it for everyone; B is offered neither on A's.
  await send(b, "A message for the moderator");
  const bobsMessage = messageWithText(a, "A message for the moderator");
  await bobsMessage.hover();
  await expect(bobsMessage.getByTestId("action-delete")).toBeVisible();
  await expect(bobsMessage.getByTestId("action-edit")).toHaveCount(0);
  await a.screenshot({ path: "artifacts/room-moderation.png" });
  await bobsMessage.getByTestId("action-delete").click();
  await a.getByTestId("confirm-delete").click();
  await expect(a.getByTestId("delete-dialog")).toBeHidden();
  await expect(messageWithText(b, "A message for the moderator")).toHaveCount(0);
  await expect(timeline(b).getByTestId("message-deleted").last()).toBeVisible();
  const alicesLast = messageWithText(b, afterBurst[afterBurst.length - 1]);
  await alicesLast.hover();
  await expect(alicesLast.getByTestId("action-reply")).toBeVisible();
  await expect(alicesLast.getByTestId("action-delete")).toHaveCount(0);
  await expect(alicesLast.getByTestId("action-edit")).toHaveCount(0);

  // What counts as unread is the server's rule, live too: a message deleted before B reads it stops
  // counting in B's sidebar.
  await b.locator('[data-testid="sidebar-room"][data-title="general"]').click();
  await expect(b.getByTestId("room-title")).toHaveText("general");
  const bLaunchPlan = b.locator('[data-testid="sidebar-room"][data-title="launch-plan"]');
  await expect(bLaunchPlan).toHaveAttribute("data-unread", "0");
  await send(a, "Posted by mistake");
  await expect(bLaunchPlan).toHaveAttribute("data-unread", "1");
  const mistake = messageWithText(a, "Posted by mistake");
  await clickHoverAction(mistake, "action-delete");
  await a.getByTestId("confirm-delete").click();
  await expect(bLaunchPlan).toHaveAttribute("data-unread", "0");

  // C joins the workspace but is not in the private channel: the URL shows the no-access page.
  await signUpWithInvite(c, invite, people.carol, people.alice.name);
  await expect(c.locator('[data-testid="sidebar-room"][data-title="launch-plan"]')).toHaveCount(0);
  await c.goto(roomUrl);
  await expect(c.getByTestId("no-access")).toBeVisible();
  await expect(c.getByTestId("no-access")).toContainText("This room doesn't exist or you don't have access");
  await expect(c.getByTestId("composer")).toHaveCount(0);

  // A mentions C, who is not in the room: A is told so under the composer, with the step that reaches
  // C; once invited, C has the room, and the notice has nothing left to say.
  await a.goto(roomUrl);
  await send(a, "@carol could you look at the launch plan?");
  const notice = a.getByTestId("unreached-notice");
  await expect(notice).toContainText("@carol is not in this room.");
  await notice.getByRole("button", { name: "Invite them" }).click();
  await expect(a.getByTestId("toast").filter({ hasText: "Invited @carol to #launch-plan" })).toBeVisible();
  await expect(notice).toHaveCount(0);
  await expect(c.locator('[data-testid="sidebar-room"][data-title="launch-plan"]')).toHaveCount(1);

  await Promise.all([ctxA.close(), ctxB.close(), ctxC.close()]);
});

test("HTML and script in a message render as inert text", async ({ page }) => {
  await signUpFirstOrSignIn(page, people.alice);
  const payload = `<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>`;
  await send(page, payload);
  const message = messageWithText(page, payload);
  await expect(message).toBeVisible();
  await expect(message.getByTestId("message-body")).toHaveText(payload);
  await expect(timeline(page).locator("img, script")).toHaveCount(0);
  await expect(page.getByTestId("pending-message")).toHaveCount(0);
  await page.reload();
  await expect(messageWithText(page, payload)).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
});

/** `n` messages sent at once over a socket with the context's session, as an agent would: returns them in seq order. */
async function burstFrom(context: BrowserContext, origin: string, roomId: string, n: number): Promise<MessageView[]> {
  const cookie = (await context.cookies(origin)).map((c) => `${c.name}=${c.value}`).join("; ");
  const socket = io(origin, { path: "/socket.io", transports: ["websocket"], extraHeaders: { cookie }, reconnection: false });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("session:ready", () => resolve());
      socket.once("connect_error", reject);
    });
    const acks = (await Promise.all(
      Array.from({ length: n }, (_, i) =>
        socket.timeout(15_000).emitWithAck("message:send", { roomId, body: `Checklist item ${i + 1}`, clientMsgId: randomUUID() }),
      ),
    )) as Ack<MessageView>[];
    const stored = acks.map((a) => {
      if (!a.ok) throw new Error(`send refused: ${a.error.code}`);
      return a.data;
    });
    return stored.sort((x, y) => x.seq - y.seq);
  } finally {
    socket.disconnect();
  }
}
