// The Codex runtime adapter: one Codex thread per binding, one `codex exec` run per turn, through
// @openai/codex-sdk (which spawns the Codex CLI and reads its JSONL events). What Codex 0.163 does, as
// found by running it (tests/support/scripted-openai.ts has the details):
// - A thread is a rollout file, CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl.
//   `exec resume <id>` with that file gone prints no event and exits 1 with "thread/resume failed: no
//   rollout found for thread id <id>"; an id that is not a UUID is taken as a thread *name*, and
//   when no thread has it Codex quietly starts a new one.
// - `turn.completed.usage` is the thread's running total, not the turn's: a resumed thread's second
//   turn reports both turns. The turn's own usage is that total minus the total the rollout held before.
// - `exec` has nobody to ask: every approval is refused ("approval policy is never"), MCP tool calls
//   included unless the server's tools are marked approved (below).
import { readdir, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Codex, type SandboxMode, type ThreadItem, type Usage } from "@openai/codex-sdk";
import { ResumeFailed, type RuntimeAdapter, type TurnInput, type TurnResult } from "../runtime.ts";

/** Where the Switchboard server serves MCP (server/bridges/mcp/endpoint.ts). */
const MCP_PATH = "/api/mcp";
/** The name Switchboard's MCP server has in Codex's config, as `switchboard connect` writes it. */
const MCP_SERVER = "switchboard";

/** No approval policy to choose: it is always "never" (see `threadOptions`). */
export interface CodexAdapterOptions {
  /** The model (`--model`); default: the one Codex's config or the CLI picks. */
  model?: string;
  /** The thread's working directory (`--cd`); default: process.cwd(). */
  workingDirectory?: string;
  /** Codex's sandbox for shell commands; default "read-only". MCP tool calls are not sandboxed. */
  sandboxMode?: SandboxMode;
  /** Run outside a Git repository (Codex refuses to by default). */
  skipGitRepoCheck?: boolean;
  /** The OpenAI-compatible endpoint, e.g. "https://api.openai.com/v1" (Codex's `openai_base_url`). */
  baseUrl?: string;
  /** The model API key, handed to the CLI as CODEX_API_KEY; default: Codex's own login or environment. */
  apiKey?: string;
  /** Where Codex keeps threads and config (CODEX_HOME); default: $CODEX_HOME, or ~/.codex. */
  codexHome?: string;
  /** The CLI's whole environment; default: this process's, as it is when the adapter is made. */
  env?: Record<string, string>;
  /** Switchboard's origin: when set, the model gets Switchboard's tools through its MCP server. */
  switchboardUrl?: string;
  /** The variable in the CLI's environment that holds the agent's API key; default SWITCHBOARD_API_KEY. */
  apiKeyEnvVar?: string;
  /** The runner's name stored on bindings; default: the host name. */
  runner?: string;
}

