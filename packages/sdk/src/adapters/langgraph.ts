// The LangGraph runtime (`@langchain/langgraph`): one LangGraph thread per binding, its state in the
// graph's own checkpointer. Give the graph a durable one (SqliteSaver, PostgresSaver) and a restart,
// a crash or a week later the next message continues the same thread: the binding's external id is
// the `thread_id`. Each turn passes only the new messages (with the Switchboard message ids as the
// LangChain message ids, so a turn run again after a crash replaces rather than repeats them); a new
// thread is also given the conversation's recent history. A graph that stops at an `interrupt()` leaves
// the binding awaiting input, and the next message resumes it (`Command({ resume })`).
//
// The run is streamed, so the room watches the turn from LangGraph's own stream: each tool call the
// model asks for (running, then done or failed as it ends), what the model says between calls, and
// its tokens so far. A Stop aborts the run through its signal; the checkpointer keeps the thread as far
// as it got, and the next turn answers the tool calls the stopped run left open (a model API refuses
// a tool call without its result).
import { randomUUID } from "node:crypto";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { Command, type StateSnapshot } from "@langchain/langgraph";
import type { MessageView, UsageReport } from "../contract.ts";
import { ResumeFailed, type PlatformTool, type RuntimeAdapter, type TurnActivityReporter, type TurnInput, type TurnResult } from "../runtime.ts";

/** The stream modes the adapter reads: each node's update (the messages it made), and tool calls as they start and end. */
const STREAM_MODES: ("updates" | "tools")[] = ["updates", "tools"];

/** What the adapter needs of a compiled graph whose state has `messages` (e.g. MessagesAnnotation): every compiled graph has both. */
export interface MessagesGraph {
  stream(
    input: unknown,
    config: { configurable: { thread_id: string }; streamMode: typeof STREAM_MODES; signal?: AbortSignal; recursionLimit?: number },
  ): Promise<AsyncIterable<unknown>>;
  getState(config: { configurable: { thread_id: string } }): Promise<StateSnapshot>;
}

export interface LangGraphOptions {
  /**
   * The compiled graph, with a durable checkpointer; or a function that builds it once from the
   * platform tools as LangChain tools (`(tools) => createReactAgent({ llm, tools, checkpointer })`).
   */
  graph: MessagesGraph | ((tools: StructuredToolInterface[]) => MessagesGraph | Promise<MessagesGraph>);
  /** The model name usage is reported under when the model's messages do not name one. */
  model?: string;
  recursionLimit?: number;
  /** Shown on bindings: where the checkpointer keeps threads (e.g. the SQLite file). */
  checkpointer?: string;
  runner?: string;
}

/** The platform tools as LangChain tools: the model's arguments validated by the same schemas. */
export function langChainTools(tools: PlatformTool[]): StructuredToolInterface[] {
  return tools.map((t) =>
    tool(
      async (args: Record<string, unknown>, config): Promise<string | ToolMessage> => {
        try {
          return JSON.stringify(await t.call(args));
        } catch (error) {
          // The model sees the refusal (its code says why) and may try something else; the result is
          // marked an error, so the room shows the call failed (and a provider that can tells the model).
          const e = error as { code?: string; message?: string };
          const content = JSON.stringify({ error: { code: e.code ?? "ERROR", message: e.message ?? String(error) } });
          const callId = config.toolCall?.id;
          return callId ? new ToolMessage({ content, tool_call_id: callId, name: t.name, status: "error" }) : content;
        }
      },
      { name: t.name, description: t.description, schema: t.input },
    ),
  );
}

/** A Switchboard message as a LangChain one, keyed by its id (a repeat replaces it in the state). */
function toLangChain(m: MessageView, meId: string): BaseMessage {
  const id = `switchboard:${m.id}`;
  if (m.author.id === meId) return new AIMessage({ content: m.body, id });
  return new HumanMessage({ content: `@${m.author.handle}: ${m.body}`, id, name: m.author.handle.replace(/[^a-zA-Z0-9_-]/g, "_") });
}

const textOf = (m: BaseMessage): string =>
  typeof m.content === "string"
    ? m.content
    : m.content.map((part) => (typeof part === "string" ? part : part.type === "text" && typeof part.text === "string" ? part.text : "")).join("");

