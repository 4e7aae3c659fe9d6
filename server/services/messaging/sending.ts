// Sending messages, with group commit. Sends to a room that arrive while the room's previous batch is
// being stored wait, and are then stored together: their seqs assigned, inserted in one statement and
// committed once; only after that commit is each send acknowledged and fanned out, in seq order. A
// send to a quiet room is stored at once (there is no timer), so batching costs latency only when
// there is a queue to amortize.
//
// Per room and process one batch runs at a time, which also keeps one sender's messages in the order
// they arrived. Checks that depend on nothing a send changes (the thread, whom the body names) start
// on arrival, while the previous batch commits. The rest (the authors' and the mentioned's
// membership, suspension, rate, loop guard, retries) is decided on one read of what the batch depends
// on (`MessageStore.batchFacts`), and the batch is then stored on condition that the room has not
// moved since (`lastSeq` is the room's version: every write of a fact a batch depends on moves it,
// room-version.ts) and its agent authors are still active. If it moved (another process's batch, a
// member joining) the batch is decided again holding the room, so several processes agree. The SQL
// is in `message-store/`, one implementation per database.
import type { MessageView, RoomKind, SentMessageView } from "@switchboard/sdk/contract";
import { getDb } from "../../db";
import { env } from "../../env";
import { AppError, isUniqueViolation } from "../../errors";
import { newId } from "../../ids";
import { authorize, type Actor } from "../../policies";
import { presentMessage } from "../../presenters/message";
import { fanOut } from "./delivery";
import { consumeMessage, messageRate, roomPaused, systemClientMsgId, type MessageRate } from "../governance/limits";
import { LoopGuard } from "../governance/loop-guard";
import { messageStore, storeCommitted, type BatchFacts, type BatchWrite, type FactsReader, type MemberFacts } from "../message-store";
import type { Committed } from "../../realtime";
import { checkBody, mentionedIn, publishUpdated, type Mentioned } from "./messages";
import { unreachedMentions } from "./unreached";
import { notifyNewMessages } from "../notifications/outbox";
import { requesterForSend } from "./requesters";
import { visibleRoom } from "../access/rooms";
import { checkThreadRoot } from "./threads";
import { presentedMessages } from "./reads";
import { attachable } from "../files/files";
import type { FileRow } from "../../presenters/file";

export interface SendInput {
  roomId: string;
  body: string;
  clientMsgId: string;
  threadRootId?: string;
  causeId?: string;
  /** Uploads to attach (services/files): the sender's own, to this room, on no message yet. */
  fileIds?: string[];
}

/**
 * What the checks made on arrival found: the mentions to store (and the people among them) and the
 * person the message serves (services/messaging/requesters.ts), or why the send is refused.
 */
type Prechecked = (Mentioned & { requesterId: string | null; causeId: string | null; files: FileRow[] }) | { error: unknown };

interface PendingSend {
  actor: Actor;
  input: SendInput;
  prechecked: Promise<Prechecked>;
  /** The rate limit's verdict on this send under the rate it was counted with (see `countMessage`). */
  rate?: { key: string; verdict: Promise<{ error: unknown } | null> };
  resolve: (message: MessageView) => void;
  reject: (error: unknown) => void;
}

/** A message the batch stores, in seq order. */
interface Row {
  pending: PendingSend | null; // null for the system notice the loop guard posts
  authorId: string;
  kind: "text" | "system";
  body: string;
  clientMsgId: string;
  threadRootId: string | null;
  requesterId: string | null;
  causeId: string | null;
  mentions: string[];
  /** The people mentioned, for the notification outbox. */
  people: Mentioned["people"];
  files: FileRow[];
  data?: { type: string };
}

/** What a stored batch answers: the stored messages and every send's outcome. */
interface Outcome {
  stored: MessageView[];
  settle: (() => void)[];
  /** For the fan-out: the room's kind and its agents in `mentions` mode. */
  room: { roomKind: RoomKind; listeners: string[] };
  /** The people each stored message mentions, by message id (only messages that mention someone). */
  mentioned: Map<string, Mentioned["people"]>;
}

const MAX_BATCH = 256;

/** The sends waiting for each room; a room is here while its queue drains. */
const queues = new Map<string, PendingSend[]>();

