// The real Claude Code fires the work board's hooks. `switchboard connect --client claude` (the real
// CLI, as a child process) writes .claude/settings.local.json in a fresh project; the Claude Code CLI
// that @anthropic-ai/claude-agent-sdk bundles then runs sessions there (through the SDK's `query()`,
// loading the project's and local settings as the `claude` command does), against a scripted Messages
// API on loopback (tests/support/scripted-anthropic.ts) whose model writes a todo list, creates, edits
// and lists files, and uses the Task tools. What Claude Code posted arrives through tRPC `work.board`,
// the database and a person's socket, keyed by the session ids Claude Code used. A Stop pressed in the
// room stops a session at its next tool call (the hook's answer: `continue: false`, the call denied).
//
// What the real runs showed (Claude Code 2.1.333), and why the hooks are synchronous (a curl each,
// cli/clients/claude-hooks.ts): an `async` command hook still running when a headless session ends is
// killed, so the last tool calls and the Stop of such a session were lost; synchronous hooks are
// delivered in order, each before the next model call, and SessionEnd before the process exits. This
// build offers the todo tools only with CLAUDE_CODE_ENABLE_TODO_TOOLS=1 when the API host is not
// Anthropic's (as here) and its default model is not on its list: TaskCreate / TaskUpdate by default,
// TodoWrite with CLAUDE_CODE_ENABLE_TASKS=0.
//
// SQLite only: this proves Claude Code's payloads, what `connect` writes and the mapping end to end;
// the storage under both databases is claude-code-hooks.test.ts's.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedAnthropic, text, toolUse, type ScriptedAnthropic, type Step } from "../support/scripted-anthropic";
import type { Ack } from "@switchboard/sdk";
import {
  CLI,
  collect,
  closeSockets,
  emitAck,
  openAgentSocket,
  queryDb,
  runProcess,
  signUpPerson,
  startTestServer,
  unwrap,
  waitFor,
  type Person,
  type TestServer,
} from "./harness";

let server: TestServer;
let api: ScriptedAnthropic;
let dana: Person;
let root: string;
let project: string;
let agent: { participantId: string; apiKey: string };

beforeAll(async () => {
  [server, api] = await Promise.all([startTestServer("sqlite"), startScriptedAnthropic()]);
  dana = await signUpPerson(server, { handle: "dana" });
  root = mkdtempSync(path.join(os.tmpdir(), "claude-hooks-real-"));
  project = path.join(root, "shop");
  for (const dir of [project, path.join(root, "tmp")]) mkdirSync(dir, { recursive: true });

  // The person's one command, in the project, as they would run it.
  const { token } = await dana.api.agents.createOnboardingToken.mutate({ label: "claude", expiresInDays: 1 });
  const env = { PATH: process.env.PATH ?? "", HOME: root, XDG_CONFIG_HOME: path.join(root, ".config") };
  const connected = await runProcess(process.execPath, [...CLI, "connect", "--url", server.url, "--token", token, "--client", "claude", "--handle", "coder"], {
    cwd: project,
    env,
  });
  expect(connected.code, connected.stderr).toBe(0);
  const config = JSON.parse(readFileSync(path.join(root, ".config", "switchboard", "config.json"), "utf8")) as {
    profiles: Record<string, { apiKey: string; participantId: string }>;
  };
  agent = config.profiles[`coder@${new URL(server.url).origin}`];
});

afterAll(async () => {
  closeSockets();
  await Promise.all([server?.dispose(), api?.close()]);
  if (root) rmSync(root, { recursive: true, force: true });
});

interface Run {
  sessionId: string;
  /** The session's result message. */
  result: { subtype: string; text: string };
  /** Claude Code's record of each hook it ran: event, outcome, the command's exit code. */
  hooks: { event: string; name: string; outcome: string; status?: number }[];
}

