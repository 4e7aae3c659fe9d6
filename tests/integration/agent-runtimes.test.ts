// The Claude and Codex adapters through the Agent, end to end: the examples themselves
// (examples/claude-agent.ts, examples/codex-agent.ts) run as agent processes against a real server,
// their CLIs (the Claude Code CLI of @anthropic-ai/claude-agent-sdk, the Codex CLI of @openai/codex-sdk)
// talking to scripted models on loopback, configured only as a user would (ANTHROPIC_BASE_URL,
// CLAUDE_CONFIG_DIR, CODEX_HOME's config.toml, ...), everything they write under a temp directory.
// Per runtime, one story in one room: a mention is answered and the room's binding names the
// framework's session; a SIGKILL between turns and a restart resume that session, handed only what
// it missed; a SIGTERM mid-turn finishes the turn and exits 0, and what came after is answered on
// the next start; a session file gone is a failed resume recorded on the binding, and a new session
// starts with the room's history.
//
// The scripted answers are functions of the request (what the session holds, what was asked), so a
// restarted CLI gets the same answers; the binding rules themselves are tested on both databases in
// bindings.test.ts, so one SQLite server is enough here.
import { execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageView } from "@switchboard/sdk";
import type { BindingView } from "@switchboard/sdk/bindings";
import { startScriptedAnthropic, text, type ApiMessage, type ScriptedAnthropic } from "../support/scripted-anthropic";
import { startScriptedOpenAI, type InputItem, type ResponsesRequest, type ScriptedOpenAI } from "../support/scripted-openai";
import { createAgent, signUpPerson, startAgentProcess, startTestServer, waitFor, type Person, type TestServer } from "./harness";

const work = mkdtempSync(path.join(tmpdir(), "switchboard-runtimes-"));
const children = new Set<ChildProcess>();
let server: TestServer;
let dana: Person;
let anthropic: ScriptedAnthropic;
let openai: ScriptedOpenAI;

/** How the Agent starts each turn's prompt (sdk/agent.ts formatPrompt). */
const PROMPT_START = "You are @";

/** One model call, as far as these tests look into it. */
interface ModelCall {
  /** The Agent's prompts in the conversation the model is handed, oldest first: one per turn of the session. */
  prompts: string[];
  /** The conversation as "role: text" lines (the CLI's own items included; Claude's role-"system" reminders left out). */
  transcript: string[];
  /** The session (Claude) or thread (Codex) the CLI says the call is for. */
  session: string | undefined;
  /** The tools offered to the model, as JSON. */
  tools: string;
}

/** The message a prompt was made for: its last line, "[seq] @author: body". */
function triggerOf(prompt: string): string {
  const last = prompt.trimEnd().split("\n").at(-1) ?? "";
  return /^\[\d+\] [^:]+: (.*)$/.exec(last)?.[1] ?? last;
}

/** A scripted model's answers to messages with "slow" in them wait until released (a model that takes its time). */
class SlowAnswers {
  private held: Promise<void> = Promise.resolve();
  /** Holds them from now on; returns the release. */
  hold(): () => void {
    let release!: () => void;
    this.held = new Promise<void>((resolve) => (release = resolve));
    return release;
  }
  wait(asked: string): Promise<void> {
    return asked.includes("slow") ? this.held : Promise.resolve();
  }
}

/** The scripted model, one rule for both runtimes: it says what it was asked and how many prompts its session holds. */
async function answer(prompts: string[], slow: SlowAnswers): Promise<string> {
  const asked = triggerOf(prompts.at(-1) ?? "");
  await slow.wait(asked);
  return `heard "${asked}" (prompt ${prompts.length} of this session)`;
}

const promptIn = (value: string): string | null => (value.includes(PROMPT_START) ? value.slice(value.indexOf(PROMPT_START)) : null);

function claudeTexts(message: ApiMessage): string[] {
  if (typeof message.content === "string") return [message.content];
  return message.content.filter((block) => block.type === "text").map((block) => block.text ?? "");
}

function claudeCall(request: { body: unknown; headers: Record<string, unknown> }): ModelCall {
  const messages = (request.body as { messages: ApiMessage[] }).messages.filter((m) => m.role !== "system");
  return {
    prompts: messages
      .filter((m) => m.role === "user")
      .flatMap((m) =>
        claudeTexts(m)
          .map(promptIn)
          .filter((p): p is string => p !== null),
      ),
    transcript: messages.map((m) => `${m.role}: ${claudeTexts(m).join("\n")}`),
    session: request.headers["x-claude-code-session-id"] as string | undefined,
    tools: JSON.stringify((request.body as { tools?: unknown }).tools ?? []),
  };
}

