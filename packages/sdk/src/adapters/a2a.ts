// The "a2a" runtime: a remote A2A agent (any framework, any host) as a Switchboard agent. A turn sends
// the conversation's new messages to the remote as one A2A message, in the A2A conversation kept as
// the binding's external id (its contextId); a task waiting for input (INPUT_REQUIRED) is the
// binding's open task, and the next turn answers it with that taskId. The remote's answer, artifacts
// and questions are the turn's reply, shown as they stream when the card says it streams.
//
// A remote that is down (refused, reset, timed out, 5xx, 429), or that refuses the credential (401,
// 403: its owner enters a new one), is retried with backoff for as long as it takes: the turn waits,
// so the room's later messages wait behind it and order holds. Each A2A
// message's id derives from the Switchboard message that started the turn, so a remote that dedupes
// by messageId sees a resend after a crash as the same message.
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory, type Client } from "@a2a-js/sdk/client";
import type { AgentCard, Message, Part, StreamResponse, Task } from "@a2a-js/sdk";
import { MAX_BODY_BYTES, type MessageView } from "../contract.ts";
import { TurnStopped, type RuntimeAdapter, type TurnInput, type TurnResult } from "../runtime.ts";

export type { AgentCard } from "@a2a-js/sdk";

/** What the remote wants as a credential: a header and its value (`Authorization: Bearer …`, `X-API-Key: …`). */
export interface A2aCredential {
  header: string;
  value: string;
}

export interface A2aAdapterOptions {
  /** The remote's agent card (as `fetchAgentCard` resolved it). */
  card: AgentCard;
  credential?: A2aCredential | null;
  /** Backoff between attempts while the remote is down (default 500 ms doubling to 30 s, with jitter). */
  backoff?: { minMs: number; maxMs: number };
  /** How long one attempt waits for the remote's response to begin (default 120 s). */
  timeoutMs?: number;
  /** Told when the remote goes down (with why) and comes back (null). */
  onAvailability?(error: string | null): void;
  log?(line: string): void;
}

/** The remote could not be reached, or said it cannot answer now: the turn tries again later. */
export class RemoteUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RemoteUnavailable";
  }
}

const TASK_STATE = { completed: 3, failed: 4, canceled: 5, inputRequired: 6, rejected: 7, authRequired: 8 } as const;
const ROLE_USER = 1;
const ROLE_AGENT = 2;

/** A fetch that adds the credential, bounds the wait for a response, and reports a remote that is down as RemoteUnavailable. */
function remoteFetch(credential: A2aCredential | null | undefined, timeoutMs: number): typeof fetch {
  return async (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (credential) headers.set(credential.header, credential.value);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error(`no response in ${timeoutMs} ms`)), timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal;
    let res: Response;
    try {
      res = await fetch(input, { ...init, headers, signal });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new RemoteUnavailable(`unreachable: ${describe(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    if (res.status >= 500 || res.status === 429 || res.status === 408) {
      await res.body?.cancel().catch(() => undefined);
      throw new RemoteUnavailable(`HTTP ${res.status} ${res.statusText}`);
    }
    // Refused credentials wait too: its owner enters new ones, and the message goes with them.
    if (res.status === 401 || res.status === 403) {
      await res.body?.cancel().catch(() => undefined);
      throw new RemoteUnavailable(`HTTP ${res.status}: the remote refused the credential`);
    }
    return res;
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${(error.cause as Error & { code?: string }).code ?? error.cause.message})` : "";
  return `${error.message}${cause}`;
}

/**
 * Fetches and normalises an agent card: `url` is the card's own URL (ending in `.json`) or the agent's
 * base URL (its card at `/.well-known/agent-card.json`). A2A 0.3 cards are read too.
 */
export async function fetchAgentCard(url: string, opts: { credential?: A2aCredential | null; timeoutMs?: number } = {}): Promise<AgentCard> {
  const fetchImpl = remoteFetch(opts.credential, opts.timeoutMs ?? 10_000);
  const resolver = new DefaultAgentCardResolver({ fetchImpl, legacyCompat: { enabled: true } });
  const card = new URL(url).pathname.endsWith(".json") ? await resolver.resolve(url, "") : await resolver.resolve(url);
  if (!card.name?.trim()) throw new Error("The agent card has no name");
  if (!card.supportedInterfaces?.some((i) => i.protocolBinding === "JSONRPC" || i.protocolBinding === "HTTP+JSON")) {
    throw new Error("The agent card offers no JSON-RPC or HTTP+JSON interface");
  }
  return card;
}

function clientFor(card: AgentCard, credential: A2aCredential | null | undefined, timeoutMs: number): Promise<Client> {
  const fetchImpl = remoteFetch(credential, timeoutMs);
  const factory = new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } }),
      new RestTransportFactory({ fetchImpl, legacyCompat: { enabled: true } }),
    ],
  });
  return factory.createFromAgentCard(card);
}