/** The Codex adapter. Its sessions live in `codexHome` on this host: resume works only there. */
export function codex(options: CodexAdapterOptions = {}): RuntimeAdapter {
  const env = cliEnvironment(options);
  const home = options.codexHome ?? env.CODEX_HOME ?? path.join(env.HOME ?? os.homedir(), ".codex");
  const workdir = path.resolve(options.workingDirectory ?? process.cwd());
  const sandboxMode = options.sandboxMode ?? "read-only";
  const keyVariable = options.apiKeyEnvVar ?? "SWITCHBOARD_API_KEY";
  const mcp = options.switchboardUrl ? new URL(MCP_PATH, options.switchboardUrl).toString() : null;

  const client = new Codex({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    env,
    // Codex takes tools only from MCP servers in its config: Switchboard's own MCP server is how the
    // platform tools reach the model, defined once on the server. `required`: a turn whose tools
    // cannot be reached fails instead of running without them (Codex would drop the server silently).
    // `approve`: exec can ask nobody, and would refuse every call that writes (send_message...);
    // Switchboard's own policies decide what the agent's key may do.
    config: mcp
      ? { mcp_servers: { [MCP_SERVER]: { url: mcp, bearer_token_env_var: keyVariable, required: true, default_tools_approval_mode: "approve" } } }
      : undefined,
  });
  const threadOptions = {
    model: options.model,
    workingDirectory: workdir,
    sandboxMode,
    skipGitRepoCheck: options.skipGitRepoCheck,
    // Nobody answers an approval prompt in exec (0.163 rejects "untrusted", and treats "on-request" as
    // "never"): say so, so a command that would need one fails at once and the model is told why.
    approvalPolicy: "never" as const,
  };
  const config = { model: options.model ?? null, sandboxMode, approvalPolicy: "never", switchboardMcp: mcp !== null };

  return {
    runtime: "codex",
    where: () => ({ runner: options.runner ?? os.hostname(), host: os.hostname(), workdir, config }),

    // `input.tools` are not used: Codex cannot be handed functions, only MCP servers (see above).
    async turn(input: TurnInput): Promise<TurnResult> {
      if (mcp && !env[keyVariable]) throw new Error(`${keyVariable} is not set: Codex could not reach Switchboard's MCP server`);
      const resuming = input.binding.externalId;
      const before = resuming ? await readRollout(home, resuming) : null;
      const thread = resuming ? client.resumeThread(resuming, threadOptions) : client.startThread(threadOptions);

      let threadId: string | null = null;
      let reply: string | null = null;
      let total: Usage | null = null;
      try {
        const { events } = await thread.runStreamed(input.prompt, { signal: input.signal });
        for await (const event of events) {
          if (event.type === "item.started" || event.type === "item.completed") watch(input, event.type === "item.completed", event.item);
          if (event.type === "thread.started") {
            threadId = event.thread_id;
            // Leaving the loop ends the CLI before it reaches the model.
            if (resuming && threadId !== resuming) break;
            if (!resuming) await input.onSession(threadId);
          } else if (event.type === "item.completed" && event.item.type === "agent_message") {
            reply = event.item.text;
          } else if ((event.type === "item.started" || event.type === "item.updated" || event.type === "item.completed") && event.item.type === "todo_list") {
            // Codex's plan, as its SDK gives it (done or not, no more): the binding's task list. (0.163 offers
            // a known model no plan tool; a model or version with one has its plan shown.)
            await input.work.tasks(event.item.items.map((item) => ({ title: item.text, status: item.completed ? "completed" : "pending" })));
          } else if (event.type === "item.completed" && event.item.type === "file_change" && event.item.status === "completed") {
            await input.work.files(event.item.changes.map((change) => ({ path: inside(workdir, change.path), operation: FILE_OPERATION[change.kind] })));
          } else if (event.type === "item.completed" && event.item.type === "command_execution") {
            await input.work.files([{ path: event.item.command.slice(0, 1000), operation: "run" }]);
          } else if (event.type === "turn.completed") {
            total = event.usage;
            input.activity.usage({ inputTokens: event.usage.input_tokens, outputTokens: event.usage.output_tokens });
          } else if (event.type === "turn.failed") {
            throw new Error(`Codex turn failed: ${event.error.message}`);
          }
          // Other events (reasoning, tool calls, "Reconnecting..." errors) are Codex's own business.
        }
      } catch (error) {
        if (resuming && threadId === null && /thread\/resume failed: .*(no rollout found|not found)/i.test(String(error))) {
          throw new ResumeFailed(`Codex thread ${resuming} is gone from ${home}`, { cause: error });
        }
        throw error;
      }
      if (resuming && threadId !== resuming) {
        throw new ResumeFailed(`Codex did not resume thread ${resuming} (it started ${threadId ?? "nothing"})`);
      }
      if (!threadId || !total) throw new Error("Codex ended the turn without completing it");

      // Unconfigured, the model is whatever Codex's config chose: its rollout says which.
      const model = options.model ?? (await readRollout(home, threadId))?.model ?? "unknown";
      const used = minus(total, before?.total);
      return {
        externalId: threadId,
        reply,
        usage: [{ model, inputTokens: used.input_tokens, outputTokens: used.output_tokens, cachedTokens: used.cached_input_tokens }],
        status: "idle",
        config,
      };
    },
  };
}

