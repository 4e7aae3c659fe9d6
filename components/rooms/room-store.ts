// The state of one open room: its main timeline, the open thread, the outbox of sends in flight and
// who is typing. Fetched history, sync replies and live socket events all merge here by seq, so the
// order they arrive in does not matter: an event that lands while history is loading is kept, a
// duplicate is dropped, and a gap in seq triggers a `room:sync` from the last seq seen.
import { type Ack, type ErrorShape, type MessageView, type ReceiptView, type UnreachedMention } from "@switchboard/sdk/contract";
import type { ReactionsChange } from "@switchboard/sdk/reactions";
import type { FileView } from "@switchboard/sdk/files";
import type { AppSocket } from "@/components/providers/socket-provider";

export interface PendingMessage {
  clientMsgId: string;
  body: string;
  /** Uploaded already; attached by the send. */
  files: FileView[];
  threadRootId: string | null;
  createdAt: string;
  status: "sending" | "failed";
  error: ErrorShape | null;
}

export interface ThreadState {
  rootId: string;
  root: MessageView | null;
  replies: MessageView[];
  status: "loading" | "ready" | "error";
  error: ErrorShape | null;
  /** Earlier replies than the loaded ones exist (a thread opens at its newest page). */
  hasEarlier: boolean;
  loadingEarlier: boolean;
}

export interface TypingEntry {
  participantId: string;
  threadRootId: string | null;
  until: number;
}

export interface RoomSnapshot {
  items: MessageView[];
  pending: PendingMessage[];
  status: "loading" | "ready" | "error";
  error: ErrorShape | null;
  hasMore: boolean;
  loadingOlder: boolean;
  /** Highest seq seen in the room (main timeline, threads and events). */
  cursor: number;
  thread: ThreadState | null;
  typing: TypingEntry[];
  /** The last message the viewer sent named someone it will not reach now: said until dismissed or the next send. */
  unreached: UnreachedNotice | null;
}

export interface UnreachedNotice {
  messageId: string;
  threadRootId: string | null;
  mentions: UnreachedMention[];
}

export interface RoomApi {
  history(input: { roomId: string; beforeSeq?: number; limit: number }): Promise<{ messages: MessageView[]; hasMore: boolean }>;
  thread(input: { messageId: string; beforeSeq?: number; limit: number }): Promise<{ root: MessageView; replies: MessageView[]; hasMore: boolean }>;
}

export const PAGE_SIZE = 50;
const ACK_TIMEOUT_MS = 15_000;
const TYPING_SHOW_MS = 5_000;

const timeOf = (iso: string | null): string => iso ?? "";

/** Of two versions of one message, the later one: deletion is final, then the later edit wins. */
export function fresher(a: MessageView, b: MessageView): MessageView {
  if (a.deletedAt && !b.deletedAt) return a;
  if (b.deletedAt && !a.deletedAt) return b;
  const [newer, older] = timeOf(b.editedAt) >= timeOf(a.editedAt) ? [b, a] : [a, b];
  if (older.replyCount > newer.replyCount) {
    return { ...newer, replyCount: older.replyCount, lastReplyAt: older.lastReplyAt };
  }
  return newer;
}

function sameVersion(a: MessageView, b: MessageView): boolean {
  return (
    a.editedAt === b.editedAt &&
    a.deletedAt === b.deletedAt &&
    a.replyCount === b.replyCount &&
    a.body === b.body &&
    receiptsKey(a) === receiptsKey(b) &&
    reactionsKey(a) === reactionsKey(b) &&
    a.pinned?.at === b.pinned?.at
  );
}

function reactionsKey(m: MessageView): string {
  return (m.reactions ?? []).map((r) => `${r.emoji}:${r.participantIds.join("+")}`).join(",");
}

function receiptsKey(m: MessageView): string {
  return (m.receipts ?? []).map((r) => `${r.participantId}:${r.state}:${r.at}`).join(",");
}

const transportError = (message: string): ErrorShape => ({ code: "UNAVAILABLE", message, retryable: true });