const codexText = (item: InputItem) => (item.content ?? []).map((c) => c.text ?? "").join("");

function codexCall(request: { body: unknown; headers: Record<string, unknown> }): ModelCall {
  const messages = (request.body as ResponsesRequest).input.filter((i) => i.type === "message");
  return {
    prompts: messages
      .filter((m) => m.role === "user")
      .map((m) => promptIn(codexText(m)))
      .filter((p): p is string => p !== null),
    transcript: messages.map((m) => `${m.role}: ${codexText(m)}`),
    session: (request.headers["thread-id"] ?? request.headers["session-id"]) as string | undefined,
    tools: JSON.stringify((request.body as ResponsesRequest).tools ?? []),
  };
}

interface Runtime {
  /** The agent's handle, and the example it runs. */
  handle: string;
  example: string;
  kind: string;
  /** What the scripted model reports per call (each turn here is one call). */
  usagePerCall: { inputTokens: number; outputTokens: number };
  /** The example's environment (beyond Switchboard's), every directory under `dir`. */
  env(dir: string): Record<string, string>;
  calls(): ModelCall[];
  slow: SlowAnswers;
  /** Where the session's file is, if it is there. */
  sessionFile(dir: string, externalId: string): string | null;
  /** What the adapter says when that file is gone. */
  gone(dir: string, externalId: string): string;
}

const claude: Runtime = {
  handle: "claude",
  example: "examples/claude-agent.ts",
  kind: "claude-agent-sdk",
  usagePerCall: { inputTokens: 10, outputTokens: 5 },
  env: (dir) => ({
    ANTHROPIC_BASE_URL: anthropic.url,
    ANTHROPIC_API_KEY: "sk-ant-scripted",
    CLAUDE_MODEL: "claude-sonnet-5",
    CLAUDE_WORKDIR: path.join(dir, "work"),
    CLAUDE_CONFIG_DIR: path.join(dir, "claude-config"),
    // Anything the CLI tried to reach but the model would go through the scripted server's refusing proxy.
    HTTPS_PROXY: anthropic.url,
    HTTP_PROXY: anthropic.url,
    NO_PROXY: "127.0.0.1",
  }),
  slow: new SlowAnswers(),
  calls: () => anthropic.requests.filter((r) => r.method === "POST" && r.path.split("?")[0] === "/v1/messages").map(claudeCall),
  sessionFile(dir, externalId) {
    // $CLAUDE_CONFIG_DIR/projects/<the working directory, "/" as "-">/<session id>.jsonl
    const file = path.join(dir, "claude-config", "projects", path.join(dir, "work").replaceAll("/", "-"), `${externalId}.jsonl`);
    return existsSync(file) ? file : null;
  },
  gone: (_dir, externalId) => `No conversation found with session ID: ${externalId}`,
};

const codex: Runtime = {
  handle: "codex",
  example: "examples/codex-agent.ts",
  kind: "codex",
  usagePerCall: { inputTokens: 100, outputTokens: 10 },
  env(dir) {
    const home = path.join(dir, "codex-home");
    mkdirSync(home, { recursive: true });
    // Where a Codex user points it at another endpoint; no plugin sync (GitHub, chatgpt.com), no analytics.
    writeFileSync(path.join(home, "config.toml"), `openai_base_url = "${openai.baseUrl}"\n\n[analytics]\nenabled = false\n\n[features]\nplugins = false\n`);
    // Codex works in a Git checkout (it refuses other directories unless told to skip the check).
    execFileSync("git", ["init", "-q", path.join(dir, "work")]);
    // gpt-5.5 as in codex-adapter.test.ts: with Codex 0.163's own default (gpt-6.1-sol, "code mode")
    // the request names no MCP server at all.
    return { OPENAI_API_KEY: "sk-scripted", CODEX_MODEL: "gpt-5.5", CODEX_HOME: home, CODEX_WORKDIR: path.join(dir, "work") };
  },
  slow: new SlowAnswers(),
  calls: () => openai.requests.filter((r) => r.method === "POST" && r.path === "/v1/responses" && !r.websocket).map(codexCall),
  sessionFile(dir, externalId) {
    const sessions = path.join(dir, "codex-home", "sessions");
    const name = existsSync(sessions)
      ? readdirSync(sessions, { recursive: true, encoding: "utf8" }).find((n) => n.endsWith(`-${externalId}.jsonl`))
      : undefined;
    return name ? path.join(sessions, name) : null;
  },
  gone: (dir, externalId) => `Codex thread ${externalId} is gone from ${path.join(dir, "codex-home")}`,
};

