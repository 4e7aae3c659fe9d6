// Who drove a pull request, and the timeline of the room that produced it. Alice asks an agent (the
// real SDK client, over the socket) for a fix in a room; it plans tasks, asks Maya's view, asks Alice
// to approve, touches files and links a branch and a pull request. The involvement page reached from
// the Work page shows each person's and the agent's part, people's share, the timeline and exports
// CSV; the room's timeline (from the room's header) moves live as the agent reports another file.
// Screenshots: docs/screenshots/involvement.png, docs/screenshots/work-timeline.png.
import { mkdirSync, readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { SwitchboardClient } from "../../sdk";
import type { RoomView } from "../../sdk/contract";
import { createInviteLink, people, send, signUpFirstOrSignIn, signUpWithInvite, trpc, type Person } from "./helpers";

const SHOTS = "docs/screenshots";
const run = Date.now().toString(36).slice(-6);
const maya: Person = { name: "Maya Chen", handle: `maya-${run}`, email: `maya-i-${run}@example.com`, password: "maya-password-123" };
const scout = `scout-${run}`;
const SESSION = "5e1d7c2a-93b4-4f0e-a1c6-2d8b7e4f9a13";
const PR = `https://github.com/acme/robotics/pull/${parseInt(run, 36) % 1000}`;

test("who drove a pull request: people's and the agent's parts, share, timeline, CSV; the room's timeline moves live", async ({ browser, baseURL }) => {
  test.setTimeout(240_000); // a loaded 2-core machine
  const ctxA = await browser.newContext({ acceptDownloads: true });
  const ctxM = await browser.newContext();
  let agent: SwitchboardClient | undefined;
  try {
    const a = await ctxA.newPage();
    await signUpFirstOrSignIn(a, people.alice);
    const invite = await createInviteLink(a);
    const m = await ctxM.newPage();
    await signUpWithInvite(m, invite, maya, people.alice.name);
    const mayaId = (await trpc<{ me: { id: string } }>(m, "workspace.me", undefined, "query")).me.id;

    const made = await trpc<{ agent: { id: string }; apiKey: string }>(a, "agents.create", { handle: scout, displayName: "Scout", description: "Fixes bugs.", framework: "claude-code", capabilities: ["code"] });
    const room = await trpc<RoomView>(a, "rooms.createChannel", { name: `login-${run}`, visibility: "public", topic: "The flaky login test", memberIds: [made.agent.id, mayaId] });
    agent = new SwitchboardClient({ url: baseURL!, apiKey: made.apiKey });
    await agent.connect();
    const scope = { sessionId: SESSION, roomId: room.id };

    // ---- Alice asks in the room; the agent plans, talks, asks; Maya and Alice step in.
    await a.goto(`/r/${room.id}`);
    await send(a, `@${scout} the login test is flaky again, can you find out why and fix it?`);
    // Stored before the agent's first report: it is the request that set the work going.
    const asked = async () => (await trpc<{ messages: { body: string }[] }>(a, "messages.history", { roomId: room.id, limit: 20 }, "query")).messages.some((x) => x.body.includes("flaky again"));
    await expect.poll(asked).toBe(true);
    await agent.reportTasks({
      ...scope,
      tasks: [
        { key: "repro", title: "Reproduce the flaky login test", status: "in_progress" },
        { key: "fix", title: "Fix the session refresh race", status: "pending" },
      ],
    });
    await agent.send(room.id, "Reproduced it: the session refresh races the redirect. Should refresh keep the 15-minute TTL?");
    await trpc(m, "messages.send", { roomId: room.id, body: "Yes, keep the TTL at 15 minutes and add a regression test", clientMsgId: `maya-${run}` });
    await agent.reportFiles({ ...scope, taskKey: "fix", branch: "fix/login-refresh", files: [{ path: "server/services/auth.ts", operation: "edit", linesAdded: 24, linesRemoved: 9 }, { path: "tests/unit/auth-refresh.test.ts", operation: "create", linesAdded: 61 }] });
    const approval = agent.ask(room.id, { prompt: "Tests pass. Open the pull request?", kind: "approval", audience: { type: "owner" } });
    const card = a.locator('[data-testid="question-card"][data-kind="approval"]');
    await expect(card).toHaveAttribute("data-can-answer", "true");
    await card.getByTestId("question-approve").click();
    expect(await approval).toMatchObject({ status: "answered", answer: { approved: true } });
    await agent.reportTasks({
      ...scope,
      tasks: [
        { key: "repro", title: "Reproduce the flaky login test", status: "completed" },
        { key: "fix", title: "Fix the session refresh race", status: "completed" },
      ],
    });
    await agent.linkWork({ ...scope, taskKey: "fix", kind: "branch", value: "fix/login-refresh" });
    await agent.linkWork({ ...scope, taskKey: "fix", kind: "pull_request", value: PR, title: "Fix the login refresh race" });

    // ---- From the Work page: "Who drove this?" beside the pull request.
    await a.goto("/work");
    const scoutCard = a.locator(`[data-testid="agent-work"][data-handle="${scout}"]`);
    await expect(scoutCard.locator('[data-testid="room-timeline-link"]')).toHaveText(`login-${run}`);
    await scoutCard.locator('[data-testid="who-drove"][data-kind="pull_request"]').click();
    await a.waitForURL(/\/work\/involvement\?kind=pull_request&value=/);
    await expect(a.getByTestId("page-title")).toHaveText("Who drove this?");
    await expect(a.getByTestId("involvement-title")).toHaveText("Fix the login refresh race");
    await expect(a.getByTestId("involvement-value")).toHaveAttribute("href", PR);
    await expect(a.getByTestId("involvement-room")).toContainText(`login-${run}`);
    // The window opens with Alice's request.
    await expect(a.getByTestId("involvement-from")).not.toHaveText("Nothing reported yet");

    // People and the agent, each with their part.
    const row = (handle: string) => a.locator(`[data-testid="involvement-row"][data-handle="${handle}"]`);
    await expect(a.getByTestId("involvement-row")).toHaveCount(3);
    await expect(row("alice")).toHaveAttribute("data-kind", "human");
    await expect(row("alice").getByTestId("part-messages")).toHaveAttribute("data-value", "1");
    await expect(row("alice").getByTestId("part-answers")).toHaveAttribute("data-value", "1");
    await expect(row("alice").getByTestId("part-approvals")).toHaveAttribute("data-value", "1");
    await expect(row(maya.handle).getByTestId("part-messages")).toHaveAttribute("data-value", "1");
    await expect(row(maya.handle).getByTestId("part-words")).toHaveAttribute("data-value", "12");
    await expect(row(scout)).toHaveAttribute("data-kind", "agent");
    await expect(row(scout).getByTestId("part-messages")).toHaveAttribute("data-value", "2"); // its message and its question
    await expect(row(scout).getByTestId("part-tasks")).toHaveAttribute("data-value", "2");
    await expect(row(scout).getByTestId("part-files")).toHaveAttribute("data-value", "2");
    await expect(row(scout).getByTestId("part-linesChanged")).toHaveAttribute("data-value", "94");

    // People's share: 2 of the 4 messages.
    await expect(a.getByTestId("share-messages")).toHaveAttribute("data-share", "0.5");
    await expect(a.getByTestId("share-messages-value")).toHaveText("50%");
    await expect(a.getByTestId("involvement-verdict")).toHaveText("People led the work");

    // The timeline: the request, the agent's tasks and files, Maya's word, Alice's approval, the links.
    const events = a.getByTestId("involvement-timeline").getByTestId("timeline-event");
    await expect(events.first()).toHaveAttribute("data-kind", "message");
    await expect(events.first()).toHaveAttribute("data-handle", "alice");
    await expect(a.locator('[data-testid="timeline-event"][data-intervention="true"]')).toHaveCount(3);
    await expect(a.locator('[data-testid="timeline-event"][data-kind="answer"]').getByTestId("event-kind")).toHaveText("Approved");
    await expect(a.locator('[data-testid="timeline-event"][data-kind="file"] [data-testid="timeline-file"]')).toHaveCount(2);
    await expect(a.locator('[data-testid="timeline-event"][data-kind="task_completed"]')).toHaveCount(2);
    await expect(a.locator('[data-testid="timeline-event"][data-kind="link"]')).toHaveCount(2);
    await expect(a.getByTestId("hidden-conversations")).toHaveCount(0);

    // CSV: one row per participant, every figure a column.
    const [download] = await Promise.all([a.waitForEvent("download"), a.getByTestId("involvement-csv").click()]);
    expect(download.suggestedFilename()).toMatch(/^involvement-pull-request-acme-robotics-pull-\d+\.csv$/);
    const csv = readFileSync(await download.path(), "utf8").trim().split("\n");
    expect(csv[0]).toBe("subject_kind,subject,participant,handle,kind,messages,words,answers,approvals,tasks,files,lines_changed,first_at,last_at");
    expect(csv).toHaveLength(4);
    expect(csv.find((l) => l.includes(",alice,human,"))).toContain(",alice,human,1,");
    expect(csv.find((l) => l.includes(`,${scout},agent,`))).toContain(`,${scout},agent,2,`);

    // Keyboard: the export button and the links are reachable; the table has row headers.
    await a.getByTestId("involvement-csv").focus();
    await expect(a.getByTestId("involvement-csv")).toBeFocused();
    await expect(row("alice").locator("th[scope=row]")).toContainText("Alice Moreau");

    // The screenshot: the whole page from the top, nothing focused, no notification prompt.
    const prompt = a.getByTestId("desktop-prompt-dismiss");
    if (await prompt.isVisible()) await prompt.click();
    await a.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await a.setViewportSize({ width: 1440, height: 1700 });
    await a.mouse.move(0, 0);
    mkdirSync(SHOTS, { recursive: true });
    await a.screenshot({ path: `${SHOTS}/involvement.png` });
    await a.setViewportSize({ width: 1440, height: 900 });

    // ---- The room's timeline, from the room's header: it moves live as the agent reports a file.
    await a.goto(`/r/${room.id}`);
    await a.getByTestId("room-work-link").click();
    await a.waitForURL(/\/work\/timeline\?roomId=/);
    await expect(a.getByTestId("timeline-scope")).toContainText(`#login-${run}`);
    await expect(a.getByTestId("timeline-live")).toHaveAttribute("data-live", "true");
    const tl = a.getByTestId("work-timeline");
    await expect(tl.locator('[data-testid="timeline-event"][data-kind="link"]')).toHaveCount(2);
    await expect(tl.locator('[data-testid="timeline-event"][data-intervention="true"]')).toHaveCount(3);
    await expect(tl.locator('[data-testid="timeline-file"][data-path="docs/auth.md"]')).toHaveCount(0);
    await agent.reportFiles({ ...scope, files: [{ path: "docs/auth.md", operation: "edit", linesAdded: 5, linesRemoved: 1 }] });
    await expect(tl.locator('[data-testid="timeline-file"][data-path="docs/auth.md"]')).toBeVisible();
    await expect(tl.getByTestId("timeline-event").last()).toHaveAttribute("data-kind", "file");
    // A person stepping in shows live too, marked as such.
    await trpc(m, "messages.send", { roomId: room.id, body: "Thanks, merging after review", clientMsgId: `maya-2-${run}` });
    await expect(tl.getByTestId("timeline-event").last()).toHaveAttribute("data-intervention", "true");
    await expect(tl.getByTestId("timeline-event").last()).toHaveAttribute("data-handle", maya.handle);
    await a.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await a.setViewportSize({ width: 1440, height: 1400 });
    await a.mouse.move(0, 0);
    await a.screenshot({ path: `${SHOTS}/work-timeline.png` });
    await a.setViewportSize({ width: 1440, height: 900 });

    // ---- A task's timeline, from its card on the Work page; and back to who drove it.
    await a.goto("/work");
    const task = scoutCard.locator('[data-testid="task"]').filter({ hasText: "Fix the session refresh race" });
    await task.hover();
    await task.getByTestId("task-timeline-link").click();
    await a.waitForURL(/\/work\/timeline\?taskId=/);
    await expect(a.getByTestId("timeline-scope")).toHaveAttribute("data-kind", "task");
    await expect(a.getByTestId("timeline-title")).toHaveText("Fix the session refresh race");
    await expect(a.getByTestId("timeline-task-status")).toHaveText("Completed");
    await expect(a.getByTestId("work-timeline").locator('[data-testid="timeline-event"][data-kind="task_completed"]').first()).toBeVisible();
    await a.getByTestId("timeline-involvement").click();
    await a.waitForURL(/\/work\/involvement\?kind=task&taskId=/);
    await expect(a.getByTestId("involvement-title")).toHaveText("Fix the session refresh race");
    await expect(a.locator('[data-testid="involvement-row"][data-handle="alice"]')).toBeVisible();
  } finally {
    await agent?.close().catch(() => {});
    await ctxA.close();
    await ctxM.close();
  }
});
