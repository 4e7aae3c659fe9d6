// The Switchboard agent client. Connect with an API key, receive each message of your rooms exactly
// once and in order (per room), send with safe retries, and report what you did with a message.
//
//   const agent = new SwitchboardClient({ url, apiKey });
//   agent.onMessage(async (m) => { if (m.body.includes("ping")) await agent.reply(m, "pong"); });
//   await agent.connect();
//
// How "exactly once, in order" holds: every message carries its room's seq. The client keeps a
// cursor per room (the last seq its handler finished) in a CursorStore, and a room's messages go
// through one queue: anything at or below the cursor is a duplicate and is dropped; a jump past the
// next seq is a gap, filled with `room:sync` before going on. The server's own cursor (moved by
// `delivery:ack`) lets an agent with no local state resume where the server saw it stop.
import { randomUUID } from "node:crypto";
import { io, type Socket } from "socket.io-client";
import {
  PROTOCOL_VERSION,
  SOCKET_PATH,
  type Ack,
  type ChannelView,
  type ClientToServerEvents,
  type ConnectionListStatus,
  type ConnectionPage,
  type ConnectionView,
  type DeliveryMode,
  type DirectoryEntry,
  type ErrorShape,
  type Feature,
  type MembershipView,
  type MessageView,
  type ParticipantView,
  type ReceiptView,
  type RegisteredAgent,
  type ReplayPage,
  type RoomView,
  type SentMessageView,
  type UsageView,
  type ServerToClientEvents,
  type UsageReport,
} from "./contract.ts";
import { AnswerWaiters, type QuestionOutcome } from "./asking.ts";
import { MemoryCursorStore, type CursorStore } from "./cursors.ts";
import { RequestPacer } from "./pacing.ts";
import type { BindingView } from "./bindings.ts";
import { DEFAULT_STATUS_TTL_SEC, type FileTouchView, type TaskView, type WorkLinkView, type WorkStatusView } from "./work.ts";
import type { TurnView } from "./turns.ts";
import { FILES_PATH, type FileView } from "./files.ts";
import type { ReactionsChange } from "./reactions.ts";
import type { AskQuestionInput, QuestionAnswer, QuestionForViewer } from "./questions.ts";
import { MAX_WAIT_SECONDS, platformTools, TOOL_SPECS, type ToolName } from "./platform-tools.ts";
import type { PlatformTool } from "./runtime.ts";

export interface ClientOptions {
  /** The server's base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  apiKey: string;
  /** Where cursors are kept; defaults to memory (resume from the server's cursor after a restart). */
  cursors?: CursorStore;
  /** Hand the agent's own messages to onMessage too (default false; they still move the cursor). */
  includeOwn?: boolean;
  /** Send processing/processed/failed receipts around the handler for messages addressed to the agent (default true). */
  autoReceipts?: boolean;
  /** Per-attempt ack timeout for sends and requests (default 10 s). */
  requestTimeoutMs?: number;
  /** Attempts for a send before it fails (default 8). */
  sendAttempts?: number;
  reconnectDelayMs?: { min: number; max: number };
  /**
   * When the owner requires approval for an action (opening a DM, inviting, asking to connect), wait
   * for their answer and then do it, or fail with APPROVAL_DECLINED (default true). False: fail at
   * once with APPROVAL_REQUIRED and its `questionId`.
   */
  waitForApproval?: boolean;
  /**
   * Only look (default false): replay pages and messages are not acknowledged, no receipts are sent
   * and onMessage handlers are not called, so the server's delivered cursor stays where the agent's
   * own process left it. For tools that borrow an agent's key for a moment (the CLI); listen with `on()`.
   */
  passive?: boolean;
}

export interface MessageContext {
  /** The room as the agent is a member of it (kind, title, delivery mode). */
  membership: MembershipView | undefined;
  /** True when the message mentions the agent, or is in a dm or group with it. */
  addressed: boolean;
  /** True when delivered by replay after a (re)connect rather than live. */
  replayed: boolean;
  /**
   * Sends a message to any room as part of handling this one: its clientMsgId is derived from this
   * message (as `reply`'s is), so if the message is handled again after a crash, the send is answered
   * with the message stored the first time instead of being stored twice. It names this message as
   * its cause, so whoever drove this message drove the send too ("requested by" in usage).
   */
  send(roomId: string, body: string, opts?: { threadRootId?: string }): Promise<MessageView>;
  /**
   * Reports a model call made while handling this message, with a reportId derived from it, and
   * attributed to it (unless the report names another room or message): whoever drove the message is
   * who the call was for.
   */
  reportUsage(report: UsageReport): Promise<UsageView>;
  /**
   * Asks people and waits for the outcome (`SwitchboardClient.ask`), with a clientMsgId derived from
   * this message: if the agent crashes while waiting, handling the message again asks nothing new
   * and resolves with what was decided meanwhile.
   */
  ask(roomId: string, question: Question): Promise<QuestionOutcome>;
}

/** A question to ask (`ask`): everything `question:ask` takes but the room and the clientMsgId. */
export type Question = Omit<AskQuestionInput, "roomId" | "clientMsgId">;

export type MessageHandler = (message: MessageView, ctx: MessageContext) => unknown;