/**
 * Sends a message. Resolves with the stored message once it is committed and fanned out, with whom its
 * @mentions will not reach now (`unreached`, when any); a repeated clientMsgId from the same author
 * resolves with the original instead of storing a copy.
 */
export async function sendMessage(actor: Actor, input: SendInput): Promise<SentMessageView> {
  checkBody(input.body, !!input.fileIds?.length);
  const queue = queues.get(input.roomId);
  // A room flooded past its bound is refused at once rather than queued: memory stays bounded, and
  // other rooms' batches keep their turn.
  if (queue && queue.length >= env.SEND_QUEUE_PER_ROOM) {
    throw new AppError("RATE_LIMITED", "This room is receiving more messages than it can store; retry shortly", { retryAfterMs: 1000 });
  }
  const prechecked = precheck(actor, input);
  // Whom the mentions will not reach, worked out while the send is stored (off its path), told in its answer.
  const unreached = input.body.includes("@")
    ? prechecked
        .then((checked) => ("error" in checked ? [] : unreachedMentions(actor, input.roomId, input.body, checked.mentions)))
        .catch((error: unknown) => {
          console.error("finding unreached mentions failed", error);
          return [];
        })
    : null;
  // Queued in this turn, before any await: a connection's sends keep their order.
  const message = await new Promise<MessageView>((resolve, reject) => {
    const pending: PendingSend = { actor, input, prechecked, resolve, reject };
    if (queue) queue.push(pending);
    else {
      queues.set(input.roomId, [pending]);
      void drain(input.roomId);
    }
  });
  const missed = unreached ? await unreached : [];
  return missed.length ? { ...message, unreached: missed } : message;
}

/** Stores the room's queue batch by batch until it is empty. Never rejects: every send is settled. */
async function drain(roomId: string): Promise<void> {
  const queue = queues.get(roomId)!;
  try {
    // Before each batch, at least a turn of the event loop: what other rooms and sockets sent is read
    // before this room's next batch (a busy room's batches would otherwise run back to back, ahead of
    // everyone else), and the sends that arrive meanwhile join the batch.
    while (queue.length > 0) {
      await gather(queue);
      await storeBatch(roomId, queue.splice(0, MAX_BATCH));
    }
  } catch (error) {
    // storeBatch settles every send itself; this is a last guard, so the room's queue can never stall.
    console.error("send queue failed", error);
    for (const pending of queue.splice(0)) pending.reject(error);
  } finally {
    queues.delete(roomId);
  }
}

/** How long a batch waits for sends that keep arriving, one a turn, at most. */
const GATHER_MS = 2;

/**
 * Waits a turn of the event loop, then more turns while the queue keeps growing (up to a full batch
 * or GATHER_MS): a client's requests are read one a turn (socket/batched-writes.ts), so a client that
 * sends many without waiting has them stored together, one transaction for many sends, and a lone
 * send waits one turn.
 */
async function gather(queue: PendingSend[]): Promise<void> {
  const start = performance.now();
  let before: number;
  do {
    before = queue.length;
    await new Promise((resolve) => setImmediate(resolve));
  } while (queue.length > before && queue.length < MAX_BATCH && performance.now() - start < GATHER_MS);
}

async function precheck(actor: Actor, input: SendInput): Promise<Prechecked> {
  try {
    if (input.threadRootId) await checkThreadRoot(input.roomId, input.threadRootId);
    const [mentioned, served, files] = await Promise.all([
      input.body.includes("@") ? mentionedIn(actor, input.roomId, input.body) : { mentions: [], people: [] },
      requesterForSend(actor, input.causeId),
      input.fileIds?.length ? attachable(actor, input.roomId, input.fileIds) : [],
    ]);
    return { ...mentioned, ...served, files };
  } catch (error) {
    return { error };
  }
}