/** The turn's messages as one A2A message: a text part per message, saying who wrote it. */
function outgoing(input: TurnInput, contextId: string, taskId: string): Message {
  const last = input.messages[input.messages.length - 1];
  const part = (m: MessageView): Part => ({
    content: { $case: "text", value: `@${m.author.handle}: ${m.body}` },
    metadata: { switchboard: { messageId: m.id, seq: m.seq, author: m.author.handle, authorKind: m.author.kind } },
    filename: "",
    mediaType: "text/plain",
  });
  const parts = input.messages.map(part);
  if (input.history.length > 0) {
    const earlier = input.history.map((m) => `@${m.author.handle}: ${m.body}`).join("\n");
    parts.unshift({
      content: { $case: "text", value: `Earlier in this conversation:\n${earlier}` },
      metadata: { switchboard: { history: true } },
      filename: "",
      mediaType: "text/plain",
    });
  }
  return {
    messageId: `switchboard-${last.id}`,
    contextId,
    taskId,
    role: ROLE_USER,
    parts,
    metadata: { switchboard: { roomId: input.room.room.id, threadRootId: input.binding.threadRootId } },
    extensions: [],
    referenceTaskIds: [],
  };
}

function partText(part: Part): string {
  const c = part.content;
  if (!c) return "";
  if (c.$case === "text") return c.value;
  if (c.$case === "url") return `[${part.filename || c.value}](${c.value})`;
  if (c.$case === "data") return "```json\n" + JSON.stringify(c.value, null, 2) + "\n```";
  return `(a file${part.filename ? ` "${part.filename}"` : ""}, ${part.mediaType || "binary"}, not shown)`;
}

const CUT = "\n\n_(the rest of the remote agent's answer is longer than a message holds)_";

/** At most a message's size: a longer answer is cut, and says so. */
function fit(text: string): string {
  const max = MAX_BODY_BYTES - Buffer.byteLength(CUT);
  if (Buffer.byteLength(text) <= MAX_BODY_BYTES) return text;
  const cut = Buffer.from(text)
    .subarray(0, max)
    .toString("utf8")
    .replace(/\uFFFD+$/, "");
  return cut + CUT;
}

const textOf = (parts: Part[] | undefined) =>
  (parts ?? [])
    .map(partText)
    .filter((t) => t.trim())
    .join("\n");

/** What the remote has said so far in one turn, folded from its events. */
class Answer {
  contextId = "";
  taskId = "";
  state = 0;
  private readonly texts: { key: string; text: string }[] = [];
  private readonly artifacts = new Map<string, { name: string; parts: Part[] }>();

  task(task: Task, sentId: string): void {
    this.ids(task.contextId, task.id);
    // Only what came after the message sent: a task answered again holds its earlier exchange too.
    const history = task.history ?? [];
    const sent = history.findIndex((m) => m.messageId === sentId);
    for (const m of history.slice(sent + 1)) if (m.role === ROLE_AGENT) this.message(m);
    for (const a of task.artifacts ?? []) this.artifact(a.artifactId, a.name, a.parts, false);
    if (task.status) this.status(task.status.state, task.status.message);
  }