export class RoomStore {
  readonly roomId: string;
  private readonly api: RoomApi;
  private readonly meId: string;
  private socket: AppSocket | null = null;

  private bySeq = new Map<number, MessageView>();
  private threadBySeq = new Map<number, MessageView>();
  private outbox = new Map<string, PendingMessage>();
  private typingMap = new Map<string, TypingEntry>();
  private typingTimer: ReturnType<typeof setTimeout> | null = null;
  private syncing: Promise<void> | null = null;
  private syncAgain = false;
  /** The seq the next sync must start after when a gap was seen (the cursor has moved past it by then). */
  private gapAfter: number | null = null;

  private snapshot: RoomSnapshot = {
    items: [],
    pending: [],
    status: "loading",
    error: null,
    hasMore: false,
    loadingOlder: false,
    cursor: 0,
    thread: null,
    typing: [],
    unreached: null,
  };
  private listeners = new Set<() => void>();

  /** Called with messages that arrived in the room from other people (for read marks). */
  onActivity: (() => void) | null = null;

  constructor(roomId: string, meId: string, api: RoomApi) {
    this.roomId = roomId;
    this.meId = meId;
    this.api = api;
  }

  // ---- external store protocol (useSyncExternalStore) ----
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getSnapshot = (): RoomSnapshot => this.snapshot;

