// The Claude Agent SDK behind Switchboard's RuntimeAdapter: one Claude Code session per binding, started
// on the binding's first turn and resumed from its session file on every later one. The platform tools
// reach the model as an in-process MCP server named "switchboard"; the turn's reply is the result text.
//
// The SDK runs the Claude Code CLI as a child process; sessions are files under
// $CLAUDE_CONFIG_DIR/projects/ (default ~/.claude/projects/), one folder per working directory, so a
// binding can only be resumed on the host, and from the workdir, that `where()` reports.
import os from "node:os";
import {
  createSdkMcpServer,
  query,
  tool,
  type ModelUsage,
  type Options,
  type PermissionMode,
  type SDKMessage,
  type SDKResultMessage,
  type SDKResultSuccess,
  type SDKUserMessage,
  type SettingSource,
} from "@anthropic-ai/claude-agent-sdk";
import type { PlatformTool, RuntimeAdapter, TurnInput, TurnResult } from "../runtime.ts";
import { ResumeFailed } from "../runtime.ts";

export interface ClaudeAgentSdkOptions {
  /** Model id or alias (e.g. "claude-sonnet-5"); default: Claude Code's default model. */
  model?: string;
  /** The working directory of the sessions (their files are kept per directory); default process.cwd(). */
  cwd?: string;
  /**
   * Default "dontAsk": the platform tools are allowed, and any other tool call that would need an
   * approval is refused at once (nobody is there to approve it). "bypassPermissions" allows every tool;
   * as root the CLI refuses it unless IS_SANDBOX=1 is in `env`.
   */
  permissionMode?: PermissionMode;
  /** Replaces Claude Code's default system prompt (kept for the session's life: Claude Code records it). */
  systemPrompt?: string;
  /** Most model round trips in one turn. */
  maxTurns?: number;
  /** Added to (and overriding) this process's environment for the CLI, e.g. ANTHROPIC_API_KEY, CLAUDE_CONFIG_DIR. */
  env?: Record<string, string | undefined>;
  /** Settings files to load ("user" is ~/.claude/settings.json, "project" also loads CLAUDE.md); default none. */
  settingSources?: SettingSource[];
  /** A Claude Code executable instead of the one bundled with the SDK. */
  pathToClaudeCodeExecutable?: string;
  /** The runner's name stored on bindings; default the host name. */
  runner?: string;
}

/** The MCP server name: the model sees the platform tools as mcp__switchboard__<name>. */
const SERVER = "switchboard";

/**
 * Headless and quiet: no telemetry, error reports, auto-update or feature-flag traffic; the CLI talks
 * to the model API only. Given before `options.env`, which may override them.
 */
const QUIET_ENV = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
  DISABLE_AUTOUPDATER: "1",
  CLAUDE_AGENT_SDK_CLIENT_APP: "switchboard",
};

/** The CLI's error when the session file is gone (or was never there), and when the id is not one. */
const SESSION_GONE = [/^No conversation found with session ID/, /^Error: --resume requires a valid session ID/];

