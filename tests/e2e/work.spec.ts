// The Work page, live. Two agents (the real SDK client, over the socket) report what they do: a
// status, their own tasks (nested), files touched, a branch and a pull request. The page follows
// without a reload: a task completes, a status turns to waiting for a person, a second agent edits the
// same file and the conflict warning appears. A third agent is fed by Claude Code's hooks: the test
// posts Claude Code's payloads (the integration suite's fixtures, in the shapes a real run sent) to
// /api/hooks/claude-code with that agent's key, and its card follows too. The same states show beside
// the agents' names in the members panel and the directory; a person sets their own status from the
// page's header. Then who drove a pull request (the involvement page), and the room's and a task's
// timelines (below). Screenshots: docs/screenshots/work-board.png, involvement.png, work-timeline.png.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "./fixtures";
import { SwitchboardClient } from "@switchboard/sdk";
import type { RoomView } from "@switchboard/sdk/contract";
import { clickHoverAction, createInviteLink, people, type Person, send, signUpFirstOrSignIn, signUpWithInvite, trpc } from "./helpers";

const SHOTS = "docs/screenshots";
const run = Date.now().toString(36).slice(-6);
const dana: Person = { name: "Dana Okoro", handle: `dana-${run}`, email: `dana-w-${run}@example.com`, password: "dana-password-123" };
const scout = `scout-${run}`;
const quill = `quill-${run}`;
const coder = `coder-${run}`;
const SESSION = "c3a1f0d2-7e44-4b8e-9d1a-5f6b2c8e0a91";
const HOOK_SESSION = "5d0c9e2b-1a47-4f3e-8b6d-7e2f9a1c4b08";
const FIXTURES = path.resolve("tests/integration/fixtures/claude-code-hooks");
const FILE = "server/services/auth.ts";

const card = (page: Page, handle: string) => page.locator(`[data-testid="agent-work"][data-handle="${handle}"]`);