  message(m: Message): void {
    this.ids(m.contextId, m.taskId);
    this.say(m.messageId, textOf(m.parts));
  }

  status(state: number, message: Message | undefined): void {
    this.state = state;
    if (message) this.say(message.messageId, textOf(message.parts));
  }

  artifact(id: string, name: string, parts: Part[], append: boolean): void {
    const known = this.artifacts.get(id);
    if (!known || !append) {
      this.artifacts.set(id, { name: name || known?.name || id, parts: parts.map((p) => ({ ...p })) });
      return;
    }
    // A chunk of text continues the text before it; anything else is a part of its own.
    for (const part of parts) {
      const last = known.parts.at(-1);
      if (last?.content?.$case === "text" && part.content?.$case === "text") last.content = { $case: "text", value: last.content.value + part.content.value };
      else known.parts.push({ ...part });
    }
  }

  ids(contextId: string, taskId: string): void {
    if (contextId) this.contextId = contextId;
    if (taskId) this.taskId = taskId;
  }

  private say(key: string, text: string): void {
    if (!text.trim()) return;
    const known = this.texts.find((t) => key && t.key === key);
    if (known) known.text = text;
    else this.texts.push({ key, text });
  }

  render(): string {
    const out = this.texts.map((t) => t.text);
    for (const a of this.artifacts.values()) out.push(`**${a.name}**\n${textOf(a.parts)}`);
    if (this.state === TASK_STATE.failed) out.push("_(the remote agent's task failed)_");
    if (this.state === TASK_STATE.rejected) out.push("_(the remote agent rejected the task)_");
    if (this.state === TASK_STATE.canceled) out.push("_(the remote agent's task was canceled)_");
    if (this.state === TASK_STATE.authRequired) out.push("_(the remote agent needs authorization it was not given)_");
    return fit(out.join("\n\n"));
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });

export function a2a(options: A2aAdapterOptions): RuntimeAdapter {
  const { card } = options;
  const backoff = options.backoff ?? { minMs: 500, maxMs: 30_000 };
  const log = options.log ?? ((line: string) => console.error(line));
  const streaming = card.capabilities?.streaming === true;
  let client: Promise<Client> | null = null;
  let down: string | null = null;

  /** One attempt: sends, and folds the answer (showing it as it streams). */
  async function attempt(input: TurnInput, message: Message): Promise<Answer> {
    client ??= clientFor(card, options.credential, options.timeoutMs ?? 120_000);
    const remote = await client.catch((error: unknown) => {
      client = null;
      throw error;
    });
    const answer = new Answer();
    answer.ids(message.contextId, message.taskId);
    const request = { tenant: "", message, configuration: undefined, metadata: undefined };
    // A person's Stop: the remote is asked to cancel the task it opened (A2A CancelTask), and the request is aborted.
    const cancel = () => {
      if (!answer.taskId || !(input.signal.reason instanceof TurnStopped)) return;
      void remote
        .cancelTask({ tenant: "", id: answer.taskId, metadata: undefined })
        .catch((error: unknown) =>
          log(`a2a: could not cancel task ${answer.taskId} on ${card.name}: ${error instanceof Error ? error.message : String(error)}`),
        );
    };
    input.signal.addEventListener("abort", cancel, { once: true });
    try {
      if (!streaming) {
        const result = await remote.sendMessage(request, { signal: input.signal });
        if ("status" in result) answer.task(result, message.messageId);
        else answer.message(result);
        return answer;
      }
      let received = false;
      try {
        for await (const event of remote.sendMessageStream(request, { signal: input.signal })) {
          received = true;
          const state = answer.state;
          fold(answer, event, message.messageId);
          watch(input, event, state !== answer.state ? answer.state : null);
          input.stream?.(answer.render());
        }
      } catch (error) {
        // Part of an answer came: the remote has the message, and sending it again would repeat it.
        if (received && error instanceof RemoteUnavailable) throw new Error(`The remote's answer broke off: ${error.message}`, { cause: error });
        throw error;
      }
      return answer;
    } finally {
      input.signal.removeEventListener("abort", cancel);
    }
  }

  /** Attempts until the remote answers, waiting out an outage; the turn's signal ends the wait. */
  async function send(input: TurnInput, message: Message): Promise<Answer> {
    for (let n = 0; ; n++) {
      try {
        const answer = await attempt(input, message);
        if (down !== null) {
          down = null;
          options.onAvailability?.(null);
        }
        return answer;
      } catch (error) {
        if (!(error instanceof RemoteUnavailable) || input.signal.aborted) throw error;
        if (down === null) log(`a2a: ${card.name} is unavailable (${error.message}); retrying`);
        if (down !== error.message) options.onAvailability?.(error.message);
        down = error.message;
        const wait = Math.min(backoff.maxMs, backoff.minMs * 2 ** Math.min(n, 20));
        await sleep(wait / 2 + Math.random() * (wait / 2), input.signal);
        if (input.signal.aborted) throw error;
      }
    }
  }

  return {
    runtime: "a2a",
    where: () => ({
      runner: "switchboard a2a bridge",
      host: new URL(card.supportedInterfaces[0]?.url ?? "http://unknown").host,
      config: { card: card.name, streaming },
    }),
    async turn(input): Promise<TurnResult> {
      // A task left open by the last turn waits for input (the claim itself marks the binding active).
      const waiting = input.binding.openTaskId ?? "";
      let answer: Answer;
      try {
        answer = await send(input, outgoing(input, input.binding.externalId ?? "", waiting));
      } catch (error) {
        // The task it asked about is gone on the remote (restarted, expired): the answer starts a new one.
        if (!waiting || !taskGone(error)) throw error;
        answer = await send(input, outgoing(input, input.binding.externalId ?? "", ""));
      }
      if (answer.contextId && answer.contextId !== input.binding.externalId) await input.onSession(answer.contextId);
      const asks = answer.state === TASK_STATE.inputRequired;
      return {
        externalId: answer.contextId || input.binding.externalId || `a2a-${input.binding.id}`,
        reply: answer.render() || null,
        status: asks ? "awaiting_input" : "idle",
        openTaskId: asks ? answer.taskId : null,
      };
    },
  };
}

