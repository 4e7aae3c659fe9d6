// The framework-first entry point: `Agent.create({ url, apiKey, adapter }).run()`. It connects, hands
// each room's messages to the adapter in order and exactly once (the client's cursors), one turn per
// message addressed to the agent, with the room's runtime binding claimed before the turn and saved
// after it: the framework's session resumes with only what it has not seen. Around each turn:
// receipts (processing → processed / failed, by the client), the reply posted, usage reported, all
// with ids derived from the message, so a turn run again after a crash stores nothing twice.
// SIGINT / SIGTERM: the turn running finishes, what waits is left for the next run, then it exits.
import { randomUUID } from "node:crypto";
import os from "node:os";
import { DEFAULT_LEASE_MS, type BindingView } from "./bindings.ts";
import { MessageAbandoned, SwitchboardClient, SwitchboardError, type ClientOptions, type MessageContext } from "./client.ts";
import type { MembershipView, MessageView, ParticipantView } from "./contract.ts";
import { ResumeFailed, TurnStopped, type PlatformTool, type RuntimeAdapter, type TurnResult } from "./runtime.ts";
import { StreamedReply } from "./streamed-reply.ts";
import { NO_ACTIVITY, TurnActivity } from "./turn-activity.ts";

export interface AgentOptions extends ClientOptions {
  adapter: RuntimeAdapter;
  /** Which messages start a turn: those addressed to the agent (mentions, DMs, its threads; default), or all. */
  respondTo?: "addressed" | "all";
  /** How many earlier messages a new session is given as context (default 20). */
  historyLimit?: number;
  /** At most this many messages are handed to a session in one turn; older ones are left out, and the prompt says that some are (default 200). */
  deltaLimit?: number;
  /** The tools the model gets. Default: the platform tools (the MCP server's, run over this agent's socket). */
  tools?: PlatformTool[];
  /** Stop on SIGINT / SIGTERM and exit the process when stopped (default true). */
  handleSignals?: boolean;
  /** How long a turn's hold on its binding lasts unless renewed (it is, every third of it, while the turn runs; default 30 s). */
  leaseMs?: number;
  /** Where messages about the agent's work go (default console.error). */
  log?: (line: string) => void;
}

/** A message of a turn as the session sees it, in the prompt. */
export function formatMessage(m: MessageView, me: ParticipantView | null): string {
  const who = m.author.id === me?.id ? "you" : `@${m.author.handle}${m.author.kind === "agent" ? " (agent)" : ""}`;
  return `[${m.seq}] ${who}: ${m.body}`;
}

/** The plain-text prompt of a turn: where it is, the context a new session gets, and what is new. */
export function formatPrompt(input: {
  me: ParticipantView;
  room: MembershipView;
  messages: MessageView[];
  history: MessageView[];
  omitted: boolean;
  threadRootId: string | null;
}): string {
  const room = input.room.room;
  const where = room.kind === "channel" ? `#${room.name} (a channel)` : room.kind === "dm" ? "a direct conversation" : "a group conversation";
  const lines = [`You are @${input.me.handle} on Switchboard, in ${where}${input.threadRootId ? ", in a thread" : ""}. Your answer is posted there.`];
  if (input.history.length > 0) lines.push("", "Earlier in this conversation:", ...input.history.map((m) => formatMessage(m, input.me)));
  lines.push("", input.history.length > 0 || input.omitted ? "New since then:" : "Messages:");
  if (input.omitted) lines.push("(earlier messages since then are not shown)");
  lines.push(...input.messages.map((m) => formatMessage(m, input.me)));
  return lines.join("\n");
}

/** A turn running now, as a person's reply in its thread reaches it (Agent.offerSteering). */
interface Steerable {
  /** The message the turn answers. */
  messageId: string;
  activity: TurnActivity | null;
  /** The adapter's callback, once it listens; it returns true for a message it took. */
  take: ((m: MessageView) => boolean) | null;
  /** Replies that came before it listened. */
  pending: MessageView[];
}