beforeAll(async () => {
  [server, anthropic, openai] = await Promise.all([startTestServer("sqlite"), startScriptedAnthropic(), startScriptedOpenAI()]);
  dana = await signUpPerson(server, { handle: "dana" });
  anthropic.respond(async (request) => text(await answer(claudeCall({ body: request, headers: {} }).prompts, claude.slow)));
  openai.respond(async (request) => ({ text: await answer(codexCall({ body: request, headers: {} }).prompts, codex.slow) }));
});

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all([server?.dispose(), anthropic?.close(), openai?.close()]);
  rmSync(work, { recursive: true, force: true });
});

/** How a process ended. */
function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

// The two runtimes' stories run side by side (each in its own room, with its own agent and CLI), and
// the steps of each in order: `it.sequential` in a concurrent suite.
describe.concurrent.each([[claude.example, claude] as const, [codex.example, codex] as const])("%s as the agent", (_, runtime) => {
  const dir = path.join(work, runtime.handle);
  let env: Record<string, string>;
  let agentId: string;
  let roomId: string;
  let agent: ChildProcess;
  /** The agent process's output since it was started (stdout and stderr). */
  let output = "";

  beforeAll(async () => {
    for (const sub of ["work", "home", "tmp"]) mkdirSync(path.join(dir, sub), { recursive: true });
    const made = await createAgent(dana, runtime.handle, { framework: runtime.kind });
    agentId = made.id;
    roomId = (await dana.api.rooms.createChannel.mutate({ name: `${runtime.handle}-room`, memberIds: [agentId] })).id;
    env = {
      SWITCHBOARD_URL: server.url,
      SWITCHBOARD_API_KEY: made.apiKey,
      SWITCHBOARD_CURSORS: path.join(dir, "cursors.json"),
      HOME: path.join(dir, "home"),
      TMPDIR: path.join(dir, "tmp"),
      ...runtime.env(dir),
    };
  });

  afterAll(async () => {
    if (!agent || agent.exitCode !== null || agent.signalCode !== null) return;
    // Stopped as a user would (its CLI child, if a failed test left a turn running, goes with it), or killed.
    const done = exited(agent);
    agent.kill("SIGTERM");
    const timer = setTimeout(() => agent.kill("SIGKILL"), 10_000);
    await done;
    clearTimeout(timer);
  });

  async function start(): Promise<void> {
    agent = await startAgentProcess(runtime.example, env, children, { ready: "is answering" });
    output = "";
    agent.stdout!.on("data", (c: Buffer) => (output += c.toString()));
    agent.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  }

  async function kill(): Promise<void> {
    const done = exited(agent);
    agent.kill("SIGKILL");
    await done;
  }

  const send = (body: string) => dana.api.messages.send.mutate({ roomId, body, clientMsgId: `${runtime.handle}:${body}` });
  const history = async (): Promise<MessageView[]> => (await dana.api.messages.history.query({ roomId, limit: 100 })).messages;
  const replies = async () => (await history()).filter((m) => m.author.id === agentId).map((m) => m.body);

  /** The agent's reply to `body`, once posted. */
  async function replyTo(body: string): Promise<string> {
    let found: MessageView | undefined;
    await waitFor(
      () => found !== undefined,
      30_000,
      `@${runtime.handle}'s reply to "${body}"\n${output}`,
      async () => {
        found = (await history()).find((m) => m.author.id === agentId && m.body.startsWith(`heard "${body}"`));
      },
    );
    return found!.body;
  }

  async function binding(): Promise<BindingView> {
    const list = await dana.api.bindings.ofRoom.query({ roomId, includeClosed: true });
    expect(list).toHaveLength(1);
    return list[0];
  }

  /** The room's binding once its `turns`-th turn is saved (the reply and usage come just before). */
  async function afterTurn(turns: number): Promise<BindingView> {
    let found: BindingView | undefined;
    await waitFor(
      () => found?.turns === turns && found.status === "idle",
      15_000,
      `turn ${turns} saved on the binding`,
      async () => {
        found = await binding();
      },
    );
    return found!;
  }

  /** The model calls made for the turn `body` started. */
  const callsFor = (body: string) => runtime.calls().filter((c) => triggerOf(c.prompts.at(-1) ?? "") === body);

  async function usage() {
    const day = new Date().toISOString().slice(0, 10);
    return dana.api.usage.room.query({ roomId, from: day, to: day });
  }

  async function expectUsageOf(turns: number): Promise<void> {
    const { totals, shares } = await usage();
    expect(totals).toMatchObject({
      calls: turns,
      inputTokens: turns * runtime.usagePerCall.inputTokens,
      outputTokens: turns * runtime.usagePerCall.outputTokens,
    });
    expect(shares.map((s) => s.id)).toEqual([agentId]);
  }

  let first: BindingView;
  let firstCall: ModelCall;

  it.sequential("answers a mention: the reply is posted in the room, the binding names the framework's session, usage is reported", async () => {
    await start();
    const one = await send(`@${runtime.handle} hello one`);
    expect(await replyTo(one.body)).toBe(`heard "${one.body}" (prompt 1 of this session)`);

    first = await afterTurn(1);
    expect(first).toMatchObject({
      runtime: runtime.kind,
      status: "idle",
      turns: 1,
      resumes: 0,
      resumeFailures: 0,
      lastSeq: one.seq,
      leaseUntil: null,
      lastError: null,
      agent: { handle: runtime.handle },
    });
    expect(first.workdir).toBe(path.join(dir, "work"));
    // The id is the framework's own: the CLI sent the model call for it, and the session's file is there.
    expect(first.externalId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const calls = callsFor(one.body);
    expect(calls).toHaveLength(1);
    firstCall = calls[0];
    expect(firstCall.session).toBe(first.externalId);
    expect(firstCall.prompts).toHaveLength(1);
    expect(runtime.sessionFile(dir, first.externalId!)).not.toBeNull();
    // The Codex example attaches Switchboard's MCP server (required: the turn fails without it), and
    // Codex offers its tools to the model (deferred: found with tool_search, which names the server).
    if (runtime === codex) expect(firstCall.tools).toMatch(/"tool_search".*switchboard: /);
    await expectUsageOf(1);
  });

  it.sequential("resumes the same session after a SIGKILL between turns, handed only the messages it missed; one reply per addressed message", async () => {
    await kill();
    const aside = await send("by the way, the build is green");
    const two = await send(`@${runtime.handle} two`);
    await start();

    // "prompt 2": the session the CLI resumed holds the first turn's prompt.
    expect(await replyTo(two.body)).toBe(`heard "${two.body}" (prompt 2 of this session)`);
    const second = await afterTurn(2);
    expect(second).toMatchObject({ externalId: first.externalId, turns: 2, resumes: 1, resumeFailures: 0, lastSeq: two.seq, status: "idle" });

    const calls = callsFor(two.body);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call.session).toBe(first.externalId);
    // The earlier conversation as the session file kept it, then the answer, then the new prompt,
    // which holds both new messages and not the first one again.
    expect(call.transcript.slice(0, firstCall.transcript.length)).toEqual(firstCall.transcript);
    const added = call.transcript.slice(firstCall.transcript.length);
    expect(added).toHaveLength(2);
    expect(added[0]).toBe(`assistant: heard "@${runtime.handle} hello one" (prompt 1 of this session)`);
    expect(added[1]).toMatch(/^user: /);
    expect(call.prompts).toEqual([firstCall.prompts[0], expect.any(String)]);
    const prompt = call.prompts[1];
    expect(prompt).toContain(`[${aside.seq}] @dana: ${aside.body}`);
    expect(prompt).toContain(`[${two.seq}] @dana: ${two.body}`);
    expect(prompt).not.toContain("hello one");
    expect(added[1]).toContain(prompt);

    expect(await replies()).toEqual([`heard "@${runtime.handle} hello one" (prompt 1 of this session)`, `heard "${two.body}" (prompt 2 of this session)`]);
    await expectUsageOf(2);
  });

  it.sequential(
    "SIGTERM mid-turn: the turn finishes (reply posted, binding released) and the process exits 0; a message sent meanwhile is answered after the next start",
    async () => {
      const release = runtime.slow.hold();
      try {
        const three = await send(`@${runtime.handle} slow three`);
        // The model has the turn's call, and holds its answer: the turn is running.
        await waitFor(() => callsFor(three.body).length === 1, 30_000, `the model call for "${three.body}"\n${output}`);
        expect(await binding()).toMatchObject({ status: "active", leaseUntil: expect.any(String) });

        const end = exited(agent);
        agent.kill("SIGTERM");
        await waitFor(() => output.includes("SIGTERM: finishing the turn in progress"), 10_000, `the agent to take the SIGTERM\n${output}`);
        const four = await send(`@${runtime.handle} four, after the stop`);
        release();

        expect(await end).toEqual({ code: 0, signal: null });
        expect(await replyTo(three.body)).toBe(`heard "${three.body}" (prompt 3 of this session)`);
        const third = await binding();
        expect(third).toMatchObject({
          externalId: first.externalId,
          turns: 3,
          resumes: 2,
          lastSeq: three.seq,
          status: "idle",
          leaseUntil: null,
          lastError: null,
        });
        expect(callsFor(four.body)).toEqual([]);
        expect(await replies()).toHaveLength(3);

        await start();
        expect(await replyTo(four.body)).toBe(`heard "${four.body}" (prompt 4 of this session)`);
        const fourth = await afterTurn(4);
        expect(fourth).toMatchObject({ externalId: first.externalId, turns: 4, resumes: 3, lastSeq: four.seq });
        const [call] = callsFor(four.body);
        expect(call.prompts.at(-1)).toContain(four.body);
        expect(call.prompts.at(-1)).not.toContain("slow three");
        expect(callsFor(three.body)).toHaveLength(1);
        expect(await replies()).toEqual([
          `heard "@${runtime.handle} hello one" (prompt 1 of this session)`,
          `heard "@${runtime.handle} two" (prompt 2 of this session)`,
          `heard "${three.body}" (prompt 3 of this session)`,
          `heard "${four.body}" (prompt 4 of this session)`,
        ]);
        await expectUsageOf(4);
      } finally {
        release();
      }
    },
  );

  it.sequential("a session file gone is a failed resume on the binding; a new session starts with the room's recent history", async () => {
    const before = await binding();
    rmSync(runtime.sessionFile(dir, before.externalId!)!);
    const five = await send(`@${runtime.handle} which door?`);

    // A new session: its first prompt holds the conversation so far, the agent's own answers included.
    expect(await replyTo(five.body)).toBe(`heard "${five.body}" (prompt 1 of this session)`);
    const after = await afterTurn(5);
    expect(after.externalId).not.toBe(before.externalId);
    expect(after).toMatchObject({ resumeFailures: 1, resumes: 3, turns: 5, status: "idle", lastSeq: five.seq });
    expect(after.lastError).toContain(runtime.gone(dir, before.externalId!));

    const calls = callsFor(five.body); // the failed resume made none: the CLI gave up first
    expect(calls).toHaveLength(1);
    expect(calls[0].session).toBe(after.externalId);
    expect(calls[0].prompts).toHaveLength(1);
    const prompt = calls[0].prompts[0];
    expect(prompt).toContain("Earlier in this conversation:");
    expect(prompt).toContain(`@dana: @${runtime.handle} hello one`);
    expect(prompt).toContain(`you: heard "@${runtime.handle} slow three" (prompt 3 of this session)`);
    expect(prompt.slice(prompt.indexOf("New since then:"))).toContain(five.body);
    expect(runtime.sessionFile(dir, after.externalId!)).not.toBeNull();
    await expectUsageOf(5);
  });

  it.sequential("the scripted model saw model calls only (and, from Claude Code, no tunnel to anywhere else)", () => {
    if (runtime === claude) {
      expect(anthropic.tunnels).toEqual([]);
      expect(anthropic.problems).toEqual([]);
      expect(new Set(anthropic.requests.map((r) => `${r.method} ${r.path.split("?")[0]}`))).toEqual(new Set(["POST /v1/messages"]));
    } else {
      expect(new Set(openai.requests.map((r) => r.path))).toEqual(new Set(["/v1/responses"]));
    }
  });
});