export class SwitchboardError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  /** APPROVAL_REQUIRED / APPROVAL_DECLINED: the question that asked the agent's owner. */
  readonly questionId?: string;
  constructor(shape: ErrorShape) {
    super(shape.message);
    this.name = "SwitchboardError";
    this.code = shape.code;
    this.retryable = shape.retryable;
    this.retryAfterMs = shape.retryAfterMs;
    this.questionId = shape.questionId;
  }
}

/**
 * Thrown by a handler that gives up on a message because the client is closing (`close()` was called):
 * the message is not acknowledged (no final receipt, the cursor stays), so the next run handles it.
 * Thrown at any other time, it fails the message like any error.
 */
export class MessageAbandoned extends Error {
  constructor(message = "Abandoned as the agent stops; handled again by its next run") {
    super(message);
    this.name = "MessageAbandoned";
  }
}

type AgentSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A call made while handling `message` served it (who drove it is who the call is for), unless the report names elsewhere. */
const servedBy = (message: MessageView, report: UsageReport): { messageId?: string } =>
  report.messageId || (report.roomId && report.roomId !== message.roomId) ? {} : { messageId: message.id };

type Listener<E extends keyof ServerToClientEvents> = ServerToClientEvents[E];

export class SwitchboardClient {
  readonly options: Required<Omit<ClientOptions, "cursors">>;
  readonly cursors: CursorStore;
  me: ParticipantView | null = null;
  private socket: AgentSocket | null = null;
  private handlers: MessageHandler[] = [];
  private readonly rooms = new Map<string, MembershipView>();
  private readonly queues = new Map<string, Promise<void>>();
  private readonly ackTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The messages handlers are working on, and how many ids each has handed out (see `derivedId`). */
  private readonly handling = new Map<string, number>();
  /** Receipts still being reported; close() waits for them. */
  private readonly background = new Set<Promise<void>>();
  private ready: Promise<void> | null = null;
  private rejectReady: ((error: SwitchboardError) => void) | null = null;
  /** Room work waits for the first session:ready: cursors start from the server's until then. */
  private firstSession!: Promise<void>;
  private closed = false;
  /** close() was called: no new handler starts. */
  private stopping = false;
  private fatal: SwitchboardError | null = null;
  /** Keeps requests within the server's limits (sdk/pacing.ts). */
  private readonly pacer = new RequestPacer();
  /** The work status this client keeps alive (sent again every third of its TTL), if any. */
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  /** ask() calls waiting for people (sdk/asking.ts). */
  private readonly answers = new AnswerWaiters((questionId) => this.request("question:get", { questionId }));

  constructor(options: ClientOptions) {
    this.options = {
      includeOwn: false,
      autoReceipts: true,
      requestTimeoutMs: 10_000,
      sendAttempts: 8,
      reconnectDelayMs: { min: 250, max: 10_000 },
      passive: false,
      waitForApproval: true,
      ...options,
    };
    this.cursors = options.cursors ?? new MemoryCursorStore();
  }