/** Stores one batch, fans it out and settles every send in it. */
async function storeBatch(roomId: string, batch: PendingSend[]): Promise<void> {
  let outcome: Outcome;
  let committed: Committed;
  try {
    [outcome, committed] = await decideAndStore(roomId, batch);
  } catch (error) {
    if (batch.length > 1) {
      // One send spoiled the batch (a retry another process stored first, a database error on one
      // row): one at a time, each send finds its own answer.
      for (const pending of batch) await storeBatch(roomId, [pending]);
      return;
    }
    const [pending] = batch;
    try {
      const original = isUniqueViolation(error) ? await findByClientMsgId(pending.actor.participantId, pending.input.clientMsgId) : null;
      if (original) return settleWith(pending, () => sameSendOrConflict(original, pending.input));
    } catch (lookup) {
      console.error("looking up a retried send failed", lookup);
    }
    return pending.reject(error);
  }
  try {
    if (outcome.stored.length) await fanOut(committed, outcome.stored, outcome.room);
    const threads = new Set(outcome.stored.flatMap((m) => (m.threadRootId ? [m.threadRootId] : [])));
    for (const rootId of threads) await publishUpdated(committed, rootId);
  } catch (error) {
    // Stored and committed: the sends succeeded. Clients that missed the push catch up by seq.
    console.error("fan-out after commit failed", error);
  }
  for (const settle of outcome.settle) settle();
  // After the acks, and not awaited: the outbox is off the send path (most batches touch no table).
  if (outcome.stored.length)
    notifyNewMessages(outcome.stored, outcome.room.roomKind, outcome.mentioned).catch((error) => console.error("notification outbox failed", error));
}

/**
 * Decides the batch on an unlocked read and stores it if that read still holds; else decides it again
 * holding its agent authors and the room, where it does.
 */
async function decideAndStore(roomId: string, batch: PendingSend[]): Promise<[Outcome, Committed]> {
  const store = messageStore();
  const facts = await readFacts(store, roomId, batch, null);
  const plan = await decide(roomId, batch, facts);
  if (!plan.write || (await store.storeIfUnchanged(plan.write))) return [plan.outcome, storeCommitted()];

  const outcome = await store.holding(roomId, agentAuthors(batch), async (held) => {
    const heldPlan = await decide(roomId, batch, await readFacts(held, roomId, batch, held.activeAgents));
    if (heldPlan.write) await held.store(heldPlan.write);
    return heldPlan.outcome;
  });
  return [outcome, storeCommitted()];
}

/** What a batch is decided on. */
interface Facts extends BatchFacts {
  /** The agent authors that are active (held, when read in `holding`). */
  activeAgents: Set<string>;
  /** The room's loop guard, when agents are among the authors. */
  guard: LoopGuard | null;
  /** Messages already stored for these sends (retries), by "author clientMsgId". */
  earlier: Map<string, MessageView>;
}

/** `heldAgents`: the active agent authors, when the caller holds their rows; else read with the rest. */
async function readFacts(reader: FactsReader, roomId: string, batch: PendingSend[], heldAgents: Set<string> | null): Promise<Facts> {
  // Who is mentioned was found on arrival; whether they are still in the room is read with the rest,
  // so that a mention is stored only of a member at the seq the batch is stored at.
  const mentioned = (await Promise.all(batch.map((p) => p.prechecked))).flatMap((c) => ("error" in c ? [] : c.mentions));
  const read = await reader.batchFacts(roomId, batch.map(sendKey), mentioned);
  const agents = agentAuthors(batch);
  const activeAgents =
    heldAgents ?? new Set(read.members.filter((m) => agents.includes(m.participantId) && m.participant.status === "active").map((m) => m.participantId));
  let guard: LoopGuard | null = null;
  if (read.room && read.workspace && activeAgents.size > 0) {
    const run = await reader.agentRun(roomId, LoopGuard.windowStart(read.workspace), read.workspace.loopGuardMessages);
    guard = LoopGuard.of(run, read.room.agentsPausedAt, read.workspace);
  }
  return { ...read, activeAgents, guard, earlier: await originals(read.storedIds) };
}

const sendKey = (p: PendingSend) => ({ authorId: p.actor.participantId, clientMsgId: p.input.clientMsgId });

const agentAuthors = (batch: PendingSend[]) => [...new Set(batch.filter((p) => p.actor.kind === "agent").map((p) => p.actor.participantId))];

/** The room's agents that are sent only what mentions them (the fan-out's listeners). */
const listensForMentions = (m: MemberFacts): boolean => m.deliveryMode === "mentions" && m.participant.kind === "agent";

/** What each send gets, and what to store for them (null: nothing). */
interface Plan {
  outcome: Outcome;
  write: BatchWrite | null;
}

