// Claude Code's hooks on the real server: payloads recorded in the shapes Claude Code documents
// (fixtures/claude-code-hooks/) are POSTed with the agent's key as a hook would, and become the work
// board's rows, live events and board entries; a session id one of the agent's bindings carries puts
// them in its room; bad payloads and credentials are refused and store nothing.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Ack } from "@switchboard/sdk";
import {
  CLI,
  closeSockets,
  collect,
  createAgent,
  dialects,
  emitAck,
  openAgentSocket,
  queryDb,
  runProcess,
  sqlDate,
  unwrap,
  waitFor,
  type Person,
  type TestServer,
} from "./harness";
import { startWorkspace } from "./factories";

const FIXTURES = path.join(import.meta.dirname, "fixtures", "claude-code-hooks");
const fixture = (name: string, sessionId: string): Record<string, unknown> => ({
  ...JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), "utf8")),
  session_id: sessionId,
});

interface Answer {
  status: number;
  /** The Connection header: `close` when the server refused before it had the whole body. */
  connection: string | null;
  body: { ok: boolean; data?: Record<string, unknown>; error?: { code: string; message: string } };
}

// On one database: what this file tests is the hook endpoint and what `connect` writes; the work board
// and turns it feeds run on both databases in work.test.ts and turns.test.ts.
describe.each([dialects[0]])("Claude Code hooks (%s)", (dialect) => {
  let server: TestServer;
  let dana: Person; // owns the agents
  let erin: Person; // a member watching the workspace

  beforeAll(async () => {
    ({
      server,
      people: { dana, erin },
    } = await startWorkspace(dialect, { people: { dana: "owner", erin: "member" }, invite: { maxUses: 5 } }));
  });
  afterEach(() => closeSockets());
  afterAll(() => server?.dispose());

  const post = async (key: string | null, body: unknown, raw = false): Promise<Answer> => {
    const res = await fetch(`${server.url}/api/hooks/claude-code`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      body: raw ? (body as string) : JSON.stringify(body),
    });
    return { status: res.status, connection: res.headers.get("connection"), body: (await res.json()) as Answer["body"] };
  };
  const hook = async (key: string, name: string, sessionId: string) => {
    const answer = await post(key, fixture(name, sessionId));
    expect(answer, name).toMatchObject({ status: 200, body: { ok: true } });
    return answer.body.data!;
  };
  const workOf = async (agentId: string) => (await dana.api.work.board.query({ sinceHours: 24 })).agents.find((a) => a.agent.id === agentId)!;
  const stored = async (agentId: string) => {
    const [files] = await queryDb<{ n: number }>(server, `SELECT COUNT(*) AS "n" FROM "FileTouch" WHERE "agentId" = $1`, [agentId]);
    const [tasks] = await queryDb<{ n: number }>(server, `SELECT COUNT(*) AS "n" FROM "WorkTask" WHERE "agentId" = $1`, [agentId]);
    const [status] = await queryDb<{ workState: string }>(server, `SELECT "workState" FROM "Participant" WHERE "id" = $1`, [agentId]);
    return { files: Number(files.n), tasks: Number(tasks.n), state: status.workState };
  };

  it("a session's hooks become files, statuses and live events, and the board shows them", async () => {
    const bot = await createAgent(dana, `hooked-${dialect}`, { framework: "claude-code" });
    const session = randomUUID();
    const watcher = await erin.socket();
    // The work, as stored, to its owner (an admin, too); a member of no room it served is told nothing of it.
    const changes = collect(await dana.socket(), "work:changed");
    const overheard = collect(watcher, "work:changed");
    const statuses = collect(watcher, "status:updated");
    const stateOf = () => statuses.filter((u) => u.status.participantId === bot.id).at(-1)?.status;

    expect(await hook(bot.apiKey, "session-start", session)).toEqual({ event: "SessionStart", status: "working" });
    await waitFor(() => stateOf()?.state === "working", 5000, "working, live");
    expect(stateOf()?.text).toBe("Session started");

    for (const name of [
      "post-tool-use-edit",
      "post-tool-use-multiedit",
      "post-tool-use-write",
      "post-tool-use-notebook-edit",
      "post-tool-use-read",
      "post-tool-use-bash",
    ]) {
      expect(await hook(bot.apiKey, name, session)).toEqual({ event: "PostToolUse", files: 1 });
    }
    await waitFor(() => changes.filter((c) => c.agentId === bot.id && c.what === "files").length === 6, 5000, "work:changed for each tool call");
    expect(changes.find((c) => c.agentId === bot.id && c.what === "files")?.files).toEqual([
      expect.objectContaining({ path: "server/services/orders.ts", operation: "edit", linesAdded: 2, sessionId: session }),
    ]);
    expect(overheard.filter((c) => c.agentId === bot.id)).toEqual([]);
    // Tools the board does not track: answered, nothing stored.
    const before = await stored(bot.id);
    expect(await hook(bot.apiKey, "post-tool-use-glob", session)).toEqual({ event: "PostToolUse", ignored: true });
    expect(await hook(bot.apiKey, "task-created", session)).toMatchObject({ event: "TaskCreated", tasks: 1 });
    expect((await stored(bot.id)).files).toBe(before.files);
    // The Task tools' TaskUpdate: the task's status; one the session never created is ignored.
    expect(await hook(bot.apiKey, "post-tool-use-taskupdate", session)).toEqual({ event: "PostToolUse", tasks: 1 });
    expect((await workOf(bot.id)).tasks.find((t) => t.key === "7")?.status).toBe("in_progress");
    const unknownTask = { ...fixture("post-tool-use-taskupdate", session), tool_input: { taskId: "99", status: "completed" } };
    expect((await post(bot.apiKey, unknownTask)).body.data).toEqual({ event: "PostToolUse", ignored: true });

    const rows = await queryDb<{ path: string; operation: string; linesAdded: number | null; linesRemoved: number | null; sessionId: string }>(
      server,
      `SELECT "path", "operation", "linesAdded", "linesRemoved", "sessionId" FROM "FileTouch" WHERE "agentId" = $1 ORDER BY "path"`,
      [bot.id],
    );
    expect(rows.map((r) => [r.path, r.operation, r.linesAdded, r.linesRemoved])).toEqual([
      ["app/orders/export.tsx", "create", 3, 0], // Write of a new file: its lines
      ["app/orders/page.tsx", "edit", 2, 0], // MultiEdit without a patch: from old/new strings
      ["docs/orders.md", "read", null, null],
      ["notebooks/revenue.ipynb", "edit", null, null],
      ["npm test -- orders", "run", null, null],
      ["server/services/orders.ts", "edit", 2, 1], // Edit: from Claude Code's structuredPatch
    ]);
    expect(new Set(rows.map((r) => r.sessionId))).toEqual(new Set([session]));

    const work = await workOf(bot.id);
    expect(work.files.map((f) => f.path)).toEqual(expect.arrayContaining(["server/services/orders.ts", "app/orders/export.tsx"]));
    expect(work.components.map((c) => c.name)).toEqual(expect.arrayContaining(["server", "app"]));
    expect(work.tasks.map((t) => [t.key, t.title, t.status])).toEqual([["7", "Review the export's column order", "in_progress"]]);

    // Waiting for the owner, with the notification's message; Stop leaves a wait alone, ends a turn.
    expect(await hook(bot.apiKey, "notification", session)).toEqual({ event: "Notification", status: "waiting" });
    await waitFor(() => stateOf()?.state === "waiting", 5000, "waiting, live");
    expect(stateOf()).toMatchObject({ text: "Claude needs your permission to use Bash", waitingFor: { id: dana.participantId, handle: "dana" } });
    expect(await hook(bot.apiKey, "stop", session)).toEqual({ event: "Stop", ignored: true });
    expect((await workOf(bot.id)).status.state).toBe("waiting");
    expect(await hook(bot.apiKey, "user-prompt-submit", session)).toEqual({ event: "UserPromptSubmit", status: "working" });
    // A tracked tool call renews "working" once less than half of its 30 minutes is left (a heartbeat).
    await queryDb(server, `UPDATE "Participant" SET "workUntil" = $1 WHERE "id" = $2`, [sqlDate(dialect, new Date(Date.now() + 60_000)), bot.id]);
    await hook(bot.apiKey, "post-tool-use-read", session);
    expect(Date.parse((await workOf(bot.id)).status.until!) - Date.now()).toBeGreaterThan(25 * 60_000);
    expect(await hook(bot.apiKey, "task-completed", session)).toMatchObject({ event: "TaskCompleted", tasks: 1 });
    expect(await hook(bot.apiKey, "stop", session)).toEqual({ event: "Stop", status: "idle" });
    await waitFor(() => stateOf()?.state === "idle", 5000, "idle, live");
    expect(await hook(bot.apiKey, "session-end", session)).toEqual({ event: "SessionEnd", status: "idle" });
    expect((await workOf(bot.id)).tasks.find((t) => t.key === "7")?.status).toBe("completed");
  });

  it("TodoWrite's list is the session's whole list: the next one completes and drops; a binding's session id puts it in its room", async () => {
    const room = await dana.api.rooms.createChannel.mutate({ name: `hooks-${dialect}`, visibility: "private", memberIds: [] });
    const bot = await createAgent(dana, `todo-${dialect}`, { framework: "claude-code" });
    await dana.api.rooms.invite.mutate({ roomId: room.id, participantIds: [bot.id] });
    const session = randomUUID();
    const socket = await openAgentSocket(server.url, bot.apiKey);
    const holder = randomUUID();
    const claimed = unwrap(
      await emitAck<Ack<{ id: string; generation: number }>>(socket, "binding:claim", { roomId: room.id, runtime: "claude-code", holder }),
    );
    unwrap(await emitAck(socket, "binding:update", { bindingId: claimed.id, holder, generation: claimed.generation, externalId: session, release: true }));

    expect(await hook(bot.apiKey, "post-tool-use-todowrite-1", session)).toEqual({ event: "PostToolUse", tasks: 3, dropped: 0 });
    expect(await hook(bot.apiKey, "post-tool-use-todowrite-2", session)).toEqual({ event: "PostToolUse", tasks: 3, dropped: 1 });
    const tasks = await queryDb<{ title: string; status: string; roomId: string | null; bindingId: string | null }>(
      server,
      `SELECT "title", "status", "roomId", "bindingId" FROM "WorkTask" WHERE "agentId" = $1 ORDER BY "title"`,
      [bot.id],
    );
    expect(tasks.map((t) => [t.title, t.status])).toEqual([
      ["Add the CSV export button", "completed"],
      ["Compute totals net of discounts", "in_progress"],
      ["Run the orders tests", "pending"],
      ["Write a changelog entry", "dropped"],
    ]);
    expect(new Set(tasks.map((t) => `${t.roomId} ${t.bindingId}`))).toEqual(new Set([`${room.id} ${claimed.id}`]));
    await hook(bot.apiKey, "post-tool-use-edit", session);
    const [file] = await queryDb<{ roomId: string | null }>(server, `SELECT "roomId" FROM "FileTouch" WHERE "agentId" = $1`, [bot.id]);
    expect(file.roomId).toBe(room.id);
    expect((await workOf(bot.id)).progress).toEqual({ completed: 1, total: 3 });
  });

  it("takes a payload that carries whole files (up to 16 MiB), counting their lines without keeping them", async () => {
    const bot = await createAgent(dana, `large-${dialect}`, { framework: "claude-code" });
    const session = randomUUID();
    const content = "export const row = [1, 2, 3];\n".repeat(200_000); // 6.2 MB, 200,000 lines
    const write = fixture("post-tool-use-write", session) as { tool_input: Record<string, unknown>; tool_response: Record<string, unknown> };
    const big = { ...write, tool_input: { ...write.tool_input, content }, tool_response: { ...write.tool_response, content } };
    expect(JSON.stringify(big).length).toBeGreaterThan(12_000_000);
    expect(await post(bot.apiKey, big)).toMatchObject({ status: 200, body: { ok: true, data: { event: "PostToolUse", files: 1 } } });
    // An Edit of a large file: Claude Code sends the whole original; the lines come from the patch.
    const edit = fixture("post-tool-use-edit", session) as { tool_response: Record<string, unknown> };
    const edited = { ...edit, tool_response: { ...edit.tool_response, originalFile: content } };
    expect(await post(bot.apiKey, edited)).toMatchObject({ status: 200, body: { data: { files: 1 } } });
    // A long command is stored clipped, as a short one would be.
    const bash = fixture("post-tool-use-bash", session) as { tool_input: Record<string, unknown> };
    expect(await post(bot.apiKey, { ...bash, tool_input: { ...bash.tool_input, command: `echo ${"x".repeat(100_000)}` } })).toMatchObject({ status: 200 });
    const rows = await queryDb<{ path: string; linesAdded: number | null; linesRemoved: number | null }>(
      server,
      `SELECT "path", "linesAdded", "linesRemoved" FROM "FileTouch" WHERE "agentId" = $1 ORDER BY "at"`,
      [bot.id],
    );
    expect(rows.map((r) => [r.path.length > 100 ? `${r.path.slice(0, 6)}…${r.path.length}` : r.path, r.linesAdded, r.linesRemoved])).toEqual([
      ["app/orders/export.tsx", 200_000, 0],
      ["server/services/orders.ts", 2, 1],
      ["echo x…1000", null, null],
    ]);

    // Past 16 MiB: refused, nothing stored.
    const huge = { ...big, tool_input: { ...big.tool_input, content: content.repeat(3) } };
    const refused = await post(bot.apiKey, huge);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "INVALID_PAYLOAD", message: expect.stringMatching(/Body too large \(at most 16777216 bytes\)/) });
    // The rest of the body is not read, so the connection is closed: kept alive, it would hold the
    // client (and the server's shutdown) until the keep-alive timeout.
    expect(refused.connection).toBe("close");
    expect((await stored(bot.id)).files).toBe(3);
  });

  it("refuses malformed payloads (400), a wrong or missing key (401) and a person's token (403), storing nothing", async () => {
    const bot = await createAgent(dana, `refused-${dialect}`, { framework: "claude-code" });
    const session = randomUUID();
    const invalid = async (body: unknown, raw = false) => {
      const answer = await post(bot.apiKey, body, raw);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.error?.code).toBe("INVALID_PAYLOAD");
      return answer.body.error!.message;
    };
    const edit = fixture("post-tool-use-edit", session);
    expect(await invalid("{ not json", true)).toMatch(/not JSON/);
    expect(await invalid({ ...edit, hook_event_name: "ToolDone" })).toMatch(/hook_event_name: "ToolDone" is not a Claude Code hook event/);
    expect(await invalid({ ...edit, session_id: undefined })).toMatch(/^session_id/);
    expect(await invalid({ ...edit, session_id: 42 })).toMatch(/^session_id/);
    expect(await invalid({ ...edit, tool_input: { file_path: 7, old_string: "", new_string: "" } })).toMatch(/^tool_input\.file_path/);
    expect(await invalid({ ...fixture("post-tool-use-todowrite-1", session), tool_input: { todos: "all of them" } })).toMatch(/^tool_input\.todos/);
    expect(await invalid({ ...fixture("post-tool-use-todowrite-1", session), tool_input: { todos: [{ content: "x", status: "done" }] } })).toMatch(
      /^tool_input\.todos\.0\.status/,
    );
    expect(await invalid({ ...fixture("task-created", session), task_subject: undefined })).toMatch(/^task_subject/);
    expect(await invalid([])).toMatch(/body|expected object/);
    expect(await stored(bot.id)).toEqual({ files: 0, tasks: 0, state: "idle" });

    const unauthenticated = async (key: string | null) => {
      const answer = await post(key, edit);
      expect(answer.status).toBe(401);
      expect(answer.body.error?.code).toBe("UNAUTHENTICATED");
    };
    await unauthenticated(null);
    await unauthenticated(`${bot.apiKey.slice(0, -4)}abcd`);
    await unauthenticated("sb_not_a_key");
    const { token } = await dana.api.tokens.create.mutate({ name: "hooks", scope: "write", expiresInDays: 1 });
    const person = await post(token, fixture("session-start", session));
    expect(person.status).toBe(403);
    expect(person.body.error?.code).toBe("FORBIDDEN");
    expect((await workOf(bot.id)).status.state).toBe("idle");
    expect(await stored(bot.id)).toEqual({ files: 0, tasks: 0, state: "idle" });
    expect((await fetch(`${server.url}/api/hooks/claude-code`, { headers: { Authorization: `Bearer ${bot.apiKey}` } })).status).toBe(404);
  });
  it("a hook-connected session's tool calls are steps of the turn it reports with report_activity; a Stop stops the session at its next tool call", async () => {
    const bot = await createAgent(dana, `turner-${dialect}`, { framework: "claude-code" });
    const room = await dana.api.rooms.createChannel.mutate({ name: `hook-turns-${dialect}`, visibility: "private", memberIds: [bot.id] });
    const agent = await openAgentSocket(server.url, bot.apiKey);
    const tool = async (args: Record<string, unknown>) =>
      unwrap(await emitAck<Ack<Record<string, unknown>>>(agent, "tool:call", { name: "report_activity", args }));
    const ask = (text: string) => dana.api.messages.send.mutate({ roomId: room.id, body: `@${bot.agent.handle} ${text}`, clientMsgId: randomUUID() });
    const turnOf = async (messageId: string) => (await dana.api.turns.forRoom.query({ roomId: room.id })).turns.find((t) => t.messageId === messageId)!;
    const session = randomUUID();
    const call = (event: "PreToolUse" | "PostToolUse", id: string) => {
      const { tool_response: response, ...before } = fixture("post-tool-use-bash", session);
      return post(bot.apiKey, { ...(event === "PreToolUse" ? before : { ...before, tool_response: response }), hook_event_name: event, tool_use_id: id });
    };

    // No turn running: a tool call is the board's alone.
    expect((await call("PreToolUse", "toolu_0")).body).toEqual({ ok: true, data: { event: "PreToolUse", ignored: true } });

    // The session says it works on a message (the MCP tool): its turn opens, its plan shown.
    const first = await ask("fix the orders export");
    const opened = await tool({ message_id: first.id, plan: [{ title: "Run the tests", status: "in_progress" }] });
    expect(opened).toMatchObject({ state: "running" });
    // Its tool calls, from its hooks: running, then done with the result.
    const started = await call("PreToolUse", "toolu_1");
    expect(started.body).toEqual({ ok: true, data: { event: "PreToolUse", ignored: true, turn: { id: opened.turn_id, stoppedBy: null } } });
    let seen = await turnOf(first.id);
    await waitFor(
      () => seen.steps.some((s) => s.key === "tool:toolu_1" && s.status === "running"),
      5000,
      "the call, running",
      async () => void (seen = await turnOf(first.id)),
    );
    expect((await call("PostToolUse", "toolu_1")).body.data).toMatchObject({ event: "PostToolUse", files: 1, turn: { stoppedBy: null } });
    const watched = await turnOf(first.id);
    expect(watched).toMatchObject({ state: "running", runtime: "mcp" });
    expect(watched.steps.map((s) => [s.kind, s.title, s.status])).toEqual([
      ["plan", "Plan: 0 of 1 done", "done"],
      ["tool", expect.stringMatching(/^Bash .*npm test -- orders/), "done"],
    ]);
    expect(watched.steps[1].detail).toContain("3 passed");

    // Dana presses Stop: the next tool call's answer stops Claude Code (`continue: false`, read at the top level).
    await dana.api.turns.stop.mutate({ turnId: opened.turn_id as string });
    const stopped = await call("PreToolUse", "toolu_2");
    expect(stopped.body).toMatchObject({ continue: false, stopReason: `Stopped by @${dana.handle} from Switchboard`, ok: true });
    expect(await turnOf(first.id)).toMatchObject({ state: "stopped", stoppedBy: { handle: dana.handle } });
    const [receipt] = await queryDb<{ state: string; reason: string }>(
      server,
      `SELECT "state", "reason" FROM "MessageReceipt" WHERE "messageId" = $1 AND "participantId" = $2`,
      [first.id, bot.id],
    );
    expect(receipt).toEqual({ state: "failed", reason: `stopped by @${dana.handle}` });
    // The tool says so too, and the turn stays stopped.
    expect(await tool({ message_id: first.id, steps: [{ id: "n", title: "still here" }] })).toMatchObject({ state: "stopped", stopped_by: `@${dana.handle}` });

    // The next message's turn: Claude Code's Stop (it answered) ends it done.
    const second = await ask("and the CSV header");
    const next = await tool({ message_id: second.id, steps: [{ id: "read", kind: "file", title: "app/orders/export.tsx" }] });
    expect((await post(bot.apiKey, fixture("stop", session))).body.data).toMatchObject({ turn: { id: next.turn_id, stoppedBy: null } });
    expect(await turnOf(second.id)).toMatchObject({ state: "done" });
    // Or the session says it is done itself.
    const third = await ask("thanks");
    const own = await tool({ message_id: third.id, done: true, input_tokens: 1200, output_tokens: 80 });
    expect(own).toMatchObject({ state: "done" });
    expect(await turnOf(third.id)).toMatchObject({ state: "done", tokens: { input: 1200, output: 80 } });
  });

  // The CLI's files do not depend on the database: one dialect.
  it.runIf(dialect === "sqlite")(
    "connect --client claude merges its hooks into .claude/settings.local.json (keeping others', replacing an older version's, once); the curl each runs, and the hook command, post the payload",
    async () => {
      const home = mkdtempSync(path.join(tmpdir(), "switchboard-hooks-"));
      const project = path.join(home, "project");
      const settingsFile = path.join(project, ".claude", "settings.local.json");
      mkdirSync(path.dirname(settingsFile), { recursive: true });
      // An older connect's async command hooks, beside the person's own.
      const older = { type: "command", command: "switchboard hook claude-code --profile hk-claude@http://127.0.0.1:3000", async: true, timeout: 10 };
      const theirs = {
        permissions: { allow: ["Bash(npm test)"] },
        hooks: {
          PostToolUse: [
            { matcher: "Write", hooks: [{ type: "command", command: "prettier --write" }] },
            { matcher: "Edit|Write", hooks: [older] },
          ],
          Stop: [{ hooks: [{ type: "command", command: "say done" }] }, { hooks: [older] }],
          SessionStart: [{ hooks: [older] }],
        },
      };
      writeFileSync(settingsFile, `${JSON.stringify(theirs, null, 4)}\n`);
      const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") };
      const run = (command: string, args: string[], stdin = "") => runProcess(command, args, { cwd: project, env, stdin });
      try {
        const { token } = await dana.api.agents.createOnboardingToken.mutate({ label: "hooks", expiresInDays: 1 });
        const args = [...CLI, "connect", "--url", server.url, "--token", token, "--client", "claude", "--handle", "hk-claude"];
        const connected = await run(process.execPath, args);
        expect(connected.code, connected.stderr).toBe(0);
        const origin = new URL(server.url).origin;
        const config = JSON.parse(readFileSync(path.join(home, ".config", "switchboard", "config.json"), "utf8")) as {
          profiles: Record<string, { apiKey: string; participantId: string }>;
        };
        const profile = config.profiles[`hk-claude@${origin}`];

        const text = readFileSync(settingsFile, "utf8");
        expect(text).not.toContain(profile.apiKey);
        expect(text).toMatch(/^ {4}"permissions"/m); // their indentation kept
        const settings = JSON.parse(text) as { permissions: unknown; hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> };
        expect(settings.permissions).toEqual(theirs.permissions);
        // A synchronous command hook: curl posts the payload with the header from the agent's key file in the config dir.
        const ours = settings.hooks.PostToolUse[1].hooks[0];
        expect(ours).toEqual({ type: "command", command: expect.stringMatching(/^\S*curl -sSf --max-time 9 -o \/dev\/null /), timeout: 10 });
        expect(ours.command).toContain(` -H @${path.join(home, ".config", "switchboard", "keys")}/hk-claude@`);
        expect(ours.command).toContain(` --data-binary @- ${origin}/api/hooks/claude-code`);
        // Every tool's calls (the room watches them); theirs kept.
        expect(settings.hooks.PostToolUse).toEqual([theirs.hooks.PostToolUse[0], { hooks: [ours] }]);
        expect(settings.hooks.Stop).toEqual([theirs.hooks.Stop[0], { hooks: [ours] }]);
        expect(settings.hooks.UserPromptSubmit).toEqual([{ hooks: [ours] }]);
        // Before a tool call, Claude Code reads the answer (a Stop from the room stops the session): not discarded.
        expect(settings.hooks.PreToolUse).toEqual([{ hooks: [{ ...ours, command: String(ours.command).replace(" -o /dev/null", "") }] }]);
        // SessionStart is not wired: the older one there is gone, and the event with it.
        expect(Object.keys(settings.hooks).sort()).toEqual([
          "Notification",
          "PostToolUse",
          "PostToolUseFailure",
          "PreToolUse",
          "SessionEnd",
          "Stop",
          "TaskCompleted",
          "TaskCreated",
          "UserPromptSubmit",
        ]);

        const before = { bytes: text, mtimeMs: statSync(settingsFile).mtimeMs };
        expect((await run(process.execPath, args)).code).toBe(0);
        expect({ bytes: readFileSync(settingsFile, "utf8"), mtimeMs: statSync(settingsFile).mtimeMs }).toEqual(before);

        // The hook as written, run as Claude Code runs it (through the shell, the payload on stdin): stored; nothing on stdout.
        const byCurl = randomUUID();
        expect(await run("sh", ["-c", String(ours.command)], JSON.stringify(fixture("post-tool-use-edit", byCurl)))).toMatchObject({ code: 0, stdout: "" });
        // `switchboard hook claude-code`, for a command hook of one's own, does the same.
        const command = `${process.execPath} ${CLI.join(" ")} hook claude-code --profile hk-claude@${origin}`;
        const session = randomUUID();
        const forwarded = await run("sh", ["-c", command], JSON.stringify(fixture("post-tool-use-edit", session)));
        expect(forwarded).toMatchObject({ code: 0, stdout: "" });
        const rows = await queryDb<{ path: string; sessionId: string }>(
          server,
          `SELECT "path", "sessionId" FROM "FileTouch" WHERE "agentId" = $1 ORDER BY "at"`,
          [profile.participantId],
        );
        expect(rows).toEqual([
          { path: "server/services/orders.ts", sessionId: byCurl },
          { path: "server/services/orders.ts", sessionId: session },
        ]);
        // Failures never exit 2 (Claude Code would block the tool call): 1, with the reason on stderr.
        const refused = await run("sh", ["-c", command], JSON.stringify({ ...fixture("stop", session), hook_event_name: "Nope" }));
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain("INVALID_PAYLOAD");
        expect((await run("sh", ["-c", command], "not json")).code).toBe(1);

        // Without curl on PATH: http hooks, whose header Claude Code fills from $SWITCHBOARD_API_KEY (connect says to export it).
        const bare = path.join(home, "bare");
        mkdirSync(bare);
        const { token: another } = await dana.api.agents.createOnboardingToken.mutate({ label: "hooks", expiresInDays: 1 });
        const noCurl = await runProcess(
          process.execPath,
          [...CLI, "connect", "--url", server.url, "--token", another, "--client", "claude", "--handle", "hk-bare"],
          {
            cwd: bare,
            env: { ...env, PATH: "/nonexistent" },
          },
        );
        expect(noCurl.code, noCurl.stderr).toBe(0);
        expect(noCurl.stdout).toContain("export SWITCHBOARD_API_KEY=");
        const http = JSON.parse(readFileSync(path.join(bare, ".claude", "settings.local.json"), "utf8")) as typeof settings;
        expect(http.hooks.Stop).toEqual([
          {
            hooks: [
              {
                type: "http",
                url: `${origin}/api/hooks/claude-code`,
                headers: { Authorization: "Bearer $SWITCHBOARD_API_KEY" },
                allowedEnvVars: ["SWITCHBOARD_API_KEY"],
                timeout: 10,
              },
            ],
          },
        ]);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
  );
});