/** One headless Claude Code session in the project, its model scripted by `steps`. */
async function claude(prompt: string, steps: Step[], env: Record<string, string> = {}, opts: { stopped?: boolean } = {}): Promise<Run> {
  api.script(steps);
  const run: Run = { sessionId: "", hooks: [], result: { subtype: "", text: "" } };
  const session = query({
    prompt,
    options: {
      cwd: project,
      // What `claude` loads besides the person's own settings: the project's and .claude/settings.local.json.
      settingSources: ["project", "local"],
      // The .mcp.json `connect` also wrote is not this test's subject.
      strictMcpConfig: true,
      permissionMode: "dontAsk",
      allowedTools: ["TodoWrite", "TaskCreate", "TaskUpdate", "Write", "Edit", "Bash"],
      includeHookEvents: true,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: root,
        TMPDIR: path.join(root, "tmp"),
        CLAUDE_CONFIG_DIR: path.join(root, ".claude-config"),
        ANTHROPIC_BASE_URL: api.url,
        ANTHROPIC_API_KEY: "sk-ant-test-key",
        // Anything else the CLI tried to reach would go through the scripted server's refusing proxy.
        HTTPS_PROXY: api.url,
        HTTP_PROXY: api.url,
        NO_PROXY: "127.0.0.1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        // No SWITCHBOARD_API_KEY: the hooks' curl reads the key from the CLI's config dir.
        CLAUDE_CODE_ENABLE_TODO_TOOLS: "1",
        ...env,
      },
    },
  });
  for await (const message of session as AsyncIterable<SDKMessage>) {
    if (message.type === "system" && message.subtype === "init") run.sessionId = message.session_id;
    if (message.type === "system" && message.subtype === "hook_response") {
      run.hooks.push({ event: message.hook_event, name: message.hook_name, outcome: message.outcome, status: message.exit_code });
    }
    if (message.type === "result") run.result = { subtype: message.subtype, text: JSON.stringify(message) };
  }
  if (!opts.stopped) expect(run.result.subtype, run.result.text).toBe("success");
  expect(api.problems.splice(0)).toEqual([]);
  expect(api.tunnels.splice(0)).toEqual([]);
  expect(api.pending()).toBe(0);
  return run;
}

const boardOf = async () => (await dana.api.work.board.query({ sinceHours: 24 })).agents.find((a) => a.agent.id === agent.participantId)!;
const filesOf = (sessionId: string) =>
  queryDb<{ path: string; operation: string; linesAdded: number | null; linesRemoved: number | null }>(
    server,
    `SELECT "path", "operation", "linesAdded", "linesRemoved" FROM "FileTouch" WHERE "agentId" = $1 AND "sessionId" = $2 ORDER BY "at", "path"`,
    [agent.participantId, sessionId],
  );
const tasksOf = (sessionId: string) =>
  queryDb<{ key: string; title: string; status: string }>(
    server,
    `SELECT "key", "title", "status" FROM "WorkTask" WHERE "agentId" = $1 AND "sessionId" = $2 ORDER BY "position"`,
    [agent.participantId, sessionId],
  );