/** A turn's tokens and cost, all its model calls together. */
function totalUsage(result: TurnResult): { inputTokens: number; outputTokens: number; costUsd?: number } {
  const calls = result.usage ?? [];
  const cost = calls.reduce((sum, u) => sum + (u.costUsd ?? 0), 0);
  return {
    inputTokens: calls.reduce((sum, u) => sum + u.inputTokens, 0),
    outputTokens: calls.reduce((sum, u) => sum + u.outputTokens, 0),
    ...(calls.some((u) => u.costUsd !== undefined) ? { costUsd: cost } : {}),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000);

export class Agent {
  readonly client: SwitchboardClient;
  readonly adapter: RuntimeAdapter;
  /** This process, as the holder of the bindings its turns claim. */
  private readonly holder = randomUUID();
  private readonly abort = new AbortController();
  private readonly log: (line: string) => void;
  private me: ParticipantView | null = null;
  private stopping: Promise<void> | null = null;
  private resolveStopped!: () => void;
  private readonly stopped = new Promise<void>((resolve) => (this.resolveStopped = resolve));
  private signalHandlers: (() => void) | null = null;
  /** The tools the model gets: the option's, or the platform tools over this agent's socket. */
  private tools: PlatformTool[] | null = null;
  /** Turns running now (one per room at most): the agent's work status is `working` while any is. */
  private readonly turns = new Map<string, string>();
  /** The turns running now by their id (sdk/turns.ts), each with the controller a Stop from its room aborts. */
  private readonly stoppable = new Map<string, AbortController>();
  /** Whether the server shows turns live (an older one does not know `turn:start`). */
  private showsTurns = true;
  /** Turns running now by their conversation (room and thread root): who takes a person's message as steering. */
  private readonly steerable = new Map<string, Steerable>();
  /** Messages a running turn took as steering: done with, no turn of their own when their turn in the queue comes. */
  private readonly steered = new Set<string>();

  static create(options: AgentOptions): Agent {
    return new Agent(options);
  }

  private constructor(private readonly options: AgentOptions) {
    this.client = new SwitchboardClient(options);
    this.adapter = options.adapter;
    this.log = options.log ?? ((line) => console.error(line));
    this.client.onMessage((message, ctx) => this.handle(message, ctx));
    this.client.onTurnInterrupt(({ turnId, by }) => this.stoppable.get(turnId)?.abort(new TurnStopped(by)));
    // A person's reply in a running turn's thread, seen as it arrives (before the room's queue hands it over).
    this.client.on("message:new", ({ message }) => this.offerSteering(message));
    this.client.on("message:batch", ({ messages }) => messages.forEach((m) => this.offerSteering(m)));
  }

  /** The conversation a message belongs to, as a turn answers it: its room and the thread it starts or is in. */
  private static conversationOf(m: MessageView): string {
    return `${m.roomId}:${m.threadRootId ?? m.id}`;
  }

  /**
   * Hands a person's message in a running turn's thread to the turn, where its framework takes input
   * mid-turn; one that comes before the adapter listens waits for it (or for the turn's end).
   */
  private offerSteering(m: MessageView): void {
    if (m.kind !== "text" || m.author.kind !== "human" || !m.threadRootId) return;
    const running = this.steerable.get(`${m.roomId}:${m.threadRootId}`);
    if (!running || running.messageId === m.id || this.steered.has(m.id) || running.pending.some((p) => p.id === m.id)) return;
    if (running.take) this.steerWith(running, m);
    else running.pending.push(m);
  }

  private steerWith(running: Steerable, m: MessageView): void {
    if (running.take?.(m)) {
      this.steered.add(m.id);
      running.activity?.note(`Redirected by @${m.author.handle}: ${m.body}`, `steer:${m.id}`);
    } else {
      running.activity?.note(`@${m.author.handle} replied while it works: answered next turn`, `steer:${m.id}`);
    }
  }

  /** Connects and starts taking turns; resolves with the agent once it is in. */
  async start(): Promise<ParticipantView> {
    this.me = await this.client.connect();
    if (this.options.handleSignals ?? true) this.listenForSignals();
    return this.me;
  }

  /** Runs until stopped (a signal, or `stop()`). */
  async run(): Promise<void> {
    if (!this.me) await this.start();
    await this.stopped;
  }

  /**
   * Lets the turn running finish, leaves what waits for the next run, and disconnects. `abandonTurns`:
   * the turns running are aborted instead (their signal), and their messages left for the next run too.
   */
  stop(opts: { abandonTurns?: boolean } = {}): Promise<void> {
    if (opts.abandonTurns) this.abort.abort();
    this.stopping ??= (async () => {
      this.signalHandlers?.();
      await this.client.close();
      await this.adapter.close?.();
      this.resolveStopped();
    })();
    return this.stopping;
  }

  private listenForSignals(): void {
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) {
        // A second signal: stop now. The turn running is abandoned, and run again by the next start.
        this.abort.abort();
        process.exit(130);
      }
      signalled = true;
      this.log(`switchboard: ${signal}: finishing the turn in progress, then stopping`);
      void this.stop().then(() => process.exit(0));
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    this.signalHandlers = () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    };
  }

  /** One message: a turn if it is one to answer. The client runs this per room, in order, once. */
  private async handle(message: MessageView, ctx: MessageContext): Promise<void> {
    if (message.kind !== "text" || message.author.id === this.me?.id) return;
    // Taken as steering by the turn it arrived during: that turn answered it.
    if (this.steered.delete(message.id)) return;
    if ((this.options.respondTo ?? "addressed") === "addressed" && !ctx.addressed) return;
    const room = ctx.membership ?? (await this.client.listRooms()).find((m) => m.room.id === message.roomId);
    if (!room) return; // left the room meanwhile
    const threadRootId = message.threadRootId;
    let binding = await this.claim(message.roomId, threadRootId);
    // Renewed while the turn runs: a runner that dies mid-turn holds the binding only a short while.
    const leaseMs = this.options.leaseMs ?? DEFAULT_LEASE_MS;
    let activity: TurnActivity | null = null;
    /** The person who stopped the turn from its room, if one did (whatever the adapter then threw). */
    let stoppedBy: () => TurnStopped | null = () => null;
    const renew = setInterval(
      () => void this.update(binding, { leaseMs }).catch((e: unknown) => this.log(`switchboard: could not renew binding ${binding.id}: ${messageOf(e)}`)),
      leaseMs / 3,
    );
    try {
      // A turn already finished for this message (the process stopped before acknowledging it).
      if (message.seq <= binding.lastSeq) {
        clearInterval(renew);
        await this.update(binding, { release: true });
        return;
      }
      this.turnStarted(binding.id, message, room);
      const { messages, omitted } = await this.delta(message, binding.lastSeq);
      const resuming = binding.externalId !== null;
      let resumed = resuming;
      let result: TurnResult;
      const thread = message.threadRootId ? { threadRootId: message.threadRootId } : {};
      const streamed = new StreamedReply(
        (body) => ctx.send(message.roomId, body, thread),
        (messageId, body) => this.client.request("message:edit", { messageId, body }),
        this.log,
      );
      // The turn as its room watches it, and the signal a Stop from there (or a hard stop) aborts.
      activity = await this.openTurn(message);
      const abort = new AbortController();
      const onStopping = () => abort.abort(this.abort.signal.reason);
      this.abort.signal.addEventListener("abort", onStopping, { once: true });
      if (activity) this.stoppable.set(activity.turnId, abort);
      stoppedBy = () => (abort.signal.reason instanceof TurnStopped ? abort.signal.reason : null);
      const conversation = Agent.conversationOf(message);
      const steer: Steerable = { messageId: message.id, activity, take: null, pending: [] };
      this.steerable.set(conversation, steer);
      const run = { activity: activity ?? NO_ACTIVITY, signal: abort.signal, steer };
      try {
        try {
          result = await this.turn(binding, room, messages, omitted, resuming ? [] : await this.history(message, messages[0].seq), streamed, run);
        } catch (error) {
          if (!(error instanceof ResumeFailed) || !resuming) throw error;
          // The session is gone: say so on the binding (the room shows it), then start a new one with context.
          binding = await this.update(binding, { resumeFailed: messageOf(error) });
          this.log(`switchboard: could not resume the ${binding.runtime} session in room ${message.roomId} (${messageOf(error)}); starting a new one`);
          resumed = false;
          result = await this.turn(binding, room, messages, omitted, await this.history(message, messages[0].seq), streamed, run);
        }
      } finally {
        this.abort.signal.removeEventListener("abort", onStopping);
        if (activity) this.stoppable.delete(activity.turnId);
        if (this.steerable.get(conversation) === steer) this.steerable.delete(conversation);
        // Replies the adapter never listened for: the next turn answers them.
        steer.take = null;
        for (const m of steer.pending.splice(0)) this.steerWith(steer, m);
      }
      // Stopped from the room, and the adapter returned what it had rather than throwing: stopped all the same.
      const stopReason = stoppedBy();
      if (stopReason) throw stopReason;
      if (!(await streamed.finish(result.reply)) && result.reply?.trim()) await this.reply(ctx, message, result.reply);
      for (const usage of result.usage ?? []) await ctx.reportUsage({ ...usage, roomId: message.roomId, messageId: message.id });
      clearInterval(renew);
      await this.update(binding, {
        externalId: result.externalId,
        ...(resumed ? { resumed: true as const } : {}),
        lastSeq: message.seq,
        status: result.status ?? "idle",
        openTaskId: result.openTaskId ?? null,
        ...(result.config ? { config: result.config } : {}),
        // A success clears the last error, but not the failed resume this very turn recovered from (the room shows it).
        ...(resuming && !resumed ? {} : { error: null }),
        release: true,
      });
      // The turn's model calls, as the adapter returned them (else what it reported as it went stands).
      if (activity && result.usage?.length) activity.usage(totalUsage(result));
      await activity?.end("done");
    } catch (error) {
      clearInterval(renew);
      if (this.abort.signal.aborted) {
        // Stopping: the turn is left for the next run, and the binding let go of as it was.
        await this.update(binding, { release: true }).catch(() => undefined);
        await activity?.end("failed", "The agent stopped before the turn ended; its next run takes it up again");
        throw new MessageAbandoned();
      }
      // The adapter may throw its framework's own abort error: a Stop from the room is what ended it.
      const stopped = error instanceof TurnStopped ? error : stoppedBy();
      // Stopped from the room: the session keeps what it did (its id was saved as it became known), and
      // the message is done with; the next message resumes the session.
      await this.update(binding, stopped ? { lastSeq: message.seq, status: "idle", release: true } : { error: messageOf(error), release: true }).catch(
        (e: unknown) => this.log(`switchboard: could not release binding ${binding.id}: ${messageOf(e)}`),
      );
      await activity?.end(stopped ? "stopped" : "failed", stopped ? undefined : messageOf(error));
      throw stopped ?? error; // the client reports the message as failed ("stopped by @dana")
    } finally {
      clearInterval(renew);
      this.turnEnded(binding.id);
    }
  }

  /** Opens the turn on `message` for its room to watch; null when the server does not show turns (or could not open it). */
  private async openTurn(message: MessageView): Promise<TurnActivity | null> {
    if (!this.showsTurns) return null;
    try {
      const turn = await this.client.startTurn({ messageId: message.id, runtime: this.adapter.runtime });
      return new TurnActivity(this.client, turn.id, this.log);
    } catch (error) {
      if (error instanceof SwitchboardError && error.code === "UNKNOWN_EVENT") this.showsTurns = false;
      else this.log(`switchboard: could not open the turn for its room to watch: ${messageOf(error)}`);
      return null;
    }
  }

  /** The work status says what the agent answers while a turn runs (kept alive by the client's heartbeat). */
  private turnStarted(bindingId: string, message: MessageView, room: MembershipView): void {
    const where = room.room.kind === "channel" ? ` in #${room.room.name}` : "";
    this.turns.set(bindingId, `Answering @${message.author.handle}${where}`);
    this.showStatus();
  }

  private turnEnded(bindingId: string): void {
    if (!this.turns.delete(bindingId)) return;
    this.showStatus();
  }

  private showStatus(): void {
    const texts = [...this.turns.values()];
    const text = texts.length === 0 ? "" : texts.length === 1 ? texts[0] : `${texts[0]} (and ${texts.length - 1} more)`;
    void this.client
      .setWorkStatus({ state: texts.length ? "working" : "idle", text })
      .catch((e: unknown) => this.log(`switchboard: could not set the work status: ${messageOf(e)}`));
  }

  /** Runs the adapter's turn on `binding` (a new session when its externalId is null). */
  private turn(
    binding: BindingView,
    room: MembershipView,
    messages: MessageView[],
    omitted: boolean,
    history: MessageView[],
    streamed: StreamedReply,
    run: { activity: TurnActivity | typeof NO_ACTIVITY; signal: AbortSignal; steer: Steerable },
  ): Promise<TurnResult> {
    const me = this.me!;
    let session = binding.externalId;
    return this.adapter.turn({
      binding,
      messages,
      history,
      prompt: formatPrompt({ me, room, messages, history, omitted, threadRootId: binding.threadRootId }),
      me,
      room,
      tools: (this.tools ??= this.options.tools ?? this.client.platformTools()),
      signal: run.signal,
      activity: run.activity,
      steering: {
        listen: (take) => {
          run.steer.take = take;
          for (const m of run.steer.pending.splice(0)) this.steerWith(run.steer, m);
        },
      },
      stream: (text) => streamed.update(text),
      onSession: async (externalId) => {
        if (externalId === session) return;
        session = externalId;
        await this.update(binding, { externalId });
      },
      // What the work board is told, the room watching the turn sees too: the task list as its plan, each file.
      work: {
        tasks: (tasks) => {
          run.activity.plan(tasks.map((t) => ({ title: t.title, status: t.status === "completed" || t.status === "in_progress" ? t.status : "pending" })));
          return this.reportWork(() => this.client.reportTasks({ bindingId: binding.id, ...(session ? { sessionId: session } : {}), tasks }));
        },
        files: (files) => {
          for (const f of files) run.activity.step({ key: `file:${f.operation}:${f.path}`, kind: "file", title: `${f.operation} ${f.path}`, status: "done" });
          return this.reportWork(() => this.client.reportFiles({ bindingId: binding.id, ...(session ? { sessionId: session } : {}), files }));
        },
      },
    });
  }

  /** A work report never fails a turn: the board misses it, the answer does not. */
  private async reportWork(report: () => Promise<unknown>): Promise<void> {
    try {
      await report();
    } catch (error) {
      this.log(`switchboard: could not report work: ${messageOf(error)}`);
    }
  }

  /** Claims the binding for this turn, waiting while another process's turn holds it. */
  private async claim(roomId: string, threadRootId: string | null): Promise<BindingView> {
    const where = this.adapter.where?.() ?? {};
    for (;;) {
      try {
        return await this.client.claimBinding({
          roomId,
          ...(threadRootId ? { threadRootId } : {}),
          runtime: this.adapter.runtime,
          holder: this.holder,
          ...(this.options.leaseMs ? { leaseMs: this.options.leaseMs } : {}),
          runner: where.runner ?? os.hostname(),
          host: where.host ?? os.hostname(),
          workdir: where.workdir ?? process.cwd(),
          ...(where.config ? { config: where.config } : {}),
        });
      } catch (error) {
        if (!(error instanceof SwitchboardError) || error.code !== "BINDING_BUSY" || this.abort.signal.aborted) throw error;
        await sleep(error.retryAfterMs ?? 500);
      }
    }
  }

  private update(
    binding: BindingView,
    fields: Omit<Parameters<SwitchboardClient["updateBinding"]>[0], "bindingId" | "holder" | "generation">,
  ): Promise<BindingView> {
    return this.client.updateBinding({ bindingId: binding.id, holder: this.holder, generation: binding.generation, ...fields });
  }

  /**
   * What the session has not seen: the conversation's messages (the room's top level, or the thread)
   * after `lastSeq`, through `message`, but its own; at most `deltaLimit`, the latest.
   */
  private async delta(message: MessageView, lastSeq: number): Promise<{ messages: MessageView[]; omitted: boolean }> {
    const limit = this.options.deltaLimit ?? 200;
    const from = Math.max(lastSeq, message.seq - 500);
    const found = (await this.conversation(message, from, message.seq)).filter((m) => m.author.id !== this.me?.id && m.seq > lastSeq);
    if (!found.some((m) => m.id === message.id)) found.push(message);
    const messages = found.slice(-limit);
    // Left out: the oldest found past `deltaLimit`, or anything before the window read (500 seqs).
    return { messages, omitted: found.length > messages.length || from > lastSeq };
  }

  /** Context for a new session: the conversation's last messages before `beforeSeq`, its own included. */
  private async history(message: MessageView, beforeSeq: number): Promise<MessageView[]> {
    const limit = this.options.historyLimit ?? 20;
    if (limit === 0 || beforeSeq <= 1) return [];
    return (await this.conversation(message, Math.max(0, beforeSeq - 1 - 200), beforeSeq - 1)).slice(-limit);
  }

  /** The messages of `message`'s conversation (its thread, or the room's top level) in (afterSeq, throughSeq]. */
  private async conversation(message: MessageView, afterSeq: number, throughSeq: number): Promise<MessageView[]> {
    const root = message.threadRootId;
    const inConversation = (m: MessageView) => (root ? m.id === root || m.threadRootId === root : m.threadRootId === null);
    const out: MessageView[] = [];
    for (let after = afterSeq; after < throughSeq;) {
      const page = await this.client.request("room:sync", { roomId: message.roomId, afterSeq: after, limit: Math.min(500, throughSeq - after) });
      out.push(...page.messages.filter((m) => m.seq <= throughSeq && !m.deletedAt && (m.kind === "text" || m.kind === "question") && inConversation(m)));
      if (!page.hasMore || page.lastSeq <= after) break;
      after = page.lastSeq;
    }
    return out;
  }

  /** Posts the turn's answer where the message was: the thread it is in, or the room's top level. */
  private async reply(ctx: MessageContext, message: MessageView, body: string): Promise<void> {
    try {
      await ctx.send(message.roomId, body, message.threadRootId ? { threadRootId: message.threadRootId } : {});
    } catch (error) {
      // The same turn, run again after a crash, answered in other words: the first answer stands.
      if (error instanceof SwitchboardError && error.code === "CONFLICT") return;
      throw error;
    }
  }
}
