// The LangGraph runtime (`@langchain/langgraph`): one LangGraph thread per binding, its state in the
// graph's own checkpointer. Give the graph a durable one (SqliteSaver, PostgresSaver) and a restart,
// a crash or a week later the next message continues the same thread: the binding's external id is
// the `thread_id`. Each turn passes only the new messages (with the Switchboard message ids as the
// LangChain message ids, so a turn run again after a crash replaces rather than repeats them); a new
// thread is also given the conversation's recent history. A graph that stops at an `interrupt()` leaves
// the binding awaiting input, and the next message resumes it (`Command({ resume })`).
import { randomUUID } from "node:crypto";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { Command, type StateSnapshot } from "@langchain/langgraph";
import type { MessageView, UsageReport } from "../contract.ts";
import { ResumeFailed, type PlatformTool, type RuntimeAdapter, type TurnInput, type TurnResult } from "../runtime.ts";

/** What the adapter needs of a compiled graph whose state has `messages` (e.g. MessagesAnnotation). */
export interface MessagesGraph {
  invoke(input: unknown, config: { configurable: { thread_id: string }; signal?: AbortSignal; recursionLimit?: number }): Promise<unknown>;
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
      async (args: Record<string, unknown>) => {
        try {
          return JSON.stringify(await t.call(args));
        } catch (error) {
          // The model sees the refusal (its code says why) and may try something else.
          const e = error as { code?: string; message?: string };
          return JSON.stringify({ error: { code: e.code ?? "ERROR", message: e.message ?? String(error) } });
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
      const graph = await graphFor(input.tools);
      const threadId = input.binding.externalId ?? `switchboard-${randomUUID()}`;
      const config = { configurable: { thread_id: threadId } };
      let pending: StateSnapshot["tasks"][number]["interrupts"] = [];
      let before = new Set<string>();
      if (input.binding.externalId) {
        const state = await graph.getState(config);
        // A thread the checkpointer has never seen (its database was reset, or it is another one).
        if (!state.createdAt) {
          throw new ResumeFailed(`LangGraph thread ${threadId} has no checkpoint in this graph's checkpointer`);
        }
        pending = state.tasks.flatMap((t) => t.interrupts);
        before = new Set(((state.values as { messages?: BaseMessage[] }).messages ?? []).map((m) => m.id ?? ""));
      } else {
        await input.onSession(threadId);
      }
      const fresh = [...input.history, ...input.messages].map((m) => toLangChain(m, input.me.id));
      for (const m of fresh) before.add(m.id!);
      // Waiting at an interrupt: what was said since is the answer it waits for.
      const graphInput = pending.length > 0 ? new Command({ resume: input.messages.map((m) => m.body).join("\n") }) : { messages: fresh };
      const out = (await graph.invoke(graphInput, {
        ...config,
        signal: input.signal,
        ...(options.recursionLimit ? { recursionLimit: options.recursionLimit } : {}),
      })) as { messages?: BaseMessage[] };
      const made = (out.messages ?? []).filter((m) => AIMessage.isInstance(m) && !before.has(m.id ?? ""));
      const after = await graph.getState(config);
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
