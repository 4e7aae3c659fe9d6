// The Claude Agent SDK adapter with the real package: the bundled Claude Code CLI runs each turn as a
// child process, talking to a scripted Messages API on loopback (tests/support/scripted-anthropic.ts).
// No Switchboard server: the turn input is made by hand, and the platform tools are stubs of our own
// PlatformTool interface that record their calls.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { claudeAgentSdk, type ClaudeAgentSdkOptions } from "@switchboard/sdk/adapters/claude-agent-sdk";
import { SwitchboardError } from "@switchboard/sdk/client";
import type { MembershipView, MessageView, ParticipantView } from "@switchboard/sdk/contract";
import { ResumeFailed, TurnStopped, type BindingView, type PlatformTool, type TurnActivityReporter, type TurnInput } from "@switchboard/sdk/runtime";
import { NO_ACTIVITY } from "@switchboard/sdk/turn-activity";
import { startScriptedAnthropic, text, toolUse, type ApiMessage, type ContentBlock, type ScriptedAnthropic } from "../support/scripted-anthropic";
import { sampleBinding } from "../support/binding-view";

const MODEL = "claude-sonnet-5";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let api: ScriptedAnthropic;
let root: string;
let workdir: string;
let configDir: string;

beforeAll(async () => {
  api = await startScriptedAnthropic();
  root = mkdtempSync(path.join(os.tmpdir(), "claude-adapter-"));
  workdir = path.join(root, "work");
  configDir = path.join(root, "claude-config");
  mkdirSync(workdir);
  mkdirSync(path.join(root, "tmp"));
});

afterAll(async () => {
  await api?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

afterEach(() => {
  // Every scripted step was used, none went wrong, and the CLI reached nothing but the scripted API.
  // (Emptied as they are checked, so that one test's failure does not fail the next.)
  const unused = api.pending();
  api.script([]);
  expect(api.problems.splice(0)).toEqual([]);
  expect(api.tunnels.splice(0)).toEqual([]);
  expect(unused).toBe(0);
});

/** The adapter as a test runs it: everything the CLI writes (home, config, temp files) under `root`. */
function adapter(options: ClaudeAgentSdkOptions = {}) {
  return claudeAgentSdk({
    model: MODEL,
    cwd: workdir,
    runner: "test-runner",
    ...options,
    env: {
      HOME: root,
      TMPDIR: path.join(root, "tmp"),
      CLAUDE_CONFIG_DIR: configDir,
      ANTHROPIC_BASE_URL: api.url,
      ANTHROPIC_API_KEY: "sk-ant-test-key",
      // Anything else the CLI tried to reach would go through the scripted server's refusing proxy.
      HTTPS_PROXY: api.url,
      HTTP_PROXY: api.url,
      NO_PROXY: "127.0.0.1",
      ...options.env,
    },
  });
}

const binding = (externalId: string | null = null): BindingView =>
  sampleBinding({ runtime: "claude-agent-sdk", externalId, status: externalId ? "idle" : "active", turns: externalId ? 1 : 0 });

/** A platform tool stub: records each call's arguments and answers with `answer(args)`. */
function stubTool(name: string, input: z.ZodObject, answer: (args: Record<string, unknown>) => Promise<Record<string, unknown>>) {
  const calls: Record<string, unknown>[] = [];
  const platformTool: PlatformTool = {
    name,
    description: `${name} (test stub)`,
    input,
    readOnly: false,
    call: async (args) => {
      calls.push(args);
      return answer(args);
    },
  };
  return { tool: platformTool, calls };
}

/** What an adapter reported of its turn (TurnInput.activity), in order, as lines. */
function recordingActivity(): TurnActivityReporter & { lines: string[]; tokens: { inputTokens: number; outputTokens: number } | null } {
  const lines: string[] = [];
  const recorder = {
    lines,
    tokens: null as { inputTokens: number; outputTokens: number } | null,
    step: (s: { key: string; title: string }) => void lines.push(`step ${s.key} ${s.title}`),
    plan: (items: { title: string }[]) => void lines.push(`plan ${items.map((i) => i.title).join(", ")}`),
    toolStarted: (key: string, name: string, input?: unknown) => void lines.push(`started ${name} ${JSON.stringify(input)}`),
    toolEnded: (key: string, result?: unknown, failed?: boolean) => void lines.push(`${failed ? "failed" : "ended"} ${String(result)}`),
    note: (text: string) => void lines.push(`note ${text}`),
    usage: (u: { inputTokens: number; outputTokens: number }) => void (recorder.tokens = u),
  };
  return recorder as never;
}

function turnInput(
  prompt: string,
  options: {
    externalId?: string | null;
    tools?: PlatformTool[];
    sessions?: string[];
    activity?: TurnActivityReporter;
    signal?: AbortSignal;
    /** Gets the adapter's steering callback, when it listens. */
    steer?: (take: (message: MessageView) => boolean) => void;
  } = {},
): TurnInput {
  return {
    binding: binding(options.externalId ?? null),
    messages: [],
    history: [],
    prompt,
    me: { id: "agt_1", handle: "claude" } as ParticipantView,
    room: { room: { id: "room_1" } } as MembershipView,
    tools: options.tools ?? [],
    signal: options.signal ?? new AbortController().signal,
    activity: options.activity ?? NO_ACTIVITY,
    steering: { listen: (take) => options.steer?.(take) },
    onSession: async (id) => {
      options.sessions?.push(id);
    },
    work: { tasks: async () => {}, files: async () => {} },
  };
}

/** The texts of a message's text blocks. */
function texts(message: ApiMessage): string[] {
  if (typeof message.content === "string") return [message.content];
  return message.content.filter((block) => block.type === "text").map((block) => block.text ?? "");
}

/**
 * The newest tool call in a request and the result that answers it. (The CLI may add a message with
 * role "system" after the result, e.g. a reminder of the tokens left.)
 */
function lastToolRoundTrip(messages: ApiMessage[]): { toolUse: ContentBlock; toolResult: ContentBlock } {
  const blocks = messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content));
  const toolUse = blocks.findLast((block) => block.type === "tool_use");
  const toolResult = blocks.findLast((block) => block.type === "tool_result");
  if (!toolUse || !toolResult) throw new Error("no tool round trip in the request");
  return { toolUse, toolResult };
}

