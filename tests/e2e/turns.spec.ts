// A running agent's turn, watched and stopped from its room. An agent (the SDK's Agent, in this
// process, as any runner would run it) answers a mention with an adapter that reports its plan, a tool
// call and a note, then runs a long tool call until it is told to stop. Dana (who owns the agent) and
// Alice (the workspace's owner) watch the room in two browsers: the activity block under Dana's
// message fills live in both; Dana presses Stop; the turn ends "stopped by @dana" in both, the message's
// receipt says so, and the next mention resumes the same session. Paused in the room, the agent is
// handed nothing of it (both browsers say so) until resumed, then answers what waited. Folding the
// room's activity keeps each block to one line. Screenshot: docs/screenshots/turn-live.png.
import { mkdirSync } from "node:fs";
import { expect, test } from "./fixtures";
import { Agent } from "@switchboard/sdk";
import { generic } from "@switchboard/sdk/adapters/generic";
import type { RoomView } from "@switchboard/sdk/contract";
import { createInviteLink, messageWithText, people, send, signUpFirstOrSignIn, signUpWithInvite, trpc, type Person } from "./helpers";

const run = Date.now().toString(36).slice(-6);
const dana: Person = { name: "Dana Okoro", handle: `dana-${run}`, email: `dana-t-${run}@example.com`, password: "dana-password-123" };
const scout = `scout-${run}`;

test("a turn fills live under the message it answers, in two browsers; Stop ends it; the next message resumes the session", async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const ctxA = await browser.newContext();
  const ctxD = await browser.newContext();
  let agent: Agent | null = null;
  try {
    const a = await ctxA.newPage();
    await signUpFirstOrSignIn(a, people.alice);
    const invite = await createInviteLink(a);
    const d = await ctxD.newPage();
    await signUpWithInvite(d, invite, dana, people.alice.name);
    const { agent: created, apiKey } = await trpc<{ agent: { id: string }; apiKey: string }>(d, "agents.create", {
      handle: scout,
      displayName: "Scout",
      description: "Runs the test suite and reports.",
      framework: "script",
      capabilities: ["tests"],
    });
    const room = await trpc<RoomView>(d, "rooms.createChannel", { name: `ci-${run}`, visibility: "public", memberIds: [created.id] });
    await trpc(a, "rooms.join", { roomId: room.id });

    const sessions: (string | null)[] = [];
    agent = Agent.create({
      url: baseURL!,
      apiKey,
      handleSignals: false,
      log: () => undefined,
      adapter: generic(async (input) => {
        sessions.push(input.binding.externalId);
        if (sessions.length > 1) return "Back on it: the suite is green now.";
        // Its plan, as the room watches it (reported as work, it would be on the Work page too, which
        // work.spec.ts, on the same server, expects empty at its start).
        input.activity.plan([
          { title: "Install dependencies", status: "completed" },
          { title: "Run the suite", status: "in_progress" },
          { title: "Report the failures", status: "pending" },
        ]);
        input.activity.toolStarted("t1", "Bash", { command: "npm ci" });
        input.activity.toolEnded("t1", "added 770 packages in 41s");
        input.activity.note("The suite takes a while on this machine");
        input.activity.usage({ inputTokens: 5400, outputTokens: 310, costUsd: 0.021 });
        input.activity.toolStarted("t2", "Bash", { command: "npm test -- --reporter=dot" });
        // Runs until told to stop, as a framework's run does on its abort signal.
        await new Promise<void>((_, reject) => input.signal.addEventListener("abort", () => reject(input.signal.reason as Error), { once: true }));
        return null;
      }),
    });
    await agent.start();

    await d.goto(`/r/${room.id}`);
    await a.goto(`/r/${room.id}`);
    await send(d, `@${scout} run the tests please`);
    const question = (page: typeof d) => messageWithText(page, `@${scout} run the tests please`);
    const block = (page: typeof d) => page.getByTestId("turn-block").first();

    // Live in both browsers: the plan, the finished tool call, the note, the one still running.
    for (const page of [d, a]) {
      await expect(block(page)).toHaveAttribute("data-state", "running");
      await expect(block(page).getByTestId("turn-step")).toHaveCount(4);
      await expect(block(page).getByTestId("turn-plan").locator("li")).toHaveCount(3);
      await expect(block(page).getByTestId("turn-summary")).toContainText(`@${scout} is working`);
      await expect(block(page).getByTestId("turn-summary")).toContainText("5.7k tokens");
    }
    await expect(block(d).locator('[data-testid="turn-step"][data-kind="tool"]').last()).toHaveAttribute("data-status", "running");
    await expect(block(d).getByText("npm test -- --reporter=dot")).toBeVisible();
    await expect(question(d)).toBeVisible();
    mkdirSync("docs/screenshots", { recursive: true });
    await d.screenshot({ path: "docs/screenshots/turn-live.png", timeout: 30_000 });

    // Alice is the workspace's owner: she may stop it too; Dana, who owns the agent, does.
    await expect(block(a).getByTestId("turn-stop")).toBeVisible();
    await block(d).getByTestId("turn-stop").click({ timeout: 15_000 });
    for (const page of [d, a]) {
      await expect(block(page)).toHaveAttribute("data-state", "stopped");
      await expect(block(page).getByTestId("turn-summary")).toContainText(`was stopped by @${dana.handle}`);
    }
    await expect(question(d).getByTestId("receipts")).toContainText("stopped by @" + dana.handle);

    // The next message resumes the session the stopped turn had.
    await send(d, `@${scout} and now?`);
    await expect(messageWithText(d, "Back on it: the suite is green now.")).toBeVisible();
    expect(sessions).toHaveLength(2);
    expect(sessions[1]).not.toBeNull();

    // Paused in this room (from the header's Activity menu): what Dana sends waits, and both browsers say so.
    await d.getByTestId("activity-menu").locator("summary").click();
    await d.locator(`[data-testid="activity-agent"][data-handle="${scout}"]`).getByTestId("activity-pause").click();
    for (const page of [d, a]) await expect(page.getByTestId("paused-agent")).toContainText(`@${scout} is paused here by @${dana.handle}`);
    await d.getByTestId("activity-menu").locator("summary").click(); // closes the menu
    // The Work page says so too.
    await a.goto("/work");
    await expect(a.locator('[data-testid="agent-work"][data-handle="' + scout + '"]').getByTestId("paused-in")).toContainText(`Paused in #ci-${run}`);
    await a.goto(`/r/${room.id}`);
    await send(d, `@${scout} one more thing`);
    const answered = messageWithText(d, "Back on it: the suite is green now.");
    await expect(messageWithText(d, `@${scout} one more thing`)).toBeVisible();
    expect(sessions).toHaveLength(2);
    await d.getByTestId("paused-resume").click();
    for (const page of [d, a]) await expect(page.getByTestId("paused-agents")).toHaveCount(0);
    await expect(answered).toHaveCount(2); // handed what waited: answered now
    expect(sessions).toHaveLength(3);

    // Folded: every block is one line, and a click opens one.
    await d.getByTestId("activity-menu").locator("summary").click();
    await d.getByTestId("activity-fold").check();
    await expect(d.getByTestId("turn-steps")).toHaveCount(0);
    await d.keyboard.press("Escape");
    await d.reload();
    await expect(d.getByTestId("turn-block").first()).toBeVisible();
    await expect(d.getByTestId("turn-steps")).toHaveCount(0);
  } finally {
    await agent?.stop({ abandonTurns: true });
    await ctxA.close();
    await ctxD.close();
  }
});