describe("the real Claude Code fires the work board's hooks", () => {
  it("a session's todo list, files and command arrive as it works, with its session id; idle when it ends; live on a person's socket", async () => {
    const watcher = await dana.socket();
    const changes = collect(watcher, "work:changed");
    const statuses = collect(watcher, "status:updated");
    const mine = () => statuses.filter((u) => u.status.participantId === agent.participantId).map((u) => u.status.state);
    const file = path.join(project, "src", "export.ts");
    const big = path.join(project, "data", "orders.csv");
    const bigContent = "id,customer,total,discount\n" + "1042,Acme Robotics,1299.00,0.10\n".repeat(70_000); // 2.2 MB, 70,001 lines
    const seen: { state: string; files: string[]; tasks: string[] }[] = [];
    // Between model calls: the board as a person sees it then (each hook has answered before the next call).
    const look = async () => {
      const work = await boardOf();
      seen.push({ state: work.status.state, files: work.files.map((f) => f.path), tasks: work.tasks.map((t) => `${t.title}: ${t.status}`) });
    };
    const todos = (first: string, second: string) => ({
      todos: [
        { content: "Write the CSV export", status: first, activeForm: "Writing the CSV export" },
        { content: "List what was written", status: second, activeForm: "Listing what was written" },
      ],
    });

    const run = await claude(
      "Add a CSV export of the orders",
      [
        () => toolUse("TodoWrite", todos("in_progress", "pending")),
        async () => (await look(), toolUse("Write", { file_path: file, content: "export function toCsv(rows) {\n  return rows.join(',');\n}\n" })),
        async () => (
          await look(),
          toolUse("Edit", {
            file_path: file,
            old_string: "  return rows.join(',');",
            new_string: "  const lines = rows.map(String);\n  return lines.join('\\n');",
          })
        ),
        () => toolUse("Write", { file_path: big, content: bigContent }),
        () => toolUse("Bash", { command: "ls src data", description: "List what was written" }),
        async () => (await look(), toolUse("TodoWrite", todos("completed", "in_progress"))),
        async () => (await look(), text("The export is in src/export.ts.")),
      ],
      { CLAUDE_CODE_ENABLE_TASKS: "0" },
    );

    // Claude Code ran each hook, and each curl got a success (-f: a refusal would exit 22).
    expect(run.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(run.hooks.filter((h) => h.outcome !== "success" || h.status !== 0)).toEqual([]);
    expect(run.hooks.map((h) => h.name)).toEqual(
      expect.arrayContaining(["UserPromptSubmit", "PostToolUse:TodoWrite", "PostToolUse:Write", "PostToolUse:Edit", "PostToolUse:Bash", "Stop"]),
    );

    // While it worked: working, and what it had done so far, call by call.
    expect(seen).toEqual([
      { state: "working", files: [], tasks: ["Write the CSV export: in_progress", "List what was written: pending"] },
      { state: "working", files: ["src/export.ts"], tasks: ["Write the CSV export: in_progress", "List what was written: pending"] },
      {
        state: "working",
        files: ["ls src data", "data/orders.csv", "src/export.ts"],
        tasks: ["Write the CSV export: in_progress", "List what was written: pending"],
      },
      {
        state: "working",
        files: ["ls src data", "data/orders.csv", "src/export.ts"],
        tasks: ["List what was written: in_progress", "Write the CSV export: completed"],
      },
    ]);

    // The rows, keyed by Claude Code's session id, paths relative to the project (a 4.4 MB payload too).
    expect(await filesOf(run.sessionId)).toEqual([
      { path: "src/export.ts", operation: "create", linesAdded: 3, linesRemoved: 0 },
      { path: "src/export.ts", operation: "edit", linesAdded: 2, linesRemoved: 1 },
      { path: "data/orders.csv", operation: "create", linesAdded: 70_001, linesRemoved: 0 },
      { path: "ls src data", operation: "run", linesAdded: null, linesRemoved: null },
    ]);
    expect(await tasksOf(run.sessionId)).toEqual([
      { key: "write the csv export", title: "Write the CSV export", status: "completed" },
      { key: "list what was written", title: "List what was written", status: "in_progress" },
    ]);

    // Stop made it idle; SessionEnd, sent as the process ends, said so again.
    await waitFor(() => mine().filter((s) => s === "idle").length >= 2, 15_000, "idle after Stop and SessionEnd");
    expect(mine()[0]).toBe("working");
    expect(mine().slice(mine().indexOf("idle"))).toEqual(["idle", "idle"]);
    const work = await boardOf();
    expect(work.status.state).toBe("idle");
    expect(work.components.map((c) => c.name).sort()).toEqual(["data", "src"]);
    expect(work.progress).toEqual({ completed: 1, total: 2 });
    // Live: a person's socket heard of the tasks and files as they came.
    expect(new Set(changes.filter((c) => c.agentId === agent.participantId).map((c) => c.what))).toEqual(new Set(["tasks", "files"]));
    // The endpoint's answers went to Claude Code, not to its model.
    expect(JSON.stringify(api.calls)).not.toContain('"ok":true');
  }, 120_000);

  it("a Stop pressed in the room stops the session at its next tool call: the turn its hooks fed ends stopped", async () => {
    const room = await dana.api.rooms.createChannel.mutate({ name: "orders", visibility: "private", memberIds: [agent.participantId] });
    const ask = await dana.api.messages.send.mutate({ roomId: room.id, body: "@coder add a JSON export too", clientMsgId: "stop-1" });
    // The session says which message it works on, as it would through the MCP tool (the same tool, over the agent's socket).
    const socket = await openAgentSocket(server.url, agent.apiKey);
    const opened = unwrap(await emitAck<Ack<{ turn_id: string }>>(socket, "tool:call", { name: "report_activity", args: { message_id: ask.id } }));
    const first = path.join(project, "src", "json-export.ts");
    const second = path.join(project, "src", "json-export.test.ts");
    let watched: string[] = [];
    const run = await claude(
      "Add a JSON export",
      [
        () => toolUse("Write", { file_path: first, content: "export const toJson = (rows) => JSON.stringify(rows);\n" }),
        async () => {
          // The first call is on the turn, done; then Dana presses Stop before the model's next call.
          const turn = (await dana.api.turns.forRoom.query({ roomId: room.id })).turns.find((t) => t.id === opened.turn_id)!;
          watched = turn.steps.map((s) => `${s.title}: ${s.status}`);
          await dana.api.turns.stop.mutate({ turnId: opened.turn_id });
          return toolUse("Write", { file_path: second, content: "test('exports', () => {});\n" });
        },
      ],
      {},
      { stopped: true },
    );
    expect(watched).toEqual([expect.stringMatching(/^Write .*json-export\.ts.*: done$/)]);
    // Claude Code stopped before the second Write: the file was never written, and no model call followed.
    expect(existsSync(first)).toBe(true);
    expect(existsSync(second)).toBe(false);
    expect(run.hooks.filter((h) => h.outcome !== "success" || h.status !== 0)).toEqual([]);
    const turn = (await dana.api.turns.forRoom.query({ roomId: room.id })).turns.find((t) => t.id === opened.turn_id)!;
    expect(turn).toMatchObject({ state: "stopped", stoppedBy: { handle: "dana" } });
  }, 120_000);

  it("the Task tools: TaskCreated and TaskCompleted, TaskUpdate's in progress and deleted", async () => {
    const notes = path.join(project, "docs", "orders.md");
    let during: string[] = [];
    const run = await claude("Document the export", [
      () => toolUse("TaskCreate", { subject: "Document the export", description: "In docs/orders.md", activeForm: "Documenting the export" }),
      () => toolUse("TaskCreate", { subject: "Announce it", description: "In the changelog", activeForm: "Announcing it" }),
      () => toolUse("TaskUpdate", { taskId: "1", status: "in_progress" }),
      async () => {
        during = (await boardOf()).tasks.filter((t) => t.key === "1" || t.key === "2").map((t) => `${t.key} ${t.title}: ${t.status}`);
        return toolUse("Write", { file_path: notes, content: "# Orders\n\nExport them as CSV.\n" });
      },
      () => toolUse("TaskUpdate", { taskId: "1", status: "completed" }),
      () => toolUse("TaskUpdate", { taskId: "2", status: "deleted" }),
      () => text("Documented."),
    ]);
    expect(run.hooks.filter((h) => h.outcome !== "success" || h.status !== 0)).toEqual([]);
    expect(run.hooks.map((h) => h.name)).toEqual(expect.arrayContaining(["TaskCreated", "TaskCompleted", "PostToolUse:TaskUpdate", "PostToolUse:Write"]));
    // In Claude Code's order: the task it started first, then the one waiting.
    expect(during).toEqual(["1 Document the export: in_progress", "2 Announce it: pending"]);
    expect(await tasksOf(run.sessionId)).toEqual([
      { key: "1", title: "Document the export", status: "completed" },
      { key: "2", title: "Announce it", status: "dropped" },
    ]);
    expect(await filesOf(run.sessionId)).toEqual([{ path: "docs/orders.md", operation: "create", linesAdded: 3, linesRemoved: 0 }]);
  }, 120_000);
});