  /** Registers an agent with a person's onboarding token and returns its API key (shown once). */
  static async register(
    url: string,
    input: { onboardingToken: string; handle: string; displayName: string; description?: string; framework?: string; capabilities?: string[] },
  ): Promise<RegisteredAgent> {
    const res = await fetch(new URL("/api/v1/agents/register", url), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(input),
    });
    const body = (await res.json()) as Ack<RegisteredAgent>;
    if (!body.ok) throw new SwitchboardError(body.error);
    return body.data;
  }

  onMessage(handler: MessageHandler): this {
    this.handlers.push(handler);
    return this;
  }

  /** Any other server event: room:added, message:receipt, presence:update, ... */
  on<E extends keyof ServerToClientEvents>(event: E, listener: Listener<E>): this {
    this.requireSocket().on(event, listener as never);
    return this;
  }

  get connected(): boolean {
    return this.socket?.connected ?? false;
  }

  /** Connects and resolves on the first session:ready. Reconnects by itself until close(). */
  connect(): Promise<ParticipantView> {
    const socket = this.requireSocket();
    const first = new Promise<ParticipantView>((resolve, reject) => {
      socket.once("session:ready", (p) => resolve(p.participant));
      const onError = (error: Error & { data?: ErrorShape }) => {
        if (error.data && !error.data.retryable) {
          socket.off("connect_error", onError);
          reject(new SwitchboardError(error.data));
        }
      };
      socket.on("connect_error", onError);
    });
    this.fatal = null;
    socket.connect();
    return first;
  }

  private requireSocket(): AgentSocket {
    if (this.socket) return this.socket;
    const { min, max } = this.options.reconnectDelayMs;
    const socket: AgentSocket = io(this.options.url, {
      path: SOCKET_PATH,
      transports: ["websocket"],
      autoConnect: false,
      auth: { apiKey: this.options.apiKey, protocol: PROTOCOL_VERSION, features: ["message:batch"] satisfies Feature[] },
      reconnection: true,
      reconnectionDelay: min,
      reconnectionDelayMax: max,
      randomizationFactor: 0.5, // jitter, so a fleet of agents does not reconnect in lockstep
    });
    this.firstSession = new Promise((resolve) => socket.once("session:ready", () => resolve()));
    socket.on("session:ready", (p) => this.onReady(p.participant, p.rooms));
    socket.on("question:updated", ({ question }) => this.answers.updated(question));
    if (!this.options.passive) {
      socket.on("room:replay", (page, ack) => {
        let handled = false;
        void this.enqueue(page.roomId, async () => {
          handled = await this.handleReplay(page);
        }).then(() => ack({ ok: handled }));
      });
      socket.on("message:new", ({ roomId, message }) => void this.enqueue(roomId, () => this.handleLive(message)));
      socket.on("message:batch", ({ roomId, messages }) => {
        void this.enqueue(roomId, async () => {
          for (const message of messages) await this.handleLive(message);
        });
      });
    }
    socket.on("room:added", ({ room }) => {
      if (!this.rooms.has(room.id)) {
        this.rooms.set(room.id, { room, deliveryMode: "mentions", deliveredSeq: 0, readSeq: 0, processedSeq: 0 });
        void this.refreshRooms();
      }
    });
    socket.on("room:removed", ({ roomId }) => this.rooms.delete(roomId));
    // Renamed, a new topic, archived (then it is out of the room list, as the server's) or unarchived.
    socket.on("room:updated", ({ room }) => {
      const held = this.rooms.get(room.id);
      if (room.archivedAt) this.rooms.delete(room.id);
      else if (held) this.rooms.set(room.id, { ...held, room });
      else void this.refreshRooms();
    });
    socket.on("connect_error", (error: Error & { data?: ErrorShape }) => {
      // A refusal by the server (bad key, suspended) is final; a transport failure is retried by the manager.
      if (error.data && !error.data.retryable) this.fail(new SwitchboardError(error.data));
      else if (error.data) setTimeout(() => !this.closed && socket.connect(), this.backoff(1));
    });
    socket.on("disconnect", (reason) => {
      // The server itself closed us (suspended, key revoked): do not retry blindly; requests fail now.
      if (reason === "io server disconnect" && !this.closed) {
        this.fail(new SwitchboardError({ code: "DISCONNECTED", message: "The server closed the connection (suspended or key revoked?)", retryable: false }));
      }
    });
    this.socket = socket;
    return socket;
  }

  private onReady(me: ParticipantView, rooms: MembershipView[]): void {
    this.me = me;
    this.fatal = null;
    this.rooms.clear();
    for (const m of rooms) this.rooms.set(m.room.id, m);
    this.answers.recheck();
  }

  private async refreshRooms(): Promise<void> {
    try {
      for (const m of await this.request("room:list", {})) this.rooms.set(m.room.id, m);
    } catch {
      // Next session:ready refreshes them.
    }
  }

  private cursor(roomId: string): number {
    return this.cursors.get(roomId) ?? this.rooms.get(roomId)?.deliveredSeq ?? 0;
  }

  /** Runs room work one at a time, in arrival order. */
  private enqueue(roomId: string, work: () => Promise<void>): Promise<void> {
    const next = (this.queues.get(roomId) ?? this.firstSession).then(work).catch((error: unknown) => {
      console.error(`switchboard: room ${roomId}:`, error);
    });
    this.queues.set(roomId, next);
    return next;
  }

  /**
   * Whether the whole page was handled: closing, the messages not yet started are left, and the page
   * is acked `{ ok: false }` so that the server keeps them for the next run.
   */
  private async handleReplay(page: ReplayPage): Promise<boolean> {
    for (const message of page.messages) await this.deliver(message, true);
    this.advance(page.roomId, page.throughSeq);
    return page.messages.every((message) => message.seq <= this.cursor(page.roomId));
  }

  private async handleLive(message: MessageView): Promise<void> {
    const cursor = this.cursor(message.roomId);
    if (message.seq <= cursor) return;
    const mode = this.rooms.get(message.roomId)?.deliveryMode ?? "mentions";
    if (message.seq === cursor + 1 && mode === "all") return this.deliver(message, false);
    // A gap: something between our cursor and this message may be ours. Fill it in order.
    await this.catchUp(message.roomId);
    if (message.seq > this.cursor(message.roomId)) await this.deliver(message, false);
  }

  /** Fetches, in order, what the delivery mode selects after our cursor. */
  private async catchUp(roomId: string): Promise<void> {
    for (;;) {
      const page = await this.request("room:sync", { roomId, afterSeq: this.cursor(roomId), limit: 500, selected: true });
      for (const message of page.messages) await this.deliver(message, false);
      this.advance(roomId, page.lastSeq);
      if (!page.hasMore) return;
    }
  }

  private async deliver(message: MessageView, replayed: boolean): Promise<void> {
    if (message.seq <= this.cursor(message.roomId)) return;
    // Closing: what was not started is left unacknowledged, and replayed to the next run.
    if (this.stopping) return;
    const own = message.author.id === this.me?.id;
    if (!own || this.options.includeOwn) {
      const membership = this.rooms.get(message.roomId);
      // In `mentions` mode the server sends only what is addressed to the agent (services/messaging/addressed.ts);
      // in `all` mode, a mention or a dm or group is.
      const addressed =
        !!this.me &&
        (membership?.deliveryMode === "mentions" || message.mentions.includes(this.me.id) || (membership !== undefined && membership.room.kind !== "channel"));
      const receipts = this.options.autoReceipts && addressed && !own && message.kind === "text";
      // The final receipt waits for "processing" to be stored, so the last state is the one that stays.
      const processing = receipts ? this.receipt(message, "processing") : Promise.resolve();
      const ctx: MessageContext = {
        membership,
        addressed,
        replayed,
        send: (roomId, body, opts = {}) => this.send(roomId, body, { ...opts, clientMsgId: this.derivedId("msg", message.id), causeId: message.id }),
        reportUsage: (report) =>
          this.reportUsage({ ...servedBy(message, report), ...report, reportId: report.reportId ?? this.derivedId("usage", message.id) }),
        ask: (roomId, question) => this.ask(roomId, question, { clientMsgId: this.derivedId("msg", message.id) }),
      };
      this.handling.set(message.id, 0);
      try {
        for (const handler of this.handlers) await handler(message, ctx);
        if (receipts) this.track(processing.then(() => this.receipt(message, "processed")));
      } catch (error) {
        // Given up on as the client closes: not acknowledged, so the next run handles it again.
        if (error instanceof MessageAbandoned && this.stopping) return;
        if (receipts) this.track(processing.then(() => this.receipt(message, "failed", error instanceof Error ? error.message : String(error))));
        // A person stopped the turn from its room (sdk/runtime.ts TurnStopped): said in the receipt, not an error here.
        if (!(error instanceof Error && error.name === "TurnStopped")) console.error("switchboard: onMessage handler failed:", error);
      } finally {
        this.handling.delete(message.id);
      }
    }
    this.advance(message.roomId, message.seq, true);
  }

  /**
   * The n-th id handed out while `messageId` is being handled: `kind:messageId:n`. The same handler,
   * sending in the same order, gets the same ids when the message is handled again (after a crash,
   * the server replays what the agent had not acked), so its sends are answered with what was stored
   * the first time. Random outside a handler.
   */
  private derivedId(kind: "msg" | "usage", messageId: string): string {
    const n = this.handling.get(messageId);
    if (n === undefined) return randomUUID();
    this.handling.set(messageId, n + 1);
    return `${kind}:${messageId}:${n}`;
  }

  /**
   * Our cursor moves and is persisted; the server's follows shortly (batched). While closing, only
   * past a message that was handled (`handled`): a page's cursor does not skip what was left unhandled.
   */
  private advance(roomId: string, seq: number, handled = false): void {
    if (this.stopping && !handled) return;
    if (seq <= (this.cursors.get(roomId) ?? -1)) return;
    this.cursors.set(roomId, seq);
    this.cursors.flush?.();
    if (this.ackTimers.has(roomId)) return;
    this.ackTimers.set(
      roomId,
      setTimeout(() => {
        this.ackTimers.delete(roomId);
        this.flushAck(roomId);
      }, 100),
    );
  }

  /**
   * Tells the server the room's cursor, and keeps the answer among the work close() waits for: an ack
   * still on its way when the connection closes could be dropped with it, and a restart with no local
   * state would then see those messages again.
   */
  private flushAck(roomId: string): void {
    const seq = this.cursors.get(roomId);
    if (seq === undefined || !this.socket?.connected) return;
    const sent = this.socket
      .timeout(this.options.requestTimeoutMs)
      .emitWithAck("delivery:ack", { roomId, seq })
      .then(
        () => undefined,
        () => undefined, // the next ack, or the replay after a reconnect, covers it
      );
    this.background.add(sent);
    void sent.finally(() => this.background.delete(sent));
  }

  /** Sends a message; retries (same clientMsgId, so never twice) until acked or a final error. */
  /** `causeId`: the message this one answers (see `MessageContext.send`). */
  /** Sends a message; the answer says (`unreached`) whom its @mentions will not reach now. */
  /** `fileIds`: files uploaded to the room with `uploadFile`, attached to this message. */
  async send(
    roomId: string,
    body: string,
    opts: { threadRootId?: string; clientMsgId?: string; causeId?: string; fileIds?: string[] } = {},
  ): Promise<SentMessageView> {
    const payload = {
      roomId,
      body,
      clientMsgId: opts.clientMsgId ?? randomUUID(),
      ...(opts.threadRootId ? { threadRootId: opts.threadRootId } : {}),
      ...(opts.causeId ? { causeId: opts.causeId } : {}),
      ...(opts.fileIds?.length ? { fileIds: opts.fileIds } : {}),
    };
    return this.request("message:send", payload, this.options.sendAttempts);
  }

  /**
   * Uploads a file into a room over HTTP (any size up to the server's limit); attach it with
   * `send(roomId, body, { fileIds: [file.id] })`. A string is uploaded as UTF-8.
   */
  async uploadFile(roomId: string, name: string, bytes: Uint8Array | string): Promise<FileView> {
    const query = new URLSearchParams({ roomId, name });
    const res = await fetch(new URL(`${FILES_PATH}?${query}`, this.options.url), {
      method: "POST",
      headers: { authorization: `Bearer ${this.options.apiKey}`, "content-type": "application/octet-stream" },
      body: typeof bytes === "string" ? bytes : new Blob([bytes as Uint8Array<ArrayBuffer>]),
    });
    const answer = (await res.json().catch(() => null)) as Ack<FileView> | null;
    if (!answer) throw new SwitchboardError({ code: "UNAVAILABLE", message: `Upload answered HTTP ${res.status}`, retryable: true });
    if (!answer.ok) throw new SwitchboardError(answer.error);
    return answer.data;
  }

  /** A file the agent may read (a message's `files`), and its bytes: small ones over the socket, larger over HTTP. */
  async fetchFile(fileId: string): Promise<{ file: FileView; bytes: Uint8Array }> {
    const { contentBase64, ...file } = await this.request("file:get", { fileId });
    if (contentBase64 !== null) return { file, bytes: new Uint8Array(Buffer.from(contentBase64, "base64")) };
    const res = await fetch(new URL(file.url, this.options.url), { headers: { authorization: `Bearer ${this.options.apiKey}` } });
    if (!res.ok) {
      const answer = (await res.json().catch(() => null)) as Ack<never> | null;
      throw new SwitchboardError(answer && !answer.ok ? answer.error : { code: "UNAVAILABLE", message: `HTTP ${res.status}`, retryable: true });
    }
    return { file, bytes: new Uint8Array(await res.arrayBuffer()) };
  }

  /**
   * Replies in the message's thread (or the thread it belongs to). While a handler works on `message`,
   * the reply's clientMsgId is derived from it, so a message handled again after a crash is not
   * answered twice (see `MessageContext.send` for sends elsewhere).
   */
  reply(message: MessageView, body: string): Promise<MessageView> {
    return this.send(message.roomId, body, {
      threadRootId: message.threadRootId ?? message.id,
      clientMsgId: this.derivedId("msg", message.id),
      causeId: message.id,
    });
  }

  /** Adds an emoji reaction to a message (`on: false` removes it); answers the message's reactions as they now stand. */
  react(messageId: string, emoji: string, on = true): Promise<ReactionsChange> {
    return this.request("message:react", { messageId, emoji, on });
  }

  /** Pins (or with `pinned: false` unpins) a message in its room's header. */
  pin(messageId: string, pinned = true): Promise<MessageView> {
    return this.request("message:pin", { messageId, pinned });
  }

  processing(message: MessageView): Promise<ReceiptView> {
    return this.request("message:receipt", { messageId: message.id, state: "processing" });
  }
  processed(message: MessageView): Promise<ReceiptView> {
    return this.request("message:receipt", { messageId: message.id, state: "processed" });
  }
  failed(message: MessageView, reason: string): Promise<ReceiptView> {
    return this.request("message:receipt", { messageId: message.id, state: "failed", reason: reason.slice(0, 500) });
  }

  private track(work: Promise<void>): void {
    this.background.add(work);
    void work.finally(() => this.background.delete(work));
  }

  /** Reports a receipt in the background; resolves when stored (or given up on), never rejects. */
  private receipt(message: MessageView, state: ReceiptView["state"], reason?: string): Promise<void> {
    const payload = { messageId: message.id, state, ...(reason !== undefined ? { reason: reason.slice(0, 500) } : {}) };
    return this.request("message:receipt", payload, 3).then(
      () => {},
      () => {},
    );
  }

  /** The rooms the agent is in, with its delivery mode and cursors, fresh from the server. */
  async listRooms(): Promise<MembershipView[]> {
    await this.refreshRooms();
    return [...this.rooms.values()];
  }

  async setDeliveryMode(roomId: string, mode: DeliveryMode): Promise<MembershipView> {
    const view = await this.request("room:mode", { roomId, mode });
    this.rooms.set(roomId, view);
    return view;
  }

  // ---- discovery, consent and rooms ----

  /** Searches the workspace's people and agents by text, capability, kind or owner. */
  findParticipants(query: { text?: string; capability?: string; kind?: "human" | "agent"; ownerId?: string; limit?: number } = {}): Promise<DirectoryEntry[]> {
    return this.request("directory:search", query);
  }

  /** Asks to connect; the addressee (or, for an agent, its owner or policy) decides. */
  requestConnection(
    participantId: string,
    opts: { message?: string; scope?: { roomIds?: string[]; purposes?: string[] }; expiresInDays?: number } = {},
  ): Promise<ConnectionView> {
    return this.request("connection:request", { participantId, ...opts });
  }

  /** Called for requests this agent may answer (it can decline; its owner accepts). */
  onConnectionRequest(listener: (connection: ConnectionView) => void): this {
    return this.on("connection:request", ({ connection }) => listener(connection));
  }

  /** Called when a connection of this agent changes: accepted, declined, revoked, blocked. */
  onConnectionUpdate(listener: (connection: ConnectionView) => void): this {
    return this.on("connection:updated", ({ connection }) => listener(connection));
  }

  respondToConnection(connectionId: string, decision: "accept" | "decline"): Promise<ConnectionView> {
    return this.request("connection:respond", { connectionId, decision });
  }
  cancelConnection(connectionId: string): Promise<ConnectionView> {
    return this.request("connection:cancel", { connectionId });
  }
  revokeConnection(connectionId: string): Promise<ConnectionView> {
    return this.request("connection:revoke", { connectionId });
  }
  block(participantId: string): Promise<ConnectionView> {
    return this.request("connection:block", { participantId });
  }
  /** The newest connections of this agent (one page of up to 200); `listConnectionsPage` reads older ones. */
  async listConnections(status: ConnectionListStatus = "all"): Promise<ConnectionView[]> {
    return (await this.listConnectionsPage({ status, limit: 200 })).connections;
  }
  /** One page, newest change first; pass `nextCursor` back as `cursor` for the next (older) one. */
  listConnectionsPage(opts: { status?: ConnectionListStatus; cursor?: string; limit?: number } = {}): Promise<ConnectionPage> {
    return this.request("connection:list", opts);
  }

  /** Creates a channel (private by default for agents) with the given members. */
  createRoom(name: string, opts: { visibility?: "public" | "private"; topic?: string; memberIds?: string[] } = {}): Promise<RoomView> {
    return this.request("room:create", { name, visibility: opts.visibility ?? "private", topic: opts.topic, memberIds: opts.memberIds });
  }
  invite(roomId: string, participantIds: string[]): Promise<RoomView> {
    return this.request("room:invite", { roomId, participantIds });
  }
  /** Renames a channel, sets its topic, archives or unarchives it (the channel's owner, workspace admins). */
  updateRoom(roomId: string, change: Omit<RequestPayload<"room:update">, "roomId">): Promise<RoomView> {
    return this.request("room:update", { roomId, ...change });
  }
  /**
   * The status shown beside the agent's name (an emoji and a few words, until `statusUntil`): not its
   * work status (`setWorkStatus`). What is absent stays; empty emoji and text clear it.
   */
  async setProfileStatus(status: RequestPayload<"me:profile">): Promise<ParticipantView> {
    const me = await this.request("me:profile", status);
    this.me = me;
    return me;
  }
  /** The workspace's public channels, joined or not. */
  browseChannels(): Promise<ChannelView[]> {
    return this.request("room:browse", {});
  }
  /**
   * Joins a public channel, by id or as `#name`; the agent then receives it as its delivery mode
   * (default `mentions`) selects.
   */
  async joinRoom(roomId: string): Promise<RoomView> {
    const room = await this.request("room:join", { roomId });
    await this.refreshRooms();
    return room;
  }
  /** Leaves a channel or group. */
  async leaveRoom(roomId: string): Promise<void> {
    await this.request("room:leave", { roomId });
    this.rooms.delete(roomId);
  }
  /** Opens (or finds) the direct conversation with these participants. */
  openDirect(participantIds: string[]): Promise<RoomView> {
    return this.request("room:dm", { participantIds });
  }
  /**
   * Reports one model call for attribution and cost. Pass `reportId` to make retries safe across
   * restarts (one is generated otherwise; `MessageContext.reportUsage` derives it from the message being
   * handled); leave out `costUsd` to have the server price it.
   */
  reportUsage(report: UsageReport): Promise<UsageView> {
    return this.request("usage:report", { ...report, reportId: report.reportId ?? randomUUID() }, this.options.sendAttempts);
  }

  /**
   * Asks people a question in a room and waits until it is answered, expires (resolving with its
   * expiry decision) or is cancelled. The wait survives reconnects; `opts.clientMsgId` (derived for
   * you by a handler's `ctx.ask`) makes asking again after a crash return the first question.
   *
   *   const { answer } = await agent.ask(roomId, { prompt: "Deploy?", kind: "approval", audience: { type: "owner" }, expiresInSeconds: 600 });
   */
  async ask(roomId: string, question: Question, opts: { clientMsgId?: string } = {}): Promise<QuestionOutcome> {
    const asked = await this.postQuestion(roomId, question, opts);
    return this.waitForAnswer(asked.id);
  }

  /** Asks without waiting: the question as stored (then `waitForAnswer(question.id)` when you like). */
  postQuestion(roomId: string, question: Question, opts: { clientMsgId?: string } = {}): Promise<QuestionForViewer> {
    return this.request("question:ask", { ...question, roomId, clientMsgId: opts.clientMsgId ?? randomUUID() }, this.options.sendAttempts);
  }

  /** Resolves when the question is decided (at once if it already is). */
  waitForAnswer(questionId: string): Promise<QuestionOutcome> {
    return this.answers.wait(questionId);
  }

  /** Answers a question put to the agent's participant (people answer; agents get FORBIDDEN). */
  answerQuestion(questionId: string, answer: QuestionAnswer): Promise<QuestionForViewer> {
    return this.request("question:answer", { questionId, answer });
  }

  getQuestion(questionId: string): Promise<QuestionForViewer> {
    return this.request("question:get", { questionId });
  }

  /** The agent's own questions (`for: "asked"`, default here), open or all. */
  listQuestions(opts: { for?: "me" | "asked"; status?: "open" | "all"; roomId?: string; limit?: number } = {}): Promise<QuestionForViewer[]> {
    return this.request("question:list", { for: "asked", ...opts });
  }

  cancelQuestion(questionId: string): Promise<QuestionForViewer> {
    return this.request("question:cancel", { questionId });
  }

  /**
   * Takes this agent's runtime binding for (room, thread, runtime) for one turn, making it on first
   * use; `holder` is this process's id (BINDING_BUSY while another process's turn holds it). The
   * high-level Agent (sdk/agent.ts) does this around each turn; see docs/protocol.md, "Runtime bindings".
   */
  claimBinding(input: RequestPayload<"binding:claim">): Promise<BindingView> {
    return this.request("binding:claim", input);
  }
  /** Records what the turn holding a binding did: session id, resumed or not, last seq, status, release. */
  updateBinding(input: RequestPayload<"binding:update">): Promise<BindingView> {
    return this.request("binding:update", input);
  }
  getBinding(key: RequestPayload<"binding:get">): Promise<BindingView | null> {
    return this.request("binding:get", key);
  }
  listBindings(opts: RequestPayload<"binding:list"> = {}): Promise<BindingView[]> {
    return this.request("binding:list", opts);
  }
  /** Lets a binding's session go: the next turn there starts a new one. */
  closeBinding(bindingId: string): Promise<BindingView> {
    return this.request("binding:close", { bindingId });
  }

  // ---- the work board (docs/protocol.md, "Work") ----

  /**
   * Says what the agent is doing. A text alone is the directory's status line. A state (working,
   * waiting for someone, blocked, idle) holds for `ttlSec` (default 120 s): this client sends it again
   * every third of that until the next call or `close()` (which says idle), so if the process dies it
   * clears itself within the TTL.
   */
  setWorkStatus(status: string): Promise<{ workStatus: string }>;
  setWorkStatus(status: RequestPayload<"work:status">): Promise<WorkStatusView>;
  async setWorkStatus(status: string | RequestPayload<"work:status">): Promise<{ workStatus: string } | WorkStatusView> {
    if (typeof status === "string") return this.request("me:status", { workStatus: status });
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    const view = await this.request("work:status", status);
    if (status.state !== "idle") {
      const every = ((status.ttlSec ?? DEFAULT_STATUS_TTL_SEC) * 1000) / 3;
      this.heartbeat = setInterval(
        () => void this.request("work:status", status).catch((error: unknown) => console.error("switchboard: status heartbeat failed:", error)),
        every,
      );
      this.heartbeat.unref?.();
    }
    return view;
  }

  /**
   * Reports the agent's tasks for a session, in order: by default the session's whole list (as a todo
   * tool keeps it), so tasks left out are dropped. Give `sessionId` (the runtime's) or `roomId`.
   */
  reportTasks(input: RequestPayload<"work:tasks">): Promise<{ tasks: TaskView[]; dropped: number }> {
    return this.request("work:tasks", input);
  }

  /** Reports files the agent read, edited, created or deleted (or commands it ran), for the work board. */
  reportFiles(input: RequestPayload<"work:files">): Promise<{ files: FileTouchView[] }> {
    return this.request("work:files", input);
  }

  /** Ties a branch, a commit or a pull request (its URL) to the session and task that produced it. */
  linkWork(input: RequestPayload<"work:link">): Promise<WorkLinkView> {
    return this.request("work:link", input);
  }

  // ---- turns, watched live in their room (sdk/turns.ts) ----

  /** Opens the agent's turn on a message it answers; the room shows it live under that message. The Agent does this around each turn. */
  startTurn(input: RequestPayload<"turn:start">): Promise<TurnView> {
    return this.request("turn:start", input);
  }

  /** Reports a turn's steps (new by key, or updates) and its tokens so far. */
  reportTurnSteps(input: RequestPayload<"turn:steps">): Promise<TurnView> {
    return this.request("turn:steps", input);
  }

  endTurn(input: RequestPayload<"turn:end">): Promise<TurnView> {
    return this.request("turn:end", input);
  }

  /** A person stopped one of this agent's turns: end it (the Agent aborts the turn's signal). */
  onTurnInterrupt(listener: (interrupt: Parameters<ServerToClientEvents["turn:interrupt"]>[0]) => void): this {
    return this.on("turn:interrupt", listener);
  }

  // ---- platform tools ----

  /**
   * Runs a platform tool (the MCP server's: sdk/platform-tools.ts) as this agent over `tool:call`, and
   * resolves with its compact JSON result. A tool that waits (ask_human, get_answer) has its wait
   * added to the ack timeout. After a timeout or a lost connection only a tool that reads, or a
   * send_message with a client_id, is sent again; another may have been applied, so it fails with
   * TIMEOUT (as `request` does for events that are not idempotent).
   */
  callTool(name: ToolName, args: Record<string, unknown> = {}, opts: { timeoutMs?: number } = {}): Promise<Record<string, unknown>> {
    const spec: { readOnly: boolean; waits?: boolean } | undefined = TOOL_SPECS[name];
    const idempotent = spec?.readOnly === true || (name === "send_message" && args.client_id !== undefined);
    const timeoutMs = opts.timeoutMs ?? this.options.requestTimeoutMs + (spec?.waits ? MAX_WAIT_SECONDS * 1000 : 0);
    // Paced (and named in errors) per tool: one tool's RATE_LIMITED holds back only that tool's calls.
    return this.request("tool:call", { name, args }, 3, { timeoutMs, idempotent, key: `tool:call ${name}` });
  }

  /** The platform tools `names` (default: those an adapter's model gets), each run by `callTool`. */
  platformTools(names?: readonly ToolName[]): PlatformTool[] {
    return platformTools((name, args) => this.callTool(name, args), names);
  }

  /**
   * An acked request with retries on timeouts, disconnects and retryable errors. A request that is not
   * idempotent (`room:create`, `room:leave`, connection changes) is sent again only when the server
   * refused it before doing anything (RATE_LIMITED): after a timeout or a lost connection it may have
   * been applied, so it fails with code TIMEOUT instead and the caller checks. `opts` (for `tool:call`,
   * whose tools differ): the ack timeout, whether it is idempotent, and the name it is paced and
   * reported under.
   */
  async request<E extends RequestEvent>(
    event: E,
    payload: RequestPayload<E>,
    attempts = 3,
    opts: { timeoutMs?: number; idempotent?: boolean; key?: string } = {},
  ): Promise<RequestResult<E>> {
    const socket = this.requireSocket();
    const idempotent = opts.idempotent ?? IDEMPOTENT.has(event);
    const key = opts.key ?? event;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (this.closed) throw new SwitchboardError({ code: "CLOSED", message: "The client was closed", retryable: false });
      if (this.fatal) throw this.fatal;
      await this.waitConnected(); // rejects only with a final refusal
      let reply: Ack<RequestResult<E>>;
      await this.pacer.acquire(key);
      try {
        const timed = socket.timeout(opts.timeoutMs ?? this.options.requestTimeoutMs);
        reply = await (timed.emitWithAck as (e: string, p: unknown) => Promise<Ack<RequestResult<E>>>).call(timed, event, payload);
        this.pacer.settle(
          key,
          reply.ok ? { ok: true } : { ok: false, rateLimited: reply.error.code === "RATE_LIMITED", retryAfterMs: reply.error.retryAfterMs },
        );
      } catch (error) {
        this.pacer.settle(key, { ok: false, rateLimited: false });
        // No answer: the request may or may not have been applied.
        if (!idempotent) {
          throw new SwitchboardError({
            code: "TIMEOUT",
            message: `${key} got no answer in time; it may have been applied: check before sending it again`,
            retryable: false,
          });
        }
        lastError = error;
        await sleep(this.backoff(attempt));
        continue;
      }
      if (reply.ok) return reply.data;
      const error = new SwitchboardError(reply.error);
      if (error.code === "APPROVAL_REQUIRED" && error.questionId && this.options.waitForApproval) {
        // The owner decides; approved, the same request goes through (this attempt does not count).
        const outcome = await this.answers.wait(error.questionId);
        if (outcome.status === "answered" && (outcome.answer as { approved?: boolean } | null)?.approved) {
          attempt--;
          continue;
        }
        throw new SwitchboardError({
          code: "APPROVAL_DECLINED",
          message: `${key} was not approved (${outcome.status === "answered" ? "declined" : outcome.status})`,
          retryable: false,
          questionId: error.questionId,
        });
      }
      if (!error.retryable || (error.code !== "RATE_LIMITED" && !idempotent)) throw error;
      lastError = error;
      // RATE_LIMITED: the pacer holds this event's requests back until retryAfterMs has passed.
      if (error.code !== "RATE_LIMITED") await sleep(this.backoff(attempt));
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }

  private waitConnected(): Promise<void> {
    const socket = this.requireSocket();
    if (this.fatal) return Promise.reject(this.fatal);
    if (socket.connected && this.me) return Promise.resolve();
    this.ready ??= new Promise<void>((resolve, reject) => {
      this.rejectReady = reject;
      socket.once("session:ready", () => {
        this.ready = null;
        this.rejectReady = null;
        resolve();
      });
    });
    return this.ready;
  }

  /** A final refusal: remembered, and every request waiting for a connection fails with it. */
  private fail(error: SwitchboardError): void {
    this.fatal = error;
    this.answers.abort(error);
    this.rejectReady?.(error);
    this.ready = null;
    this.rejectReady = null;
  }

  private backoff(attempt: number): number {
    const { min, max } = this.options.reconnectDelayMs;
    const base = Math.min(max, min * 2 ** (attempt - 1));
    return base / 2 + Math.random() * (base / 2);
  }

  /**
   * Closes the client: the handlers running finish (their messages are acknowledged), what waits
   * behind them is not started (it is replayed to the next run), acks and cursors are flushed, and a
   * work status it kept alive is set to idle.
   */
  async close(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.queues.values());
    await Promise.all(this.background);
    if (this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
      if (this.socket?.connected) await this.request("work:status", { state: "idle" }, 1).catch(() => undefined);
    }
    // The last acks, answered before the connection closes (within the request timeout; a busy server
    // may take more than a second): the server's cursor then holds everything handled, and a restart
    // with no local state resumes right after it.
    const lastAcks: Promise<unknown>[] = [];
    for (const [roomId, timer] of this.ackTimers) {
      clearTimeout(timer);
      const seq = this.cursors.get(roomId);
      if (seq !== undefined && this.socket?.connected)
        lastAcks.push(
          this.socket
            .timeout(this.options.requestTimeoutMs)
            .emitWithAck("delivery:ack", { roomId, seq })
            .catch(() => undefined),
        );
    }
    this.ackTimers.clear();
    this.cursors.flush?.();
    this.closed = true;
    await Promise.all(lastAcks);
    this.socket?.disconnect();
  }
}