export function langGraph(options: LangGraphOptions): RuntimeAdapter {
  let built: Promise<MessagesGraph> | null = null;
  const graphFor = (tools: PlatformTool[]) =>
    (built ??= Promise.resolve(typeof options.graph === "function" ? options.graph(langChainTools(tools)) : options.graph));

  return {
    runtime: "langgraph",
    where: () => ({
      ...(options.runner ? { runner: options.runner } : {}),
      config: { ...(options.model ? { model: options.model } : {}), ...(options.checkpointer ? { checkpointer: options.checkpointer } : {}) },
    }),

    async turn(input: TurnInput): Promise<TurnResult> {
      input.signal.throwIfAborted();
      const graph = await graphFor(input.tools);
      const threadId = input.binding.externalId ?? `switchboard-${randomUUID()}`;
      const config = { configurable: { thread_id: threadId } };
      let pending: StateSnapshot["tasks"][number]["interrupts"] = [];
      let before = new Set<string>();
      let unanswered: ToolMessage[] = [];
      if (input.binding.externalId) {
        const state = await graph.getState(config);
        // A thread the checkpointer has never seen (its database was reset, or it is another one).
        if (!state.createdAt) {
          throw new ResumeFailed(`LangGraph thread ${threadId} has no checkpoint in this graph's checkpointer`);
        }
        pending = state.tasks.flatMap((t) => t.interrupts);
        const kept = messagesOf(state.values);
        before = new Set(kept.map((m) => m.id ?? ""));
        // A run stopped (or a process killed) while its tools ran: their results, before anything new.
        if (pending.length === 0) unanswered = stoppedCalls(kept);
      } else {
        await input.onSession(threadId);
      }
      const fresh = [...unanswered, ...[...input.history, ...input.messages].map((m) => toLangChain(m, input.me.id))];
      for (const m of fresh) before.add(m.id!);
      // Waiting at an interrupt: what was said since is the answer it waits for.
      const graphInput = pending.length > 0 ? new Command({ resume: input.messages.map((m) => m.body).join("\n") }) : { messages: fresh };
      const watched = new WatchedRun(input.activity);
      try {
        const stream = await graph.stream(graphInput, {
          ...config,
          streamMode: STREAM_MODES,
          signal: input.signal,
          ...(options.recursionLimit ? { recursionLimit: options.recursionLimit } : {}),
        });
        for await (const chunk of stream) watched.show(chunk as StreamChunk);
      } catch (error) {
        // Stopped: LangGraph ends the run with an "Abort" of its own; the signal's reason says who stopped it.
        input.signal.throwIfAborted();
        throw error;
      }
      const after = await graph.getState(config);
      const made = messagesOf(after.values).filter((m) => AIMessage.isInstance(m) && !before.has(m.id ?? ""));
      const interrupts = after.tasks.flatMap((t) => t.interrupts);
      const last = made.at(-1);
      const question = interrupts.map((i) => (typeof i.value === "string" ? i.value : JSON.stringify(i.value))).join("\n");
      return {
        externalId: threadId,
        reply: interrupts.length > 0 ? question : last ? textOf(last) : null,
        usage: usageOf(made, options.model),
        status: interrupts.length > 0 ? "awaiting_input" : "idle",
        openTaskId: interrupts[0]?.id ?? null,
      };
    },
  };
}

const messagesOf = (values: unknown): BaseMessage[] => (values as { messages?: BaseMessage[] } | undefined)?.messages ?? [];

/**
 * The tool calls of the thread's last model message that have no result: the run stopped (or its
 * process died) while they ran. Each gets a result saying so, with an id of its own (a turn run again
 * replaces it rather than adding another).
 */
function stoppedCalls(messages: BaseMessage[]): ToolMessage[] {
  const at = messages.findLastIndex((m) => !ToolMessage.isInstance(m));
  const asked = messages[at];
  if (!asked || !AIMessage.isInstance(asked)) return [];
  const answered = new Set(messages.slice(at + 1).map((m) => (m as ToolMessage).tool_call_id));
  return (asked.tool_calls ?? [])
    .filter((call) => call.id && !answered.has(call.id))
    .map(
      (call) =>
        new ToolMessage({
          id: `switchboard:stopped:${call.id}`,
          tool_call_id: call.id!,
          name: call.name,
          status: "error",
          content: "This tool call did not return: the run was stopped (or its process ended) while it ran, and its result is unknown.",
        }),
    );
}

/** A chunk of a run streamed with several modes: the mode, then what it streams. */
type StreamChunk = ["updates", Record<string, unknown>] | ["tools", ToolEvent];