async function decide(roomId: string, batch: PendingSend[], facts: Facts): Promise<Plan> {
  const { room, workspace, guard, earlier, activeAgents } = facts;
  const authorIds = new Set(batch.map((p) => p.actor.participantId));
  const memberOf = new Map(facts.members.filter((m) => authorIds.has(m.participantId)).map((m) => [m.participantId, m]));
  const listeners = facts.members.filter(listensForMentions).map((m) => m.participantId);
  const mentionable = new Set(facts.mentionable);

  const at = new Date();
  const rows: Row[] = [];
  const settle: (() => void)[] = [];
  const storing = new Map<string, PendingSend>(); // author + clientMsgId → the send storing it
  const attaching = new Set<string>(); // the files the batch's sends attach
  const repeats: [repeat: PendingSend, first: PendingSend][] = [];
  for (const pending of batch) {
    const { actor, input } = pending;
    const key = `${actor.participantId} ${input.clientMsgId}`;
    // A retry of a stored send gets the original, whatever changed since (pause, rate, membership).
    const original = earlier.get(key);
    if (original) {
      settle.push(() => settleWith(pending, () => sameSendOrConflict(original, input)));
      continue;
    }
    const first = storing.get(key);
    if (first) {
      repeats.push([pending, first]);
      continue;
    }
    try {
      const membership = memberOf.get(actor.participantId) ?? null;
      authorize(actor, "room.post", { room: visibleRoom(actor, room, membership), membership });
      const prechecked = await pending.prechecked;
      if ("error" in prechecked) throw prechecked.error;
      if (prechecked.files.some((f) => attaching.has(f.id))) throw new AppError("CONFLICT", "Another message is attaching the same file");
      if (actor.kind === "agent" && !activeAgents.has(actor.participantId)) throw new AppError("AGENT_SUSPENDED", "This agent is suspended");
      const rate = messageRate(membership!.participant, workspace!);
      if (rate) await countMessage(pending, rate);
      if (actor.kind === "agent") {
        const notice = guard!.agentPosts(at);
        if (notice) {
          rows.push({
            pending: null,
            authorId: actor.participantId,
            kind: "system",
            body: notice,
            clientMsgId: systemClientMsgId(),
            threadRootId: null,
            requesterId: null,
            causeId: null,
            mentions: [],
            people: [],
            files: [],
            data: { type: "loop_guard.paused" },
          });
          throw roomPaused();
        }
      } else guard?.personPosts();
      rows.push({
        pending,
        authorId: actor.participantId,
        kind: "text",
        body: input.body,
        clientMsgId: input.clientMsgId,
        threadRootId: input.threadRootId ?? null,
        requesterId: prechecked.requesterId,
        causeId: prechecked.causeId,
        mentions: prechecked.mentions.filter((id) => mentionable.has(id)),
        people: prechecked.people.filter((person) => mentionable.has(person.id)),
        files: prechecked.files,
      });
      storing.set(key, pending);
      for (const f of prechecked.files) attaching.add(f.id);
    } catch (error) {
      settle.push(() => pending.reject(error));
    }
  }
  const fanOutTo = { roomKind: room?.kind ?? "channel", listeners };
  const nothingStored: Plan = {
    outcome: { stored: [], settle: [...settle, ...repeatSettlers(repeats, new Map())], room: fanOutTo, mentioned: new Map() },
    write: null,
  };
  if (!room) return nothingStored;

  // A person speaking lets paused agents continue; the loop guard may have paused them.
  const people = rows.some((r) => r.pending?.actor.kind === "human" && r.kind === "text");
  const pausedAt = guard ? guard.agentsPausedAt : people ? null : room.agentsPausedAt;
  const pauseChanged = pausedAt !== room.agentsPausedAt;
  if (rows.length === 0 && !pauseChanged) return nothingStored;

  const messages = rows.map((row, i) => ({
    id: newId(),
    roomId,
    seq: room.lastSeq + 1 + i,
    authorId: row.authorId,
    kind: row.kind,
    body: row.body,
    clientMsgId: row.clientMsgId,
    threadRootId: row.threadRootId,
    requesterId: row.requesterId,
    causeId: row.causeId,
    data: row.data,
    createdAt: at,
  }));
  const mentions = rows.flatMap((row, i) => row.mentions.map((participantId) => ({ messageId: messages[i].id, participantId, roomId, seq: messages[i].seq })));
  const replies = new Map<string, number>();
  for (const row of rows) if (row.threadRootId) replies.set(row.threadRootId, (replies.get(row.threadRootId) ?? 0) + 1);
  const write: BatchWrite = {
    roomId,
    afterSeq: room.lastSeq,
    messages,
    mentions,
    replies,
    agentsPausedAt: pauseChanged ? pausedAt : undefined,
    agents: [...activeAgents],
    attachments: rows.flatMap((row, i) => row.files.map((f) => ({ fileId: f.id, messageId: messages[i].id }))),
    at,
  };

  const stored = messages.map((m, i) => {
    const { id, handle, displayName, kind } = memberOf.get(m.authorId)!.participant;
    return presentMessage({
      ...m,
      replyCount: 0,
      lastReplyAt: null,
      data: m.data ?? null,
      editedAt: null,
      deletedAt: null,
      author: { id, handle, displayName, kind },
      mentions: rows[i].mentions.map((participantId) => ({ participantId })).sort(byParticipant),
      receipts: [],
      files: rows[i].files,
    });
  });
  const byPending = new Map<PendingSend, MessageView>();
  rows.forEach((row, i) => {
    if (!row.pending) return;
    const pending = row.pending;
    byPending.set(pending, stored[i]);
    settle.push(() => pending.resolve(stored[i]));
  });
  const mentioned = new Map(rows.flatMap((row, i) => (row.people.length ? [[messages[i].id, row.people] as const] : [])));
  return { outcome: { stored, settle: [...settle, ...repeatSettlers(repeats, byPending)], room: fanOutTo, mentioned }, write };
}

