// Runtime bindings in the browser. An agent (the real SDK client, over the socket, as a runner would)
// claims and updates its binding turn by turn; the room header shows the session and follows it live
// (working, resumed N×, a failed resume's warning, a thread's session); a member who does not own the
// agent sees it but may not close it; the owner closes it from the header, and the agent's card lists
// it as closed; an agent never bound says how sessions appear. Screenshots: test-results/bindings-*.png.
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "./fixtures";
import { SwitchboardClient } from "@switchboard/sdk";
import type { BindingView } from "@switchboard/sdk/bindings";
import type { RoomView } from "@switchboard/sdk/contract";
import { createInviteLink, people, signUpFirstOrSignIn, signUpWithInvite, trpc, type Person } from "./helpers";

const run = Date.now().toString(36).slice(-6);
const dana: Person = { name: "Dana Okoro", handle: `dana-${run}`, email: `dana-${run}@example.com`, password: "dana-password-123" };
const erin: Person = { name: "Erin Walsh", handle: `erin-${run}`, email: `erin-${run}@example.com`, password: "erin-password-123" };
const scout = `scout-${run}`;
const SESSION = "5f2e8a4c-1b7d-4e0a-9c3f-2d6b8e1a7c40";
const FRESH = "9c41d2e7-6a3b-4f8e-b1d0-7e5c3a9f2b16";

/** One turn of the agent, as a runtime adapter runs it: claim, record what happened, release. */
async function turn(
  agent: SwitchboardClient,
  key: { roomId: string; runtime: string; threadRootId?: string },
  holder: string,
  done: { externalId?: string; resumed?: true; resumeFailed?: string; lastSeq: number },
): Promise<BindingView> {
  const b = await agent.claimBinding({ ...key, holder, runner: "dana-laptop", host: "dana-laptop.local", workdir: "/home/dana/src/switchboard" });
  const at = { bindingId: b.id, holder, generation: b.generation };
  if (done.resumeFailed) await agent.updateBinding({ ...at, resumeFailed: done.resumeFailed });
  return agent.updateBinding({ ...at, externalId: done.externalId, ...(done.resumed ? { resumed: true } : {}), lastSeq: done.lastSeq, release: true });
}

const chip = (page: Page) => page.getByTestId("room-header").getByTestId("binding-chip");