export function claudeAgentSdk(options: ClaudeAgentSdkOptions = {}): RuntimeAdapter {
  const cwd = options.cwd ?? process.cwd();
  const permissionMode = options.permissionMode ?? "dontAsk";
  const settingSources = options.settingSources ?? [];
  // A resumed session's result counts usage from the session's start (Claude Code saves the totals in
  // the session file); the totals after each turn run here let the next turn report only its own part.
  const totalsAfterLastTurn = new Map<string, Record<string, ModelUsage>>();

  return {
    runtime: "claude-agent-sdk",

    where() {
      return {
        runner: options.runner ?? os.hostname(),
        host: os.hostname(),
        workdir: cwd,
        config: { model: options.model ?? null, permissionMode, settingSources, allowedTools: [`mcp__${SERVER}__*`] },
      };
    },

    async turn(input: TurnInput): Promise<TurnResult> {
      input.signal.throwIfAborted();
      const resuming = input.binding.externalId;
      const allowedTools = input.tools.map((t) => `mcp__${SERVER}__${t.name}`);
      const abortController = new AbortController();

      const sdkOptions: Options = {
        cwd,
        model: options.model,
        permissionMode,
        allowDangerouslySkipPermissions: permissionMode === "bypassPermissions",
        // Nobody answers approval prompts: whatever would ask is refused instead of waiting forever.
        permissionPrompts: "none",
        allowedTools,
        // In the prompt from the start, not deferred behind ToolSearch (a round trip per tool otherwise).
        mcpServers: { [SERVER]: createSdkMcpServer({ name: SERVER, tools: input.tools.map(platformTool), alwaysLoad: true }) },
        strictMcpConfig: true,
        settingSources,
        systemPrompt: options.systemPrompt,
        maxTurns: options.maxTurns,
        pathToClaudeCodeExecutable: options.pathToClaudeCodeExecutable,
        env: { ...process.env, ...QUIET_ENV, ...options.env },
        resume: resuming ?? undefined,
        abortController,
      };

      let model: string | null = null;
      let result: SDKResultMessage | null = null;
      const watched = new WatchedTurn(input);
      // Streaming input: the prompt, then the input stays open until the turn's result, so that a Stop
      // can interrupt the turn where it is (in the middle of its tool loop), a person's reply in the
      // thread can steer it (handed to the running turn), and the session file keeps what it did; the
      // CLI exits once the input ends.
      const inputs = new InputQueue({ type: "user", message: { role: "user", content: input.prompt }, parent_tool_use_id: null });
      const endInput = () => inputs.end();
      input.steering.listen((message) => {
        if (result) return false; // the turn is ending: the next turn answers it
        const text = `[${message.seq}] @${message.author.handle} (while you work on this): ${message.body}`;
        return inputs.push({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, priority: "next" });
      });
      const session = query({ prompt: inputs.messages(), options: sdkOptions });
      // Interrupted (the SDK's own stop), else, should that fail, the CLI ended.
      const stop = () => void session.interrupt().catch(() => abortController.abort());
      input.signal.addEventListener("abort", stop, { once: true });
      try {
        for await (const message of session) {
          if (message.type === "system" && message.subtype === "init") {
            model = message.model;
            // Saved as soon as the CLI names it, so that a crash mid-turn resumes this session.
            if (message.session_id !== resuming) await input.onSession(message.session_id);
          } else if (message.type === "assistant" || message.type === "user") {
            watched.show(message);
          } else if (message.type === "result") {
            result = message;
            endInput();
          }
        }
      } catch (error) {
        // After an error result the SDK also throws; the result says more (its errors list).
        if (!result || succeeded(result)) throw error;
      } finally {
        input.signal.removeEventListener("abort", stop);
        endInput();
        session.close();
      }
      // Stopped: the turn ends here, its session (on disk) kept for the next message.
      input.signal.throwIfAborted();

      if (!result) throw new Error("Claude Code ended the turn without a result");
      if (!succeeded(result)) throw failure(result, resuming);

      const sessionId = result.session_id;
      // The totals before this turn: none for a new session; unknown for one resumed here for the first time.
      const before = sessionId === resuming ? totalsAfterLastTurn.get(sessionId) : {};
      totalsAfterLastTurn.set(sessionId, result.modelUsage);
      return {
        externalId: sessionId,
        reply: result.result,
        usage: before ? usageSince(before, result.modelUsage) : mainLoopUsage(result, model),
        config: { model, permissionMode, settingSources, allowedTools },
      };
    },

    async close() {
      totalsAfterLastTurn.clear();
    },
  };
}

/**
 * The session's messages as the room watches the turn (TurnInput.activity): each tool call the model
 * makes, started, then ended with its result (the platform tools by their own names), and the tokens
 * the turn's model calls used so far. The todo list reaches the room as the work reported (TodoWrite
 * is a tool call too).
 */
class WatchedTurn {
  /** Each model response's usage, by its id: one response can arrive as several assistant messages, the last one counting most. */
  private readonly responses = new Map<string, { inputTokens: number; outputTokens: number }>();

  constructor(private readonly input: TurnInput) {}

  show(message: Extract<SDKMessage, { type: "assistant" | "user" }>): void {
    const content = message.message.content;
    if (!Array.isArray(content)) return;
    for (const block of content as {
      type: string;
      id?: string;
      name?: string;
      input?: unknown;
      tool_use_id?: string;
      content?: unknown;
      is_error?: boolean;
    }[]) {
      if (block.type === "tool_use" && block.id && block.name) this.input.activity.toolStarted(block.id, toolName(block.name), block.input);
      if (block.type === "tool_result" && block.tool_use_id)
        this.input.activity.toolEnded(block.tool_use_id, resultText(block.content), block.is_error === true);
    }
    if (message.type !== "assistant") return;
    const usage = message.message.usage;
    this.responses.set(message.message.id, {
      inputTokens: usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
      outputTokens: usage.output_tokens,
    });
    let inputTokens = 0;
    let outputTokens = 0;
    for (const r of this.responses.values()) {
      inputTokens += r.inputTokens;
      outputTokens += r.outputTokens;
    }
    this.input.activity.usage({ inputTokens, outputTokens });
  }
}