function resultText(block: ContentBlock): string {
  const content = block.content ?? "";
  return typeof content === "string" ? content : content.map((part) => part.text ?? "").join("");
}

/**
 * Messages as the model reads them: the CLI moves its prompt-cache breakpoint to the newest message on
 * each call, and sends a message of one text block as a plain string once it is history.
 */
function asRead(messages: ApiMessage[]): unknown {
  const plain = JSON.parse(JSON.stringify(messages, (key, value: unknown) => (key === "cache_control" ? undefined : value))) as ApiMessage[];
  return plain.map((m) => ({ role: m.role, content: typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content }));
}

function sessionFile(sessionId: string): string | null {
  const projects = path.join(configDir, "projects");
  for (const folder of existsSync(projects) ? readdirSync(projects) : []) {
    const file = path.join(projects, folder, `${sessionId}.jsonl`);
    if (existsSync(file)) return file;
  }
  return null;
}

describe("Claude Agent SDK adapter (real CLI, scripted model on loopback)", () => {
  it("says where its sessions live and how it is configured", () => {
    expect(adapter().where?.()).toEqual({
      runner: "test-runner",
      host: os.hostname(),
      workdir,
      config: { model: MODEL, permissionMode: "dontAsk", settingSources: [], allowedTools: ["mcp__switchboard__*"] },
    });
  });

  it("starts a session on the first turn: onSession gets its id, the reply and the usage come back", async () => {
    api.script([() => text("Hello from Claude", { input_tokens: 120, output_tokens: 30, cache_read_input_tokens: 800, cache_creation_input_tokens: 50 })]);
    const sessions: string[] = [];

    const result = await adapter().turn(turnInput("@claude say hello", { sessions }));

    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatch(UUID);
    expect(result.externalId).toBe(sessions[0]);
    expect(result.reply).toBe("Hello from Claude");
    // Switchboard counts cached input inside inputTokens: 120 + 800 read + 50 written.
    expect(result.usage).toEqual([{ model: MODEL, inputTokens: 970, outputTokens: 30, cachedTokens: 800, costUsd: expect.any(Number) }]);
    expect(result.usage?.[0].costUsd).toBeGreaterThan(0);
    expect(result.config).toEqual({ model: MODEL, permissionMode: "dontAsk", settingSources: [], allowedTools: [] });

    const call = api.calls.at(-1)!;
    expect(call.model).toBe(MODEL);
    expect(texts(call.messages[0])).toContain("@claude say hello");
    expect(sessionFile(result.externalId)).toBe(path.join(configDir, "projects", workdir.replaceAll("/", "-"), `${result.externalId}.jsonl`));
  });

  it("resumes the session from its file on later turns, handing the model only the new prompt", async () => {
    const first = adapter();
    api.script([() => text("first answer", { input_tokens: 100, output_tokens: 10 })]);
    const one = await first.turn(turnInput("first prompt"));
    const firstCall = api.calls.at(-1)!;

    api.script([() => text("second answer", { input_tokens: 200, output_tokens: 20, cache_read_input_tokens: 100 })]);
    const sessions: string[] = [];
    const two = await first.turn(turnInput("second prompt", { externalId: one.externalId, sessions }));
    const secondCall = api.calls.at(-1)!;
    const secondHeaders = api.requests.at(-1)!.headers;

    expect(two.externalId).toBe(one.externalId);
    expect(two.reply).toBe("second answer");
    expect(sessions).toEqual([]); // the id was already saved
    // The first turn's messages come back unchanged, then its answer, then the new prompt alone.
    const before = firstCall.messages.length;
    expect(asRead(secondCall.messages.slice(0, before))).toEqual(asRead(firstCall.messages));
    // (Messages with role "system" are the CLI's own reminders, e.g. the tokens left.)
    const added = secondCall.messages.slice(before).filter((m) => m.role !== "system");
    expect(added.map((m) => m.role)).toEqual(["assistant", "user"]);
    expect(texts(added[0])).toEqual(["first answer"]);
    expect(texts(added[1])).toContain("second prompt");
    expect(texts(added[1]).join("\n")).not.toContain("first prompt");
    expect(secondHeaders["x-claude-code-session-id"]).toBe(one.externalId);
    // Claude Code's totals run from the session's start; the turn reports its own part only.
    expect(two.usage).toEqual([{ model: MODEL, inputTokens: 300, outputTokens: 20, cachedTokens: 100, costUsd: expect.any(Number) }]);

    // Another process (a restarted agent) resumes it too; it does not know the totals before the turn,
    // so it reports the turn's main-loop tokens and leaves the cost to the server's prices.
    api.script([() => text("third answer", { input_tokens: 300, output_tokens: 30 })]);
    const three = await adapter().turn(turnInput("third prompt", { externalId: one.externalId }));
    expect(three.externalId).toBe(one.externalId);
    expect(
      api.calls
        .at(-1)!
        .messages.filter((m) => m.role === "assistant")
        .map(texts),
    ).toEqual([["first answer"], ["second answer"]]);
    expect(three.usage).toEqual([{ model: MODEL, inputTokens: 300, outputTokens: 30, cachedTokens: 0 }]);
  });

  it("runs a platform tool the model calls and hands its result back, then replies", async () => {
    const sendMessage = stubTool("send_message", z.strictObject({ room: z.string(), text: z.string() }), async (args) => ({
      message: { id: "msg_42", room: args.room, seq: 7 },
    }));
    api.script([
      (request) => {
        const offered = request.tools?.find((t) => t.name === "mcp__switchboard__send_message");
        expect(offered?.input_schema).toMatchObject({ type: "object", properties: { room: { type: "string" }, text: { type: "string" } } });
        return toolUse("mcp__switchboard__send_message", { room: "#general", text: "Build is green" }, { input_tokens: 50, output_tokens: 15 });
      },
      () => text("Posted it.", { input_tokens: 80, output_tokens: 5 }),
    ]);

    const activity = recordingActivity();
    const result = await adapter().turn(turnInput("post the build status", { tools: [sendMessage.tool], activity }));

    // The room watched it: the tool call by its platform name with its input, then its result; the tokens so far.
    expect(activity.lines).toEqual([
      `started send_message {"room":"#general","text":"Build is green"}`,
      `ended {"message":{"id":"msg_42","room":"#general","seq":7}}`,
    ]);
    // As the responses came (their output tokens as counted when each began: the turn's result has the totals).
    expect(activity.tokens?.inputTokens).toBe(130);

    expect(sendMessage.calls).toEqual([{ room: "#general", text: "Build is green" }]);
    // The second call ends with the model's tool_use and the user's tool_result for it.
    const { toolUse: sent, toolResult } = lastToolRoundTrip(api.calls.at(-1)!.messages);
    expect(toolResult.tool_use_id).toBe(sent.id);
    expect(toolResult.is_error).toBeFalsy();
    expect(JSON.parse(resultText(toolResult))).toEqual({ message: { id: "msg_42", room: "#general", seq: 7 } });
    expect(result.reply).toBe("Posted it.");
    expect(result.usage).toEqual([{ model: MODEL, inputTokens: 130, outputTokens: 20, cachedTokens: 0, costUsd: expect.any(Number) }]);
    expect(result.config?.allowedTools).toEqual(["mcp__switchboard__send_message"]);
  });

  it("turns a refused tool call into an error result for the model, and the turn still completes", async () => {
    const invite = stubTool("invite", z.strictObject({ room: z.string(), participants: z.array(z.string()) }), async () => {
      throw new SwitchboardError({ code: "FORBIDDEN", message: "You are not a member of #secret", retryable: false });
    });
    api.script([() => toolUse("mcp__switchboard__invite", { room: "#secret", participants: ["@scout"] }), () => text("I could not invite @scout.")]);

    const result = await adapter().turn(turnInput("invite @scout to #secret", { tools: [invite.tool] }));

    expect(invite.calls).toEqual([{ room: "#secret", participants: ["@scout"] }]);
    const { toolResult } = lastToolRoundTrip(api.calls.at(-1)!.messages);
    expect(toolResult.is_error).toBe(true);
    expect(resultText(toolResult)).toContain("FORBIDDEN: You are not a member of #secret");
    expect(result.reply).toBe("I could not invite @scout.");
  });

  it("throws ResumeFailed when the session's file is gone", async () => {
    api.script([() => text("remember me")]);
    const { externalId } = await adapter().turn(turnInput("first prompt"));
    const file = sessionFile(externalId);
    expect(file).not.toBeNull();
    rmSync(file!);
    const calls = api.calls.length;

    const failing = adapter().turn(turnInput("are you there?", { externalId }));

    await expect(failing).rejects.toBeInstanceOf(ResumeFailed);
    await expect(failing).rejects.toThrow(`Claude session ${externalId} cannot be resumed: No conversation found with session ID: ${externalId}`);
    expect(api.calls.length).toBe(calls); // the CLI gave up before calling the model
  });

  it("lets any other failure through as it is (an API error is not a failed resume)", async () => {
    api.script([() => text("still here")]);
    const { externalId } = await adapter().turn(turnInput("first prompt"));
    // A 403: the CLI gives up at once (it retries a 400 several times, changing the request).
    api.script([() => ({ error: { status: 403, type: "permission_error", message: "scripted refusal of this request" } })]);

    const failing = adapter().turn(turnInput("another prompt", { externalId }));

    await expect(failing).rejects.toThrow(/Claude Code turn failed.*scripted refusal of this request/);
    await expect(failing).rejects.not.toBeInstanceOf(ResumeFailed);
  });

  it("stops in the middle of its tool loop when a person stops the turn (its signal), and the next turn resumes the session", async () => {
    const stop = new AbortController();
    const sessions: string[] = [];
    const lookup = stubTool("lookup_peers", z.strictObject({ query: z.string() }), async () => ({ peers: [] }));
    // The model calls a tool, and its next answer takes its time: the Stop comes while the CLI waits for it.
    let asked!: () => void;
    const waiting = new Promise<void>((resolve) => (asked = resolve));
    api.script([
      () => toolUse("mcp__switchboard__lookup_peers", { query: "reviewer" }),
      async () => {
        asked();
        await new Promise((resolve) => setTimeout(resolve, 30_000));
        return text("too late");
      },
    ]);
    const turn = adapter().turn(turnInput("find a reviewer", { tools: [lookup.tool], sessions, signal: stop.signal }));
    await waiting;
    const t0 = performance.now();
    stop.abort(new TurnStopped({ id: "p1", handle: "dana" }));
    await expect(turn).rejects.toThrow();
    const stoppedInMs = performance.now() - t0;
    expect(lookup.calls).toEqual([{ query: "reviewer" }]);
    console.log(`Claude Agent SDK turn stopped ${Math.round(stoppedInMs)} ms after its signal`);

    // The session it had is on disk, and the next turn resumes it.
    expect(sessions).toHaveLength(1);
    api.script([() => text("Back. No reviewer found yet.")]);
    const next = await adapter().turn(turnInput("go on", { externalId: sessions[0] }));
    expect(next.externalId).toBe(sessions[0]);
    expect(next.reply).toBe("Back. No reviewer found yet.");
  });

  it("takes a person's reply while it works as steering: the running turn's next model call has it", async () => {
    let take: ((message: MessageView) => boolean) | null = null;
    let took: boolean | null = null;
    const lookup = stubTool("lookup_peers", z.strictObject({ query: z.string() }), async () => {
      // While the tool runs, a person replies in the thread.
      took = take!({ id: "m2", seq: 2, body: "only people on the infra team, please", author: { handle: "dana" } } as MessageView);
      return { peers: [] };
    });
    let seen = "";
    api.script([
      () => toolUse("mcp__switchboard__lookup_peers", { query: "reviewer" }),
      (request) => {
        seen = JSON.stringify(request.messages);
        return text("Looking on the infra team only.");
      },
    ]);
    const result = await adapter().turn(turnInput("find a reviewer", { tools: [lookup.tool], steer: (t) => (take = t) }));
    expect(took).toBe(true);
    expect(seen).toContain("@dana (while you work on this): only people on the infra team, please");
    expect(result.reply).toBe("Looking on the infra team only.");
  });

  it("starts nothing when the agent is already stopping", async () => {
    const calls = api.calls.length;
    const input = { ...turnInput("too late"), signal: AbortSignal.abort() };
    await expect(adapter().turn(input)).rejects.toThrow(/abort/i);
    expect(api.calls.length).toBe(calls);
  });
});