test("a room's agent session in the header, live; the owner closes it; the agent's card lists it", async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const ctxA = await browser.newContext();
  const ctxD = await browser.newContext();
  const ctxE = await browser.newContext();
  let agent: SwitchboardClient | null = null;
  try {
    // ---- Dana owns the agent; Erin is a member who does not; Alice (the workspace's owner) invites them.
    const a = await ctxA.newPage();
    await signUpFirstOrSignIn(a, people.alice);
    const invite = await createInviteLink(a);
    const d = await ctxD.newPage();
    await signUpWithInvite(d, invite, dana, people.alice.name);
    const e = await ctxE.newPage();
    await signUpWithInvite(e, invite, erin, people.alice.name);

    const { agent: created, apiKey } = await trpc<{ agent: { id: string }; apiKey: string }>(d, "agents.create", {
      handle: scout,
      displayName: "Scout",
      description: "Reads the codebase and answers questions.",
      framework: "claude-code",
      capabilities: ["code-search"],
    });
    await trpc(d, "agents.create", {
      handle: `quiet-${run}`,
      displayName: "Quiet",
      description: "Never bound to a runtime.",
      framework: "script",
      capabilities: [],
    });
    const room = await trpc<RoomView>(d, "rooms.createChannel", {
      name: `sessions-${run}`,
      visibility: "public",
      topic: "Where Scout works",
      memberIds: [created.id],
    });
    await trpc(e, "rooms.join", { roomId: room.id });
    agent = new SwitchboardClient({ url: baseURL!, apiKey });
    await agent.connect();
    const key = { roomId: room.id, runtime: "claude-agent-sdk" };
    const holder = `runner-${randomUUID()}`;

    // ---- Nothing bound yet: nothing in the header.
    await d.goto(`/r/${room.id}`);
    await expect(d.getByTestId("room-title")).toHaveText(`sessions-${run}`);
    await expect(d.getByTestId("room-bindings")).toHaveCount(0);

    // ---- A turn claims the binding: the chip appears live, working; the turn ends idle.
    const claimed = await agent.claimBinding({ ...key, holder, runner: "dana-laptop" });
    await expect(chip(d)).toHaveAttribute("data-status", "active");
    await expect(chip(d).getByTestId("binding-dot")).toHaveAttribute("data-status", "active");
    await agent.updateBinding({ bindingId: claimed.id, holder, generation: claimed.generation, externalId: SESSION, lastSeq: 1, release: true });
    await expect(chip(d)).toHaveAttribute("data-status", "idle");
    // Two more turns resume the session.
    await turn(agent, key, holder, { resumed: true, lastSeq: 2 });
    await turn(agent, key, holder, { resumed: true, lastSeq: 3 });
    await expect(chip(d)).toHaveText(`@${scout} · Claude session 5f2e8a… on dana-laptop · resumed 2×, Idle`);
    await expect(chip(d)).toHaveAccessibleName(new RegExp(`^@${scout} · Claude session 5f2e8a… on dana-laptop · resumed 2×\\s*, Idle$`));
    await d.mouse.move(0, 0);
    await d.getByTestId("room-header").screenshot({ path: "test-results/bindings-header.png" });

    // ---- Another update arrives: the header follows without a reload.
    await turn(agent, key, holder, { resumed: true, lastSeq: 4 });
    await expect(chip(d)).toContainText("resumed 3×");

    // ---- Erin (not the owner, not an admin) sees the session but may not close it. Keyboard: Enter opens, Escape closes.
    await e.goto(`/r/${room.id}`);
    await expect(chip(e)).toContainText("resumed 3×");
    await chip(e).focus();
    await e.keyboard.press("Enter");
    const erinPanel = e.getByTestId("binding-popover");
    await expect(erinPanel).toBeVisible();
    await expect(erinPanel).toBeFocused();
    await expect(erinPanel.getByTestId("binding-external-id")).toHaveText(SESSION);
    await expect(erinPanel.getByTestId("binding-counters")).toHaveText("4 turns · resumed 3×");
    await expect(erinPanel).toContainText("dana-laptop");
    await expect(erinPanel.getByTestId("close-session")).toHaveCount(0);
    await e.keyboard.press("Escape");
    await expect(erinPanel).toBeHidden();
    await expect(chip(e)).toBeFocused();

    // ---- The session was lost on the runner: a failed resume shows as a warning, with the error.
    await turn(agent, key, holder, { resumeFailed: "No conversation found", externalId: FRESH, lastSeq: 5 });
    await expect(chip(d)).toHaveAttribute("data-warning", "true");
    await expect(chip(d)).toHaveAttribute("title", "Could not resume: No conversation found — started fresh with recent history");
    await expect(chip(d)).toContainText("Claude session 9c41d2…");
    await chip(d).click();
    const panel = d.getByTestId("binding-popover");
    await expect(panel.getByTestId("binding-warning")).toHaveText("Could not resume: No conversation found — started fresh with recent history");
    await expect(panel.getByTestId("binding-counters")).toHaveText("5 turns · resumed 3× · 1 failed");
    await d.mouse.move(0, 0);
    await d.screenshot({ path: "test-results/bindings-popover.png", clip: { x: 0, y: 0, width: 1440, height: 620 } });
    await d.keyboard.press("Escape");
    await expect(panel).toBeHidden();

    // ---- A session in a thread is summarised next to the chip.
    const root = await agent.send(room.id, "Looking into the flaky test in a thread.");
    await turn(agent, { roomId: room.id, runtime: "codex", threadRootId: root.id }, holder, { externalId: "thread_7Hq2LmZp9", lastSeq: 7 });
    await expect(d.getByTestId("binding-more")).toHaveText("+1 in a thread");
    await expect(chip(d)).toHaveCount(1);
    await d.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await d.getByTestId("room-header").screenshot({ path: "test-results/bindings-header-threads.png" });
    await d.getByTestId("binding-more").click();
    await expect(panel.getByTestId("binding-details")).toContainText("Codex thread · in a thread");
    await panel.getByRole("button", { name: "Open thread" }).click();
    await expect(panel).toBeHidden();
    await expect(d.getByTestId("thread-panel")).toContainText("Looking into the flaky test in a thread.");

    // ---- Dana, the owner, closes the top-level session from the header (a confirm step first).
    await chip(d).click();
    await panel.getByTestId("close-session").click();
    await expect(panel.getByTestId("close-session-confirm")).toContainText(`The next message to @${scout} here starts a new session.`);
    await panel.getByTestId("confirm-close-session").click();
    await expect(chip(d)).toHaveCount(0);
    await expect(d.getByTestId("binding-more")).toHaveText("+1 in a thread");
    await expect(chip(e)).toHaveCount(0); // live for everyone in the room
    // A turn that still thinks it holds the closed session is refused.
    await expect(agent.updateBinding({ bindingId: claimed.id, holder, generation: claimed.generation, lastSeq: 6 })).rejects.toMatchObject({
      code: "CONFLICT",
    });

    // ---- The agent's card: both sessions, newest first, the closed one dimmed with who closed it.
    await d.goto("/agents");
    const card = d.locator(`[data-testid="agent-card"][data-handle="${scout}"]`);
    const rows = card.getByTestId("session-row");
    await expect(rows).toHaveCount(2);
    const closed = card.locator('[data-testid="session-row"][data-status="closed"]');
    await expect(closed.getByTestId("session-room")).toHaveText(`#sessions-${run}`);
    await expect(closed.getByTestId("session-runtime")).toHaveText("Claude session");
    await expect(closed.getByTestId("session-closed")).toContainText(`by @${dana.handle}`);
    await expect(closed.getByTestId("session-close")).toHaveCount(0);
    const threadRow = card.locator('[data-testid="session-row"][data-status="idle"]');
    await expect(threadRow).toContainText("in a thread");
    await expect(threadRow.getByTestId("session-runtime")).toHaveText("Codex thread");
    await expect(threadRow.getByTestId("session-id")).toHaveText("thread…");
    await expect(rows.first()).toHaveAttribute("data-status", "idle"); // most recently used first
    // An agent never bound says how sessions appear.
    await expect(d.locator(`[data-testid="agent-card"][data-handle="quiet-${run}"]`).getByTestId("agent-sessions-empty")).toHaveText(
      "No sessions yet: bindings appear when the agent answers with a runtime adapter.",
    );
    await d.mouse.move(0, 0);
    await card.getByTestId("agent-sessions").scrollIntoViewIfNeeded();
    await card.screenshot({ path: "test-results/bindings-agent-card.png" });

    // Closing from the card asks first, and the row dims in place.
    await threadRow.getByTestId("session-close").click();
    const dialog = card.getByTestId("close-session-dialog");
    await expect(dialog).toContainText(`The next message to @${scout} in #sessions-${run} starts a new session.`);
    await dialog.getByTestId("confirm-close-session").click();
    await expect(dialog).toBeHidden();
    await expect(card.locator('[data-testid="session-row"][data-status="closed"]')).toHaveCount(2);
    await expect(card.getByTestId("session-close")).toHaveCount(0);
  } finally {
    await agent?.close().catch(() => undefined);
    await Promise.all([ctxA.close(), ctxD.close(), ctxE.close()]);
  }
});