/** The session's input: the turn's prompt, then what steers it, until ended. */
class InputQueue {
  private readonly waiting: SDKUserMessage[];
  private wake: (() => void) | null = null;
  private ended = false;

  constructor(first: SDKUserMessage) {
    this.waiting = [first];
  }

  /** False once ended (the message was not taken). */
  push(message: SDKUserMessage): boolean {
    if (this.ended) return false;
    this.waiting.push(message);
    this.wake?.();
    return true;
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *messages(): AsyncGenerator<SDKUserMessage> {
    for (;;) {
      while (this.waiting.length > 0) yield this.waiting.shift()!;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }
}

/** A tool as people know it: a platform tool by its own name (mcp__switchboard__send_message: send_message). */
const toolName = (name: string) => (name.startsWith(`mcp__${SERVER}__`) ? name.slice(`mcp__${SERVER}__`.length) : name);

/** A tool result's text (a string, or text blocks). */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((c: { type?: string; text?: string }) => (c.type === "text" ? (c.text ?? "") : `[${c.type ?? "content"}]`)).join("\n");
}

/** A platform tool as an MCP tool: its JSON result as text; a refusal as an error result the model reads. */
function platformTool(platform: PlatformTool) {
  return tool(
    platform.name,
    platform.description,
    platform.input.shape,
    async (args) => {
      try {
        const output = await platform.call(args as Record<string, unknown>);
        return { content: [{ type: "text" as const, text: JSON.stringify(output) }] };
      } catch (error) {
        return { content: [{ type: "text" as const, text: errorText(error) }], isError: true };
      }
    },
    { annotations: { readOnlyHint: platform.readOnly } },
  );
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // A SwitchboardError's stable code tells the model more than the sentence alone.
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? `${code}: ${error.message}` : error.message;
}

/** A result can say "success" and still be an error: the turn ended on an API error, whose text is `result`. */
function succeeded(result: SDKResultMessage): result is SDKResultSuccess {
  return result.subtype === "success" && !result.is_error;
}

function failure(result: SDKResultMessage, resuming: string | null): Error {
  const errors = result.subtype === "success" ? [result.result] : result.errors;
  const text = errors.join("; ") || result.subtype;
  if (resuming && errors.some((e) => SESSION_GONE.some((pattern) => pattern.test(e)))) {
    return new ResumeFailed(`Claude session ${resuming} cannot be resumed: ${text}`, { cause: result });
  }
  return new Error(`Claude Code turn failed (${result.subtype}): ${text}`, { cause: result });
}

type UsageEntry = NonNullable<TurnResult["usage"]>[number];

/**
 * One entry per model that `after` counts more of than `before`. Anthropic's input_tokens leave out
 * cached input; Switchboard's inputTokens include it (and price cachedTokens, the cache reads, apart).
 */
function usageSince(before: Record<string, ModelUsage>, after: Record<string, ModelUsage>): UsageEntry[] {
  const entries: UsageEntry[] = [];
  for (const [model, now] of Object.entries(after)) {
    const then = before[model];
    const delta = (key: "inputTokens" | "outputTokens" | "cacheReadInputTokens" | "cacheCreationInputTokens" | "costUSD") => now[key] - (then?.[key] ?? 0);
    const cachedTokens = delta("cacheReadInputTokens");
    const entry = {
      model,
      inputTokens: delta("inputTokens") + cachedTokens + delta("cacheCreationInputTokens"),
      outputTokens: delta("outputTokens"),
      cachedTokens,
      costUsd: roundUsd(delta("costUSD")),
    };
    if (entry.inputTokens > 0 || entry.outputTokens > 0) entries.push(entry);
  }
  return entries;
}

/**
 * A resumed session whose totals before this turn are unknown here (this process did not run its last
 * turn): only the main loop's usage of this turn is known, and the cost is left for the server to price.
 */
function mainLoopUsage(result: SDKResultMessage, model: string | null): UsageEntry[] {
  const usage = result.usage;
  const cachedTokens = usage.cache_read_input_tokens;
  const inputTokens = usage.input_tokens + cachedTokens + usage.cache_creation_input_tokens;
  if (!model || inputTokens + usage.output_tokens === 0) return [];
  return [{ model, inputTokens, outputTokens: usage.output_tokens, cachedTokens }];
}

/** Differences of floating-point totals, to the nano-dollar (as the server rounds its own prices). */
function roundUsd(value: number): number {
  return Math.max(0, Math.round(value * 1e9) / 1e9);
}