/** The "tools" stream mode: a tool call's start and end (or error), by the id the model gave the call. */
interface ToolEvent {
  event: "on_tool_start" | "on_tool_event" | "on_tool_end" | "on_tool_error";
  toolCallId?: string;
  name: string;
  input?: unknown;
  output?: unknown;
  error?: unknown;
}

/**
 * The run's stream as the room watches the turn (TurnInput.activity). A node's update brings the
 * messages it made: a model's tool calls (running from when it asks), what it says alongside them, its
 * tokens; a tool node's results. The "tools" mode ends each call as it ends, before its node is done
 * with the others. The final answer is the turn's reply, not a step.
 */
class WatchedRun {
  private readonly started = new Set<string>();
  private readonly ended = new Set<string>();
  /** Each model message's tokens, by its id (or its place): the turn's totals are their sum. */
  private readonly tokens = new Map<string, { inputTokens: number; outputTokens: number }>();

  constructor(private readonly activity: TurnActivityReporter) {}

  show([mode, payload]: StreamChunk): void {
    if (mode === "tools") return this.tool(payload);
    for (const update of Object.values(payload ?? {})) {
      for (const value of Array.isArray(update) ? update : [update]) {
        const messages = (value as { messages?: unknown } | null)?.messages;
        for (const m of Array.isArray(messages) ? messages : [messages]) if (m) this.message(m as BaseMessage);
      }
    }
  }

  private message(m: BaseMessage): void {
    // (A result of a call not started in this run is the turn's input: a stopped call's.)
    if (ToolMessage.isInstance(m)) return this.started.has(m.tool_call_id) ? this.end(m.tool_call_id, textOf(m), m.status === "error") : undefined;
    if (!AIMessage.isInstance(m)) return;
    const calls = (m.tool_calls ?? []).filter((c) => c.id && !this.ended.has(c.id));
    const said = textOf(m).trim();
    if (calls.length > 0 && said) this.activity.note(said);
    for (const call of calls) {
      this.started.add(call.id!);
      this.activity.toolStarted(call.id!, call.name, call.args);
    }
    if (m.usage_metadata) {
      this.tokens.set(m.id ?? `message:${this.tokens.size}`, { inputTokens: m.usage_metadata.input_tokens, outputTokens: m.usage_metadata.output_tokens });
      let inputTokens = 0;
      let outputTokens = 0;
      for (const t of this.tokens.values()) {
        inputTokens += t.inputTokens;
        outputTokens += t.outputTokens;
      }
      this.activity.usage({ inputTokens, outputTokens });
    }
  }

  private tool(e: ToolEvent): void {
    const key = e.toolCallId;
    if (!key) return; // a tool a node called by itself, not a call of the model's
    if (e.event === "on_tool_start" && !this.started.has(key) && !this.ended.has(key)) {
      this.started.add(key);
      this.activity.toolStarted(key, e.name, argumentsOf(e.input));
    } else if (e.event === "on_tool_end") {
      const output = e.output;
      if (ToolMessage.isInstance(output)) this.end(key, textOf(output), output.status === "error");
      else this.end(key, typeof output === "string" ? output : (JSON.stringify(output) ?? ""), false);
    } else if (e.event === "on_tool_error") {
      this.end(key, e.error instanceof Error ? e.error.message : String(e.error), true);
    }
  }

  private end(key: string, result: string, failed: boolean): void {
    if (this.ended.has(key)) return;
    this.ended.add(key);
    this.activity.toolEnded(key, result, failed);
  }
}

/** A tool's input as its start event gives it: LangChain's callbacks hand it on as JSON text. */
function argumentsOf(input: unknown): unknown {
  if (typeof input !== "string") return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/** The model calls of the turn, from the AI messages it made (`usage_metadata`), one report per model. */
function usageOf(made: BaseMessage[], fallbackModel = "unknown"): Omit<UsageReport, "reportId">[] {
  const byModel = new Map<string, Omit<UsageReport, "reportId">>();
  for (const m of made) {
    const usage = (m as AIMessage).usage_metadata;
    if (!usage) continue;
    const model = String(
      (m.response_metadata as { model_name?: string; model?: string } | undefined)?.model_name ??
        (m.response_metadata as { model?: string } | undefined)?.model ??
        fallbackModel,
    );
    const sum = byModel.get(model) ?? { model, inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
    sum.inputTokens += usage.input_tokens;
    sum.outputTokens += usage.output_tokens;
    sum.cachedTokens = (sum.cachedTokens ?? 0) + (usage.input_token_details?.cache_read ?? 0);
    byModel.set(model, sum);
  }
  return [...byModel.values()];
}