/** The remote does not know the task (each SDK bundle has its own error classes: match the reason, not the class). */
const taskGone = (error: unknown) =>
  error instanceof Error && ((error as { reason?: string }).reason === "TASK_NOT_FOUND" || error.name === "TaskNotFoundError");

/** The remote's task as the room watches the turn (TurnInput.activity): its state as it changes, and each artifact. */
function watch(input: TurnInput, event: StreamResponse, newState: number | null): void {
  const p = event.payload;
  if (!p) return;
  if (newState !== null)
    input.activity.step({ key: "remote-state", kind: "note", title: `The remote's task: ${STATE_NAMES[newState] ?? `state ${newState}`}`, status: "done" });
  if (p.$case === "artifactUpdate" && p.value.artifact) {
    const a = p.value.artifact;
    input.activity.step({ key: `artifact:${a.artifactId}`, kind: "file", title: `artifact ${a.name || a.artifactId}`, status: "done" });
  }
}

const STATE_NAMES: Record<number, string> = {
  1: "submitted",
  2: "working",
  3: "completed",
  4: "failed",
  5: "canceled",
  6: "input required",
  7: "rejected",
  8: "auth required",
};

function fold(answer: Answer, event: StreamResponse, sentId: string): void {
  const p = event.payload;
  if (!p) return;
  if (p.$case === "task") answer.task(p.value, sentId);
  else if (p.$case === "message") answer.message(p.value);
  else if (p.$case === "statusUpdate") {
    answer.ids(p.value.contextId, p.value.taskId);
    if (p.value.status) answer.status(p.value.status.state, p.value.status.message);
  } else if (p.value.artifact) {
    answer.ids(p.value.contextId, p.value.taskId);
    answer.artifact(p.value.artifact.artifactId, p.value.artifact.name, p.value.artifact.parts, p.value.append);
  }
}