const FILE_OPERATION = { add: "create", delete: "delete", update: "edit" } as const;

/**
 * Codex's items as the room watches the turn (TurnInput.activity): commands, MCP tool calls and web
 * searches started then ended with their output, and its reasoning summaries as notes. (Its plan and
 * files reach the room as the work reported.)
 */
function watch(input: TurnInput, completed: boolean, item: ThreadItem): void {
  const { activity } = input;
  if (item.type === "command_execution") {
    if (!completed) activity.toolStarted(item.id, "shell", { command: item.command });
    else activity.toolEnded(item.id, item.aggregated_output, item.status === "failed" || (item.exit_code ?? 0) !== 0);
  } else if (item.type === "mcp_tool_call") {
    if (!completed) activity.toolStarted(item.id, item.server === MCP_SERVER ? item.tool : `${item.server}.${item.tool}`, item.arguments);
    else
      activity.toolEnded(
        item.id,
        item.error ? item.error.message : item.result?.content.map((c) => ("text" in c ? c.text : `[${c.type}]`)).join("\n"),
        !!item.error,
      );
  } else if (item.type === "web_search") {
    if (!completed) activity.toolStarted(item.id, "web_search", { query: item.query });
    else activity.toolEnded(item.id);
  } else if (item.type === "reasoning" && completed && item.text.trim()) {
    activity.note(item.text, `reasoning:${item.id}`);
  }
}

/** A path as the repository names it: relative to the working directory when it is inside it. */
function inside(workdir: string, file: string): string {
  const relative = path.relative(workdir, path.resolve(workdir, file));
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

/** The CLI's environment: given whole, or this process's; with CODEX_HOME when one is chosen. */
function cliEnvironment(options: CodexAdapterOptions): Record<string, string> {
  const base = options.env ?? Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  return options.codexHome ? { ...base, CODEX_HOME: options.codexHome } : { ...base };
}

type Totals = Pick<Usage, "input_tokens" | "cached_input_tokens" | "output_tokens">;

function minus(after: Totals, before: Totals | undefined): Totals {
  const less = (key: keyof Totals) => Math.max(0, after[key] - (before?.[key] ?? 0));
  return { input_tokens: less("input_tokens"), cached_input_tokens: less("cached_input_tokens"), output_tokens: less("output_tokens") };
}

/**
 * What a thread's rollout file says last: its running token total (the `token_count` event Codex
 * restores the total from on resume) and the model of its last turn. Null when the file is not there
 * (another CODEX_HOME, or a future Codex that stores threads elsewhere): the turn's usage is then the
 * CLI's total as it reported it.
 */
async function readRollout(home: string, threadId: string): Promise<{ total?: Totals; model?: string } | null> {
  const sessions = path.join(home, "sessions");
  let names: string[];
  try {
    names = await readdir(sessions, { recursive: true });
  } catch {
    return null;
  }
  const name = names.find((n) => path.basename(n).startsWith("rollout-") && n.endsWith(`-${threadId}.jsonl`));
  if (!name) return null;
  // A rollout is a few megabytes at most; the last lines are the ones wanted.
  const lines = (await readFile(path.join(sessions, name), "utf8")).split("\n");
  const found: { total?: Totals; model?: string } = {};
  for (let i = lines.length - 1; i >= 0 && (!found.total || !found.model); i--) {
    if (!lines[i].includes('"token_count"') && !lines[i].includes('"turn_context"')) continue;
    try {
      const line = JSON.parse(lines[i]) as { type?: string; payload?: { type?: string; model?: string; info?: { total_token_usage?: Totals } | null } };
      if (!found.total && line.payload?.type === "token_count" && line.payload.info?.total_token_usage) found.total = line.payload.info.total_token_usage;
      if (!found.model && line.type === "turn_context" && line.payload?.model) found.model = line.payload.model;
    } catch {
      // a line being written, or not ours to read
    }
  }
  return found;
}