/** When (the wall clock, shared with this process) `selector` first matches in the page: a report's latency to the screen. */
function shownAt(page: Page, selector: string): Promise<number> {
  return page.evaluate(
    (sel) =>
      new Promise<number>((resolve) => {
        if (document.querySelector(sel)) return resolve(Date.now());
        const observer = new MutationObserver(() => {
          if (!document.querySelector(sel)) return;
          observer.disconnect();
          resolve(Date.now());
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
      }),
    selector,
  );
}

async function createAgent(page: Page, handle: string, displayName: string, framework: string) {
  return trpc<{ agent: { id: string }; apiKey: string }>(page, "agents.create", {
    handle,
    displayName,
    description: "Works on the codebase.",
    framework,
    capabilities: ["code"],
  });
}

/** What a Claude Code hook posts: a recorded payload of the session, with the agent's key. */
async function hook(baseURL: string, apiKey: string, fixture: string): Promise<Record<string, unknown>> {
  const payload = { ...JSON.parse(readFileSync(path.join(FIXTURES, `${fixture}.json`), "utf8")), session_id: HOOK_SESSION };
  const res = await fetch(`${baseURL}/api/hooks/claude-code`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(payload),
  });
  const answer = (await res.json()) as { ok: boolean; data: Record<string, unknown> };
  expect(answer.ok, `${fixture}: ${JSON.stringify(answer)}`).toBe(true);
  return answer.data;
}

test("the Work page moves live as agents report; states show beside names; a person sets their own", async ({ browser, baseURL }) => {
  test.setTimeout(240_000); // a loaded 2-core machine
  const ctxA = await browser.newContext();
  const ctxD = await browser.newContext();
  const agents: SwitchboardClient[] = [];
  try {
    const a = await ctxA.newPage();
    await signUpFirstOrSignIn(a, people.alice);
    const invite = await createInviteLink(a);
    const d = await ctxD.newPage();
    await signUpWithInvite(d, invite, dana, people.alice.name);
    const danaId = (await trpc<{ me: { id: string } }>(d, "workspace.me", undefined, "query")).me.id;

    await trpc(a, "work.setComponents", {
      components: [
        { name: "Services", patterns: ["server/services/**"] },
        { name: "Web app", patterns: ["app/**", "components/**"] },
      ],
    });
    const s = await createAgent(a, scout, "Scout", "claude-code");
    const q = await createAgent(a, quill, "Quill", "codex");
    const room = await trpc<RoomView>(a, "rooms.createChannel", {
      name: `work-${run}`,
      visibility: "public",
      topic: "Login fixes",
      memberIds: [s.agent.id, q.agent.id],
    });

    // ---- Nothing reported yet: the page says how agents report work.
    await a.goto("/work");
    await expect(a.getByTestId("page-title")).toHaveText("Work");
    await expect(a.getByTestId("work-empty")).toContainText("No work reported yet");
    await expect(a.getByTestId("work-empty")).toContainText("switchboard connect --client claude");

    // ---- Scout starts working: status, tasks (one nested), files, a branch and a pull request.
    const scoutClient = new SwitchboardClient({ url: baseURL!, apiKey: s.apiKey });
    agents.push(scoutClient);
    await scoutClient.connect();
    await scoutClient.setWorkStatus({ state: "working", text: "Fixing the flaky login test" });
    const tasks = [
      { key: "repro", title: "Reproduce the flaky login test", status: "completed" as const },
      { key: "fix", title: "Fix the session refresh race", status: "in_progress" as const },
      { key: "fix-test", title: "Add a regression test", status: "pending" as const, parentKey: "fix" },
      { key: "docs", title: "Update the auth docs", status: "pending" as const },
    ];
    await scoutClient.reportTasks({ sessionId: SESSION, roomId: room.id, tasks });
    await scoutClient.reportFiles({
      sessionId: SESSION,
      roomId: room.id,
      taskKey: "fix",
      branch: "fix/login-refresh",
      files: [
        { path: FILE, operation: "edit", linesAdded: 24, linesRemoved: 9 },
        { path: "app/(auth)/signin/page.tsx", operation: "read" },
        { path: "tests/unit/auth-refresh.test.ts", operation: "create", linesAdded: 61 },
        { path: "npm test -- auth", operation: "run" },
      ],
    });
    await scoutClient.linkWork({ sessionId: SESSION, kind: "branch", value: "fix/login-refresh" });
    await scoutClient.linkWork({
      sessionId: SESSION,
      kind: "pull_request",
      value: "https://github.com/acme/robotics/pull/412",
      title: "Fix the login refresh race",
    });

    const sc = card(a, scout);
    await expect(sc).toHaveAttribute("data-state", "working");
    await expect(sc.getByTestId("work-state")).toHaveText("Working");
    await expect(sc.getByTestId("status-text")).toHaveText("Fixing the flaky login test");
    await expect(sc).toContainText("Claude Code · owned by Alice Moreau");
    await expect(sc.getByTestId("task-progress")).toHaveAttribute("data-completed", "1");
    await expect(sc.getByTestId("task-progress")).toHaveAttribute("data-total", "4");
    await expect(sc.locator('[data-testid="task"][data-status="in_progress"]')).toHaveText(/Fix the session refresh race/);
    await expect(sc.getByTestId("file")).toHaveCount(4);
    await expect(sc.locator(`[data-testid="file"][data-path="${FILE}"] [data-testid="file-lines"]`)).toHaveText("+24 −9");
    // Named by the component map, else the top folder.
    for (const name of ["Services", "Web app", "tests"]) await expect(sc.getByTestId("agent-component").filter({ hasText: name })).toHaveCount(1);
    await expect(sc.locator('[data-testid="work-link"][data-kind="pull_request"]')).toHaveAttribute("href", "https://github.com/acme/robotics/pull/412");
    await expect(a.getByTestId("summary-working")).toHaveAttribute("data-count", "1");
    await expect(a.locator('[data-testid="component"][data-name="Services"] [data-testid="component-agent-now"]')).toContainText(`@${scout}`);
    await expect(a.getByTestId("work-conflicts")).toHaveCount(0);

    // ---- Live, no reload: a task completes, another is dropped (hidden behind the toggle). The card
    // takes the report from its event, asking the server nothing: measured from the report to the screen.
    const progressShown = shownAt(a, `[data-testid="agent-work"][data-handle="${scout}"] [data-testid="task-progress"][data-completed="2"]`);
    const reportedAt = Date.now();
    await scoutClient.reportTasks({
      sessionId: SESSION,
      roomId: room.id,
      tasks: [
        { key: "repro", title: "Reproduce the flaky login test", status: "completed" },
        { key: "fix", title: "Fix the session refresh race", status: "completed" },
        { key: "fix-test", title: "Add a regression test", status: "in_progress", parentKey: "fix" },
      ],
    });
    const taskMs = (await progressShown) - reportedAt;
    await expect(sc.getByTestId("task-progress")).toHaveAttribute("data-completed", "2");
    await expect(sc.getByTestId("task-progress")).toHaveAttribute("data-total", "3");
    await expect(sc.locator('[data-testid="task"][data-status="dropped"]')).toHaveCount(0);
    await sc.getByTestId("toggle-dropped").click();
    await expect(sc.locator('[data-testid="task"][data-status="dropped"]')).toHaveText(/Update the auth docs/);
    await sc.getByTestId("toggle-dropped").click();

    // ---- Scout now waits for Dana: the status line says so, live.
    await scoutClient.setWorkStatus({ state: "waiting", text: "Which session TTL should refresh use?", waitingFor: danaId });
    await expect(sc).toHaveAttribute("data-state", "waiting");
    await expect(sc.getByTestId("work-state")).toHaveText(`Waiting for @${dana.handle}`);
    await expect(a.getByTestId("summary-waiting")).toHaveAttribute("data-count", "1");

    // ---- Quill edits the same file meanwhile: the conflict warning appears, naming both.
    const quillClient = new SwitchboardClient({ url: baseURL!, apiKey: q.apiKey });
    agents.push(quillClient);
    await quillClient.connect();
    await quillClient.setWorkStatus({ state: "working", text: "Tidying the auth service" });
    await quillClient.reportTasks({ sessionId: "codex-thread-7", roomId: room.id, tasks: [{ title: "Extract token helpers", status: "in_progress" }] });
    await quillClient.reportFiles({
      sessionId: "codex-thread-7",
      roomId: room.id,
      files: [
        { path: FILE, operation: "edit", linesAdded: 7, linesRemoved: 31 },
        { path: "components/auth/signin-form.tsx", operation: "edit", linesAdded: 3, linesRemoved: 1 },
      ],
    });
    const conflict = a.locator(`[data-testid="work-conflict"][data-kind="file"][data-subject="${FILE}"]`);
    await expect(conflict).toBeVisible();
    await expect(conflict).toContainText(`@${scout}`);
    await expect(conflict).toContainText(`@${quill}`);
    await expect(a.locator('[data-testid="component"][data-name="Services"]')).toHaveAttribute("data-now", "2");
    await expect(a.getByTestId("summary-working")).toHaveAttribute("data-count", "1");

    // ---- Coder is Claude Code fed by its hooks: each payload moves its card, live.
    const c = await createAgent(a, coder, "Coder", "claude-code");
    const cc = card(a, coder);
    expect(await hook(baseURL!, c.apiKey, "session-start")).toEqual({ event: "SessionStart", status: "working" });
    await expect(cc).toHaveAttribute("data-state", "working");
    await expect(cc.getByTestId("status-text")).toHaveText("Session started");
    await expect(cc).toContainText("Claude Code · owned by Alice Moreau");
    await expect(a.getByTestId("summary-working")).toHaveAttribute("data-count", "2");
    await hook(baseURL!, c.apiKey, "post-tool-use-todowrite-1");
    await expect(cc.getByTestId("task")).toHaveCount(3);
    await expect(cc.getByTestId("task-progress")).toHaveAttribute("data-total", "3");
    await expect(cc.locator('[data-testid="task"][data-status="in_progress"]')).toHaveText(/Add the CSV export button/);
    const fileShown = shownAt(a, `[data-testid="agent-work"][data-handle="${coder}"] [data-testid="file"][data-path="server/services/orders.ts"]`);
    const hookedAt = Date.now();
    await hook(baseURL!, c.apiKey, "post-tool-use-edit");
    const fileMs = (await fileShown) - hookedAt;
    console.log(`work page live: ${JSON.stringify({ taskReportToCardMs: taskMs, hookToCardMs: fileMs })}`);
    await expect(cc.locator('[data-testid="file"][data-path="server/services/orders.ts"] [data-testid="file-lines"]')).toHaveText("+2 −1");
    await hook(baseURL!, c.apiKey, "post-tool-use-write");
    await hook(baseURL!, c.apiKey, "post-tool-use-bash");
    await expect(cc.getByTestId("file")).toHaveCount(3);
    await expect(cc.locator('[data-testid="file"][data-path="app/orders/export.tsx"] [data-testid="file-op"]')).toHaveAttribute("data-op", "create");
    await expect(cc.locator('[data-testid="file"][data-path="npm test -- orders"] [data-testid="file-op"]')).toHaveAttribute("data-op", "run");
    for (const name of ["Services", "Web app"]) await expect(cc.getByTestId("agent-component").filter({ hasText: name })).toHaveCount(1);
    await expect(a.locator('[data-testid="component"][data-name="Services"] [data-testid="component-agent-now"]').filter({ hasText: `@${coder}` })).toHaveCount(
      1,
    );
    await hook(baseURL!, c.apiKey, "post-tool-use-todowrite-2");
    await expect(cc.getByTestId("task-progress")).toHaveAttribute("data-completed", "1");
    await expect(cc.locator('[data-testid="task"][data-status="in_progress"]')).toHaveText(/Compute totals net of discounts/);
    // Claude Code asks for permission: waiting for its owner, with Claude Code's words; Stop leaves it so.
    expect(await hook(baseURL!, c.apiKey, "notification")).toEqual({ event: "Notification", status: "waiting" });
    await expect(cc).toHaveAttribute("data-state", "waiting");
    await expect(cc.getByTestId("work-state")).toHaveText("Waiting for @alice");
    await expect(cc.getByTestId("status-text")).toHaveText("Claude needs your permission to use Bash");
    expect(await hook(baseURL!, c.apiKey, "stop")).toEqual({ event: "Stop", ignored: true });
    await expect(a.getByTestId("summary-waiting")).toHaveAttribute("data-count", "2");
    await expect(cc).toHaveAttribute("data-state", "waiting");

    // Keyboard: the window selector is a radio group; the cards are focusable.
    await a.getByTestId("work-window-24").focus();
    await a.keyboard.press("ArrowLeft");
    await expect(a.getByTestId("work-window-1")).toHaveAttribute("aria-checked", "true");
    await expect(card(a, quill).getByTestId("file")).toHaveCount(2);
    await card(a, scout).focus();
    await expect(card(a, scout)).toBeFocused();

    // The screenshot: the whole board from the top, nothing focused, no notification prompt.
    await a.getByTestId("desktop-prompt-dismiss").click();
    await a.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await a.setViewportSize({ width: 1440, height: 1760 }); // the three agents whole
    await a.getByTestId("work-summary").scrollIntoViewIfNeeded();
    await a.mouse.move(0, 0);
    mkdirSync(SHOTS, { recursive: true });
    await a.screenshot({ path: `${SHOTS}/work-board.png` });

    // ---- The same states beside the names: Dana's directory and the room's members panel, live.
    await d.goto("/directory");
    const scoutEntry = d.locator(`[data-testid="directory-entry"][data-handle="${scout}"]`);
    await expect(scoutEntry.getByTestId("work-state")).toHaveText(`Waiting for @${dana.handle} · Which session TTL should refresh use?`);
    await scoutClient.setWorkStatus({ state: "blocked", text: "CI is red on main" });
    await expect(scoutEntry.getByTestId("work-state")).toHaveAttribute("data-state", "blocked");
    await expect(card(a, scout)).toHaveAttribute("data-state", "blocked");

    await trpc(d, "rooms.join", { roomId: room.id });
    await d.goto(`/r/${room.id}`);
    await d.getByTestId("toggle-members").click();
    const quillMember = d.locator(`[data-testid="member"][data-handle="${quill}"]`);
    await expect(quillMember.getByTestId("work-state")).toHaveAttribute("data-state", "working");
    // Mention suggestions carry the state too.
    const composer = d.getByTestId("composer");
    await composer.fill(`@${scout}`);
    await expect(d.getByTestId("mention-suggestions").getByTestId("work-state-dot")).toHaveAttribute("data-state", "blocked");
    await composer.fill("");
    await quillClient.setWorkStatus({ state: "idle" });
    await expect(quillMember.getByTestId("work-state")).toHaveCount(0);
    await expect(card(a, quill)).toHaveAttribute("data-state", "idle");

    // ---- Alice sets her own status from the page's header; it shows there and beside her name.
    await a.getByTestId("set-status").click();
    const dialog = a.getByTestId("set-status-dialog");
    await dialog.getByTestId("status-state-working").click();
    await dialog.getByTestId("status-text-input").fill("Reviewing the login PR");
    await dialog.getByTestId("save-status").click();
    await expect(dialog).toBeHidden();
    await expect(a.getByTestId("set-status").getByTestId("work-state")).toHaveText("Working");
    await expect(a.getByTestId("user-menu").getByTestId("work-state-dot")).toHaveAttribute("data-state", "working");
    await d.goto("/directory");
    await expect(d.locator(`[data-testid="directory-entry"][data-handle="alice"]`).getByTestId("work-state")).toHaveText("Working · Reviewing the login PR");
  } finally {
    for (const agent of agents) await agent.close().catch(() => {});
    await ctxA.close();
    await ctxD.close();
  }
});

// ---- Who drove a pull request, and the timeline of the room that produced it (after the test above,
// which opens on a workspace with no work reported). Alice asks an agent for a fix in a room; it plans
// tasks, talks, asks Alice to approve, touches files and links a branch and a pull request; Maya steps
// in. The involvement page reached from the Work page shows each person's and the agent's part,
// people's share, the timeline and exports CSV; the room's timeline (from the room's header) moves live.
// Screenshots: docs/screenshots/involvement.png, docs/screenshots/work-timeline.png.
const maya: Person = { name: "Maya Chen", handle: `maya-${run}`, email: `maya-i-${run}@example.com`, password: "maya-password-123" };
const ranger = `ranger-${run}`;
const PR_SESSION = "5e1d7c2a-93b4-4f0e-a1c6-2d8b7e4f9a13";
const PR = `https://github.com/acme/robotics/pull/${1000 + (parseInt(run, 36) % 1000)}`;

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

    const made = await trpc<{ agent: { id: string }; apiKey: string }>(a, "agents.create", {
      handle: ranger,
      displayName: "Ranger",
      description: "Fixes bugs.",
      framework: "claude-code",
      capabilities: ["code"],
    });
    const room = await trpc<RoomView>(a, "rooms.createChannel", {
      name: `login-${run}`,
      visibility: "public",
      topic: "The flaky login test",
      memberIds: [made.agent.id, mayaId],
    });
    agent = new SwitchboardClient({ url: baseURL!, apiKey: made.apiKey });
    await agent.connect();
    const scope = { sessionId: PR_SESSION, roomId: room.id };

    // ---- Alice asks in the room; the agent plans, talks, asks; Maya and Alice step in.
    await a.goto(`/r/${room.id}`);
    await send(a, `@${ranger} the login test is flaky again, can you find out why and fix it?`);
    // Stored before the agent's first report: it is the request that set the work going.
    const asked = async () =>
      (await trpc<{ messages: { body: string }[] }>(a, "messages.history", { roomId: room.id, limit: 20 }, "query")).messages.some((x) =>
        x.body.includes("flaky again"),
      );
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
    await agent.reportFiles({
      ...scope,
      taskKey: "fix",
      branch: "fix/login-refresh",
      files: [
        { path: "server/services/auth.ts", operation: "edit", linesAdded: 24, linesRemoved: 9 },
        { path: "tests/unit/auth-refresh.test.ts", operation: "create", linesAdded: 61 },
      ],
    });
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
    const rangerCard = a.locator(`[data-testid="agent-work"][data-handle="${ranger}"]`);
    await expect(rangerCard.locator('[data-testid="room-timeline-link"]')).toHaveText(`login-${run}`);
    await rangerCard.locator('[data-testid="who-drove"][data-kind="pull_request"]').click();
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
    await expect(row(ranger)).toHaveAttribute("data-kind", "agent");
    await expect(row(ranger).getByTestId("part-messages")).toHaveAttribute("data-value", "2"); // its message and its question
    await expect(row(ranger).getByTestId("part-tasks")).toHaveAttribute("data-value", "2");
    await expect(row(ranger).getByTestId("part-files")).toHaveAttribute("data-value", "2");
    await expect(row(ranger).getByTestId("part-linesChanged")).toHaveAttribute("data-value", "94");

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
    const csv = readFileSync(await download.path(), "utf8")
      .trim()
      .split("\n");
    expect(csv[0]).toBe("subject_kind,subject,participant,handle,kind,messages,words,answers,approvals,tasks,files,lines_changed,first_at,last_at");
    expect(csv).toHaveLength(4);
    expect(csv.find((l) => l.includes(",alice,human,"))).toContain(",alice,human,1,");
    expect(csv.find((l) => l.includes(`,${ranger},agent,`))).toContain(`,${ranger},agent,2,`);

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
    const task = rangerCard.locator('[data-testid="task"]').filter({ hasText: "Fix the session refresh race" });
    await clickHoverAction(task, "task-timeline-link");
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

// The component map in the admin console, after the tests above (whose files and map it starts from):
// an admin starts from the top folders agents touched, renames one and narrows its glob while the
// preview files the touched paths live, orders the entries, and saves; the board files history by the
// new map. Screenshot: docs/screenshots/component-map.png.
test("admins map paths to components, previewed against the files agents touched", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await signUpFirstOrSignIn(page, people.alice);
  await trpc(page, "work.setComponents", { components: [] });
  const top = `pay-${run}`;
  const made = await trpc<{ agent: { id: string }; apiKey: string }>(page, "agents.create", {
    handle: `mapper-${run}`,
    displayName: "Mapper",
    description: "Touches files.",
    framework: "script",
    capabilities: [],
  });
  const agent = new SwitchboardClient({ url: baseURL!, apiKey: made.apiKey });
  try {
    await agent.connect();
    await agent.reportFiles({
      sessionId: `map-${run}`,
      files: [
        { path: `${top}/services/billing.ts`, operation: "edit", linesAdded: 12 },
        { path: `${top}/db.ts`, operation: "read" },
      ],
    });
  } finally {
    await agent.close();
  }

  await page.goto("/admin#settings");
  const card = page.getByTestId("settings-components");
  const previewed = (name: string) => card.getByTestId("components-preview").locator(`[data-testid="preview-component"][data-name="${name}"]`);
  await expect(card.getByTestId("components-empty")).toBeVisible();
  await expect(previewed(top)).toContainText("top folder");
  await expect(previewed(top)).toContainText("2 files");

  // One entry per top folder, then this run's folder becomes Payments, narrowed to its services.
  await card.getByTestId("components-suggest").click();
  const names = () => card.getByTestId("component-name").evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
  const rules = card.getByTestId("component-rule");
  await expect(rules.first()).toBeVisible();
  const at = (await names()).indexOf(top);
  expect(at).toBeGreaterThanOrEqual(0);
  await rules.nth(at).getByTestId("component-name").fill("Payments");
  await rules.nth(at).getByTestId("component-patterns").fill(`${top}/services/**`);
  await expect(previewed("Payments")).toContainText("1 file");
  await expect(previewed("Payments")).toContainText(`${top}/services/billing.ts`);
  await expect(previewed(top)).toContainText("top folder"); // its db.ts falls back

  // An entry that catches nothing says so; the arrows change the first-match order (keyboard too).
  await card.getByTestId("component-add").click();
  const last = (await names()).length - 1;
  await rules.nth(last).getByTestId("component-name").fill("Mobile");
  await rules.nth(last).getByTestId("component-patterns").fill("ios/**");
  await expect(previewed("Mobile")).toContainText("matches no recent file");
  await page.getByRole("button", { name: "Move Mobile up" }).press("Enter");
  await expect(card.getByTestId("component-name").nth(last - 1)).toHaveValue("Mobile");

  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 2000 }); // the whole card in view: no sticky header over it
  await card.screenshot({ path: `${SHOTS}/component-map.png` });
  const order = await names();
  await card.getByTestId("save-components").click();
  await expect(page.getByText("Component map saved")).toBeVisible();

  const saved = await trpc<{ components: { name: string }[] }>(page, "work.components", undefined, "query");
  expect(saved.components.map((c) => c.name)).toEqual(order);
  const board = await trpc<{ agents: { agent: { id: string }; files: { path: string; component: string | null }[] }[] }>(page, "work.board", {}, "query");
  expect(board.agents.find((a) => a.agent.id === made.agent.id)?.files.find((f) => f.path === `${top}/services/billing.ts`)?.component).toBe("Payments");

  // After a reload the form shows what was saved.
  await page.reload();
  await expect(page.getByTestId("settings-components").getByTestId("component-rule")).toHaveCount(order.length);
});