  private set(patch: Partial<RoomSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of this.listeners) l();
  }

  /** Stops timers; the store stays usable (React may mount the same component twice in development). */
  dispose(): void {
    if (this.typingTimer) clearTimeout(this.typingTimer);
    this.typingTimer = null;
  }

  setSocket(socket: AppSocket | null): void {
    this.socket = socket;
  }

  // ---- loading ----

  private started = false;

  /** The newest page of history; once per store unless `force` (a retry after an error). */
  async loadInitial(force = false): Promise<void> {
    if (this.started && !force) return;
    this.started = true;
    this.set({ status: "loading", error: null });
    try {
      const page = await this.api.history({ roomId: this.roomId, limit: PAGE_SIZE });
      this.mergeMain(page.messages, { hasMore: page.hasMore });
      this.set({ status: "ready" });
      // Close the window between the history query and the socket's live feed.
      void this.sync();
    } catch (error) {
      this.set({ status: "error", error: asShape(error) });
    }
  }

  async loadOlder(): Promise<void> {
    const { hasMore, loadingOlder, items, status } = this.snapshot;
    if (!hasMore || loadingOlder || status !== "ready" || items.length === 0) return;
    this.set({ loadingOlder: true });
    try {
      const page = await this.api.history({ roomId: this.roomId, beforeSeq: items[0].seq, limit: PAGE_SIZE });
      this.mergeMain(page.messages, { hasMore: page.hasMore, loadingOlder: false });
    } catch {
      this.set({ loadingOlder: false });
    }
  }

  /** Fetches everything after the cursor over the socket, page by page. One at a time. */
  sync(): Promise<void> {
    if (this.syncing) {
      this.syncAgain = true;
      return this.syncing;
    }
    // `finally` runs after this assignment even when runSync returns at once.
    const run: Promise<void> = this.runSync().finally(() => {
      if (this.syncing === run) this.syncing = null;
    });
    this.syncing = run;
    return run;
  }

  private async runSync(): Promise<void> {
    do {
      this.syncAgain = false;
      let after = Math.min(this.gapAfter ?? Infinity, this.snapshot.cursor);
      this.gapAfter = null;
      try {
        for (;;) {
          const socket = this.socket;
          if (!socket?.connected || this.snapshot.status !== "ready") return this.keepGap(after);
          const reply = await socket.timeout(ACK_TIMEOUT_MS).emitWithAck("room:sync", { roomId: this.roomId, afterSeq: after, limit: 500 });
          if (!reply.ok) return this.keepGap(after);
          this.receiveMany(reply.data.messages);
          if (!reply.data.hasMore || reply.data.messages.length === 0) break;
          after = reply.data.messages[reply.data.messages.length - 1].seq;
        }
      } catch {
        // Timed out or disconnected: the next session:ready syncs again, from where this one stopped.
        return this.keepGap(after);
      }
    } while (this.syncAgain);
  }

  /** A sync that did not finish: the next one starts where it stopped, not at the cursor. */
  private keepGap(after: number): void {
    this.gapAfter = Math.min(this.gapAfter ?? after, after);
  }

  // ---- merging ----

  private mergeMain(messages: MessageView[], patch: Partial<RoomSnapshot> = {}): void {
    let changed = false;
    let appendOnly = true;
    const last = this.snapshot.items.at(-1)?.seq ?? -1;
    let cursor = this.snapshot.cursor;
    for (const m of messages) {
      cursor = Math.max(cursor, m.seq);
      if (m.threadRootId) continue;
      const existing = this.bySeq.get(m.seq);
      const next = existing ? fresher(existing, m) : m;
      if (existing && (existing === next || sameVersion(existing, next))) continue;
      this.bySeq.set(m.seq, next);
      changed = true;
      if (existing || m.seq <= last) appendOnly = false;
    }
    if (changed) {
      let items: MessageView[];
      if (appendOnly) {
        const added = messages.filter((m) => !m.threadRootId && m.seq > last).map((m) => this.bySeq.get(m.seq)!);
        const unique = [...new Map(added.map((m) => [m.seq, m])).values()].sort((a, b) => a.seq - b.seq);
        items = [...this.snapshot.items, ...unique];
      } else {
        items = [...this.bySeq.values()].sort((a, b) => a.seq - b.seq);
      }
      patch.items = items;
      this.reconcileOutbox(messages, patch);
    }
    patch.cursor = cursor;
    this.set(patch);
  }

  /** Applies stored messages from any source (socket, sync, ack). */
  receiveMany(messages: MessageView[]): void {
    if (messages.length === 0) return;
    const patch: Partial<RoomSnapshot> = {};
    this.mergeThread(messages, patch);
    this.patchThreadRoot(messages, patch);
    this.reconcileOutbox(messages, patch);
    this.mergeMain(messages, patch);
  }

  /** A live message:new / message:updated. Detects a gap in seq and asks for what was missed. */
  receiveLive(message: MessageView, isNew: boolean): void {
    if (message.roomId !== this.roomId) return;
    this.receiveNew([message], isNew);
  }

  /** A live message:batch: new messages with consecutive seqs, in order. */
  receiveBatch(roomId: string, messages: MessageView[]): void {
    if (roomId !== this.roomId || messages.length === 0) return;
    this.receiveNew(messages, true);
  }

  private receiveNew(messages: MessageView[], isNew: boolean): void {
    const gap = isNew && this.snapshot.status === "ready" && messages[0].seq > this.snapshot.cursor + 1;
    if (gap) this.keepGap(this.snapshot.cursor); // receiving moves the cursor past the gap
    this.receiveMany(messages);
    const others = isNew ? messages.filter((m) => m.author.id !== this.meId) : [];
    for (const m of others) this.clearTyping(m.author.id);
    if (others.length) this.onActivity?.();
    if (gap) void this.sync();
  }

  /** An agent's processing receipt (message:receipt): replaces that agent's previous one on the message. */
  receiveReceipt(p: { roomId: string; seq: number; messageId: string; receipt: ReceiptView }): void {
    if (p.roomId !== this.roomId) return;
    this.patchMessage(p, (m) => ({
      ...m,
      receipts: [...(m.receipts ?? []).filter((r) => r.participantId !== p.receipt.participantId), p.receipt].sort((a, b) =>
        a.participantId.localeCompare(b.participantId),
      ),
    }));
  }

  /** A message's reactions changed (message:reactions, or the ack of the viewer's own): all of them, as they now stand. */
  receiveReactions(p: ReactionsChange): void {
    if (p.roomId !== this.roomId) return;
    this.patchMessage(p, (m) => ({ ...m, reactions: p.reactions }));
  }

  /** Changes one message where it is shown (the timeline, the open thread's replies or root), in place. */
  private patchMessage(p: { seq: number; messageId: string }, change: (m: MessageView) => MessageView): void {
    const patch: Partial<RoomSnapshot> = {};
    const main = this.bySeq.get(p.seq);
    if (main && main.id === p.messageId) {
      this.bySeq.set(p.seq, change(main));
      patch.items = this.snapshot.items.map((m) => (m.seq === p.seq ? this.bySeq.get(p.seq)! : m));
    }
    const reply = this.threadBySeq.get(p.seq);
    const thread = this.snapshot.thread;
    if (thread && reply && reply.id === p.messageId) {
      this.threadBySeq.set(p.seq, change(reply));
      patch.thread = { ...thread, replies: this.sortedReplies() };
    } else if (thread?.root?.id === p.messageId) {
      patch.thread = { ...thread, root: change(thread.root) };
    }
    if (patch.items || patch.thread) this.set(patch);
  }

  private reconcileOutbox(messages: MessageView[], patch: Partial<RoomSnapshot>): void {
    let changed = false;
    for (const m of messages) {
      if (m.author.id === this.meId && this.outbox.delete(m.clientMsgId)) changed = true;
    }
    if (changed) patch.pending = [...this.outbox.values()];
  }

  private patchThreadRoot(messages: MessageView[], patch: Partial<RoomSnapshot>): void {
    const thread = patch.thread ?? this.snapshot.thread;
    if (!thread) return;
    const root = messages.find((m) => m.id === thread.rootId);
    if (!root) return;
    patch.thread = { ...thread, root: thread.root ? fresher(thread.root, root) : root };
  }

  private mergeThread(messages: MessageView[], patch: Partial<RoomSnapshot>): void {
    const thread = this.snapshot.thread;
    if (!thread) return;
    let changed = false;
    for (const m of messages) {
      if (m.threadRootId !== thread.rootId) continue;
      const existing = this.threadBySeq.get(m.seq);
      const next = existing ? fresher(existing, m) : m;
      if (existing && sameVersion(existing, next)) continue;
      this.threadBySeq.set(m.seq, next);
      changed = true;
    }
    if (changed) {
      patch.thread = { ...thread, replies: this.sortedReplies() };
    }
  }

  // ---- threads ----

  async openThread(rootId: string, knownRoot?: MessageView): Promise<void> {
    if (this.snapshot.thread?.rootId === rootId) return;
    this.threadBySeq = new Map();
    const root = knownRoot ?? this.snapshot.items.find((m) => m.id === rootId) ?? null;
    this.set({ thread: { rootId, root, replies: [], status: "loading", error: null, hasEarlier: false, loadingEarlier: false } });
    try {
      const data = await this.api.thread({ messageId: rootId, limit: PAGE_SIZE });
      if (this.snapshot.thread?.rootId !== rootId) return;
      const current = this.snapshot.thread;
      this.set({
        thread: {
          ...current,
          root: current.root ? fresher(current.root, data.root) : data.root,
          replies: this.mergeReplies(data.replies),
          status: "ready",
          error: null,
          hasEarlier: data.hasMore,
        },
      });
    } catch (error) {
      if (this.snapshot.thread?.rootId !== rootId) return;
      this.set({ thread: { ...this.snapshot.thread, status: "error", error: asShape(error) } });
    }
  }

  /** The page of replies before the earliest loaded one. */
  async loadEarlierReplies(): Promise<void> {
    const thread = this.snapshot.thread;
    if (!thread || thread.status !== "ready" || !thread.hasEarlier || thread.loadingEarlier || thread.replies.length === 0) return;
    const { rootId } = thread;
    this.set({ thread: { ...thread, loadingEarlier: true } });
    const settle = (patch: Partial<ThreadState>) => {
      const current = this.snapshot.thread;
      if (current?.rootId === rootId) this.set({ thread: { ...current, loadingEarlier: false, ...patch } });
    };
    try {
      const page = await this.api.thread({ messageId: rootId, beforeSeq: thread.replies[0].seq, limit: PAGE_SIZE });
      if (this.snapshot.thread?.rootId !== rootId) return;
      settle({ replies: this.mergeReplies(page.replies), hasEarlier: page.hasMore });
    } catch {
      settle({});
    }
  }

  /** Fetched replies merged with those already here (live ones included), in seq order. */
  private mergeReplies(replies: MessageView[]): MessageView[] {
    for (const r of replies) {
      const existing = this.threadBySeq.get(r.seq);
      this.threadBySeq.set(r.seq, existing ? fresher(existing, r) : r);
    }
    return this.sortedReplies();
  }

  private sortedReplies(): MessageView[] {
    return [...this.threadBySeq.values()].sort((a, b) => a.seq - b.seq);
  }

  closeThread(): void {
    this.threadBySeq = new Map();
    this.set({ thread: null });
  }

  // ---- sending ----

  send(body: string, threadRootId: string | null = null, files: FileView[] = []): void {
    const pending: PendingMessage = {
      clientMsgId: crypto.randomUUID(),
      body,
      files,
      threadRootId,
      createdAt: new Date().toISOString(),
      status: "sending",
      error: null,
    };
    this.outbox.set(pending.clientMsgId, pending);
    this.set({ pending: [...this.outbox.values()], unreached: null });
    void this.transmit(pending.clientMsgId);
  }

  /** Drops the unreached-mentions notice, or one mention of it (once acted on). */
  dismissUnreached(participantId?: string): void {
    const notice = this.snapshot.unreached;
    if (!notice) return;
    const mentions = participantId ? notice.mentions.filter((m) => m.participantId !== participantId) : [];
    this.set({ unreached: mentions.length ? { ...notice, mentions } : null });
  }

  /** Sends again with the same clientMsgId, so the server stores it at most once. */
  retry(clientMsgId: string): void {
    const pending = this.outbox.get(clientMsgId);
    if (!pending) return;
    this.outbox.set(clientMsgId, { ...pending, status: "sending", error: null });
    this.set({ pending: [...this.outbox.values()] });
    void this.transmit(clientMsgId);
  }

  /** After a reconnect: resend what failed for a reason worth retrying (same clientMsgIds). */
  retryFailed(): void {
    for (const p of this.outbox.values()) if (p.status === "failed" && p.error?.retryable) this.retry(p.clientMsgId);
  }

  discard(clientMsgId: string): void {
    if (this.outbox.delete(clientMsgId)) this.set({ pending: [...this.outbox.values()] });
  }

  /** Sends go out one after another, so a person's quick messages keep the order they were typed in. */
  private queue: Promise<void> = Promise.resolve();

  private transmit(clientMsgId: string): Promise<void> {
    this.queue = this.queue.then(() => this.transmitNow(clientMsgId));
    return this.queue;
  }

  private async transmitNow(clientMsgId: string): Promise<void> {
    const pending = this.outbox.get(clientMsgId);
    if (!pending) return;
    const fail = (error: ErrorShape) => {
      const current = this.outbox.get(clientMsgId);
      if (!current) return;
      this.outbox.set(clientMsgId, { ...current, status: "failed", error });
      this.set({ pending: [...this.outbox.values()] });
    };
    const socket = this.socket;
    // Offline: fail now rather than let the socket buffer it; it is resent on reconnect (retryFailed).
    if (!socket?.connected) return fail(transportError("You're offline. It will be sent when the connection is back."));
    try {
      const reply = await socket.timeout(ACK_TIMEOUT_MS).emitWithAck("message:send", {
        roomId: this.roomId,
        body: pending.body,
        clientMsgId,
        ...(pending.threadRootId ? { threadRootId: pending.threadRootId } : {}),
        ...(pending.files.length ? { fileIds: pending.files.map((f) => f.id) } : {}),
      });
      if (!reply.ok) return fail(reply.error);
      this.receiveMany([reply.data]);
      // A highlighted @handle that reaches nobody is said, with what would reach them, not left to look delivered.
      const unreached = reply.data.unreached ?? [];
      this.set({ unreached: unreached.length ? { messageId: reply.data.id, threadRootId: reply.data.threadRootId, mentions: unreached } : null });
    } catch {
      fail(transportError("The server did not answer in time"));
    }
  }

  async edit(messageId: string, body: string): Promise<ErrorShape | null> {
    return this.request("message:edit", { messageId, body });
  }

  async remove(messageId: string): Promise<ErrorShape | null> {
    return this.request("message:delete", { messageId });
  }

  /** Adds or removes the viewer's reaction; the answer (all the message's reactions) is applied at once. */
  async react(messageId: string, emoji: string, on: boolean): Promise<ErrorShape | null> {
    const reply = await this.ask<ReactionsChange>((socket) => socket.emitWithAck("message:react", { messageId, emoji, on }));
    if (reply.ok) this.receiveReactions(reply.data);
    return reply.ok ? null : reply.error;
  }

  /** Pins or unpins a message in the room's header. */
  async pin(messageId: string, pinned: boolean): Promise<ErrorShape | null> {
    const reply = await this.ask<MessageView>((socket) => socket.emitWithAck("message:pin", { messageId, pinned }));
    if (reply.ok) this.receiveMany([reply.data]);
    return reply.ok ? null : reply.error;
  }

  /** One acked request, its transport failures as an error like the server's. */
  private async ask<T>(send: (socket: ReturnType<AppSocket["timeout"]>) => Promise<unknown>): Promise<Ack<T>> {
    if (!this.socket) return { ok: false, error: transportError("Not connected to the server") };
    try {
      return (await send(this.socket.timeout(ACK_TIMEOUT_MS))) as Ack<T>;
    } catch {
      return { ok: false, error: transportError("The server did not answer in time") };
    }
  }

  private async request(event: "message:edit" | "message:delete", payload: { messageId: string; body?: string }): Promise<ErrorShape | null> {
    const socket = this.socket;
    if (!socket) return transportError("Not connected to the server");
    try {
      const reply =
        event === "message:edit"
          ? await socket.timeout(ACK_TIMEOUT_MS).emitWithAck("message:edit", { messageId: payload.messageId, body: payload.body ?? "" })
          : await socket.timeout(ACK_TIMEOUT_MS).emitWithAck("message:delete", { messageId: payload.messageId });
      if (!reply.ok) return reply.error;
      this.receiveMany([reply.data]);
      return null;
    } catch {
      return transportError("The server did not answer in time");
    }
  }

  // ---- typing ----

  receiveTyping(p: { roomId: string; threadRootId: string | null; participantId: string }): void {
    if (p.roomId !== this.roomId || p.participantId === this.meId) return;
    this.typingMap.set(p.participantId, { participantId: p.participantId, threadRootId: p.threadRootId, until: Date.now() + TYPING_SHOW_MS });
    this.publishTyping();
  }

  private clearTyping(participantId: string): void {
    if (this.typingMap.delete(participantId)) this.publishTyping();
  }

  private publishTyping(): void {
    const now = Date.now();
    for (const [id, t] of this.typingMap) if (t.until <= now) this.typingMap.delete(id);
    this.set({ typing: [...this.typingMap.values()] });
    if (this.typingTimer) clearTimeout(this.typingTimer);
    if (this.typingMap.size > 0) {
      const next = Math.min(...[...this.typingMap.values()].map((t) => t.until)) - now;
      this.typingTimer = setTimeout(() => this.publishTyping(), Math.max(50, next));
    }
  }
}

function asShape(error: unknown): ErrorShape {
  const data = (error as { data?: { app?: ErrorShape } } | null)?.data;
  if (data?.app) return data.app;
  return transportError("Could not reach the server");
}