/**
 * Counts a send against its author's message rate once, however many times its batch is decided: a
 * batch decided again (the room moved) or retried send by send finds the verdict it had, unless it is
 * decided under another rate (the first decision's facts were no longer true), which counts it afresh.
 */
async function countMessage(pending: PendingSend, rate: MessageRate): Promise<void> {
  const key = `${rate.messagesPerMinute}/${rate.burst}`;
  if (pending.rate?.key !== key) {
    const verdict = consumeMessage(pending.actor, rate).then(
      () => null,
      (error: unknown) => ({ error }),
    );
    pending.rate = { key, verdict };
  }
  const verdict = await pending.rate.verdict;
  if (verdict) throw verdict.error;
}

const byParticipant = (a: { participantId: string }, b: { participantId: string }) =>
  a.participantId < b.participantId ? -1 : a.participantId > b.participantId ? 1 : 0;

/** A send repeated within one batch gets what its first copy got. */
function repeatSettlers(repeats: [PendingSend, PendingSend][], stored: Map<PendingSend, MessageView>): (() => void)[] {
  return repeats.map(([repeat, first]) => () => {
    const message = stored.get(first);
    if (message) settleWith(repeat, () => sameSendOrConflict(message, repeat.input));
    else repeat.reject(new AppError("CONFLICT", "An identical send in flight was refused; retry"));
  });
}

/** Messages already stored under the batch's (author, clientMsgId) pairs, by "author clientMsgId". */
async function originals(found: string[]): Promise<Map<string, MessageView>> {
  if (found.length === 0) return new Map(); // the usual case: no retries in this batch
  return new Map((await presentedMessages(found)).map((m) => [`${m.author.id} ${m.clientMsgId}`, m]));
}

function settleWith(pending: PendingSend, answer: () => MessageView): void {
  try {
    pending.resolve(answer());
  } catch (error) {
    pending.reject(error);
  }
}

async function findByClientMsgId(authorId: string, clientMsgId: string): Promise<MessageView | null> {
  const row = await getDb().message.findUnique({ where: { authorId_clientMsgId: { authorId, clientMsgId } }, select: { id: true } });
  return row ? ((await presentedMessages([row.id]))[0] ?? null) : null;
}

function sameSendOrConflict(existing: MessageView, input: SendInput): MessageView {
  if (existing.roomId !== input.roomId || existing.threadRootId !== (input.threadRootId ?? null)) {
    throw new AppError("CONFLICT", "This clientMsgId was already used for another message");
  }
  return existing;
}