type RequestEvent = Exclude<keyof ClientToServerEvents, "room:typing">;

/**
 * Requests that may be sent again after a timeout or a lost connection: a repeat changes nothing more
 * (reads, a send with its clientMsgId, a report with its reportId, setting a value). The others are
 * repeated only after a refusal that says nothing was done.
 */
const IDEMPOTENT = new Set<RequestEvent>([
  "message:send",
  "message:edit",
  "message:delete",
  "room:sync",
  "room:read",
  "room:list",
  "room:mode",
  "room:join",
  "room:invite",
  "room:dm",
  "delivery:ack",
  "message:receipt",
  "directory:search",
  "connection:list",
  "me:status",
  "me:profile",
  "room:update",
  "work:status",
  "work:tasks",
  "work:link",
  "usage:report",
  "question:ask",
  "question:get",
  "binding:claim",
  "binding:get",
  "binding:list",
  "binding:close",
  "question:list",
  "turn:start",
  "turn:steps",
  "turn:end",
]);
type RequestPayload<E extends RequestEvent> = Parameters<ClientToServerEvents[E]>[0];
type AckOf<E extends RequestEvent> = NonNullable<Parameters<ClientToServerEvents[E]>[1]>;
type RequestResult<E extends RequestEvent> = Extract<Parameters<AckOf<E>>[0], { ok: true }>["data"];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
