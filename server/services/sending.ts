// Sending messages, with group commit. Sends to a room that arrive while the room's previous batch is
// being stored wait, and are then stored together: one transaction assigns their seqs, inserts them
// in one statement and commits once; only after that commit is each send acknowledged and fanned out,
// in seq order. A send to a quiet room is stored at once (there is no timer), so batching costs
// latency only when there is a queue to amortize.
//
// Per room and process one batch runs at a time, which also keeps one sender's messages in the order
// they arrived. Checks that need no room lock (thread, mentions) start on arrival, while the previous
// batch commits; everything that does (membership, suspension, rate, loop guard, duplicates) is decided
// inside the transaction, holding the room row, so several processes agree.
import type { MessageView } from "../../sdk/contract";
import { getDb } from "../db";
import { directTransaction, type DirectTx as Tx } from "../direct-sql";
import { AppError, isUniqueViolation } from "../errors";
import { newId } from "../ids";
import { authorize, type Actor } from "../policies";
import { messageInclude, presentMessage } from "../presenters/message";
import { fanOut } from "./delivery";
import { consumeAgentMessage, effectiveLimits, LoopGuard, roomPaused, systemClientMsgId } from "./limits";
import { checkBody, mentionsIn, publishUpdated } from "./messages";
import * as sql from "./send-statements";
import { visibleRoom } from "./room-access";

export interface SendInput {
  roomId: string;
  body: string;
  clientMsgId: string;
  threadRootId?: string;
}

/** What the checks made on arrival found: the mentions to store, or why the send is refused. */
type Prechecked = { mentions: string[] } | { error: unknown };

interface PendingSend {
  actor: Actor;
  input: SendInput;
  prechecked: Promise<Prechecked>;
  /** Set once the agent's rate limit counted this send, so a retried batch does not count it twice. */
  rateCounted: boolean;
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
  mentions: string[];
  data?: { type: string };
}

/** What a committed batch answers: the stored messages and every send's outcome. */
interface Outcome {
  stored: MessageView[];
  settle: (() => void)[];
  /** For the fan-out: the room's kind and its agents in `mentions` mode. */
  room: { roomKind: string; listeners: string[] };
}

const MAX_BATCH = 256;

/** The sends waiting for each room; a room is here while its queue drains. */
const queues = new Map<string, PendingSend[]>();

/**
 * Sends a message. Resolves with the stored message once it is committed and fanned out; a repeated
 * clientMsgId from the same author resolves with the original instead of storing a copy.
 */
export async function sendMessage(actor: Actor, input: SendInput): Promise<MessageView> {
  checkBody(input.body);
  return new Promise<MessageView>((resolve, reject) => {
    const pending: PendingSend = { actor, input, prechecked: precheck(actor, input), rateCounted: false, resolve, reject };
    const queue = queues.get(input.roomId);
    if (queue) queue.push(pending);
    else {
      queues.set(input.roomId, [pending]);
      void drain(input.roomId);
    }
  });
}

async function drain(roomId: string): Promise<void> {
  const queue = queues.get(roomId)!;
  // Let the sends that arrived with this one (read in the same turn of the event loop) join it.
  await new Promise((resolve) => setImmediate(resolve));
  while (queue.length > 0) await storeBatch(roomId, queue.splice(0, MAX_BATCH));
  queues.delete(roomId);
}

async function precheck(actor: Actor, input: SendInput): Promise<Prechecked> {
  try {
    if (input.threadRootId) await checkThreadRoot(input.roomId, input.threadRootId);
    return { mentions: input.body.includes("@") ? await mentionsIn(actor, input.roomId, input.body) : [] };
  } catch (error) {
    return { error };
  }
}

/** Stores one batch, fans it out and settles every send in it. Never throws. */
async function storeBatch(roomId: string, batch: PendingSend[]): Promise<void> {
  let outcome: Outcome;
  try {
    outcome = await directTransaction((tx) => writeBatch(tx, roomId, batch));
  } catch (error) {
    if (isUniqueViolation(error) && batch.length > 1) {
      // A retry on another process stored one of these clientMsgIds first: one at a time, each
      // send finds its own answer.
      for (const pending of batch) await storeBatch(roomId, [pending]);
      return;
    }
    const original = isUniqueViolation(error) ? await findByClientMsgId(batch[0].actor.participantId, batch[0].input.clientMsgId) : null;
    if (original) settleWith(batch[0], () => sameSendOrConflict(original, batch[0].input));
    else for (const pending of batch) pending.reject(error);
    return;
  }
  try {
    if (outcome.stored.length) await fanOut(outcome.stored, outcome.room);
    const threads = new Set(outcome.stored.flatMap((m) => (m.threadRootId ? [m.threadRootId] : [])));
    for (const rootId of threads) await publishUpdated(rootId);
  } catch (error) {
    // Stored and committed: the sends succeeded. Clients that missed the push catch up by seq.
    console.error("fan-out after commit failed", error);
  }
  for (const settle of outcome.settle) settle();
}

async function writeBatch(tx: Tx, roomId: string, batch: PendingSend[]): Promise<Outcome> {
  // Locks the room and reserves a seq for every send; what is refused is given back before commit.
  const room = await sql.lockRoom(tx, roomId, batch.length);
  const authorIds = [...new Set(batch.map((p) => p.actor.participantId))];
  const read = await sql.batchFacts(tx, roomId, authorIds, [...new Set(batch.map((p) => p.input.clientMsgId))]);
  const members = read.members.filter((m) => authorIds.includes(m.participantId));
  const listeners = read.members.filter((m) => m.deliveryMode === "mentions" && m.participant.kind === "agent").map((m) => m.participantId);
  const memberOf = new Map(members.map((m) => [m.participantId, m]));
  const earlier = await originals(read.storedIds);
  const activeAgents = await sql.lockActiveAgents(tx, members.filter((m) => m.participant.kind === "agent").map((m) => m.participantId));
  const workspace = room && activeAgents.size > 0 ? await sql.workspaceLimitsOf(tx, room.workspaceId) : null;
  const guard = room && workspace ? await LoopGuard.load(tx, room, workspace) : null;

  const rows: Row[] = [];
  const settle: (() => void)[] = [];
  const firstOf = new Map<string, PendingSend>(); // author + clientMsgId → the send storing it
  const twins: [PendingSend, PendingSend][] = [];
  for (const pending of batch) {
    const { actor, input } = pending;
    const key = `${actor.participantId} ${input.clientMsgId}`;
    // A retry of a stored send gets the original, whatever changed since (pause, rate, membership).
    const original = earlier.get(key);
    if (original) {
      settle.push(() => settleWith(pending, () => sameSendOrConflict(original, input)));
      continue;
    }
    const first = firstOf.get(key);
    if (first) {
      twins.push([pending, first]);
      continue;
    }
    try {
      const membership = memberOf.get(actor.participantId) ?? null;
      authorize(actor, "room.post", { room: visibleRoom(actor, room), membership });
      const prechecked = await pending.prechecked;
      if ("error" in prechecked) throw prechecked.error;
      if (actor.kind === "agent") {
        if (!activeAgents.has(actor.participantId)) throw new AppError("AGENT_SUSPENDED", "This agent is suspended");
        if (!pending.rateCounted) {
          pending.rateCounted = true;
          await consumeAgentMessage(actor, effectiveLimits(membership!.participant, workspace!));
        }
        const notice = guard!.agentPosts();
        if (notice) {
          rows.push({ pending: null, authorId: actor.participantId, kind: "system", body: notice, clientMsgId: systemClientMsgId(), threadRootId: null, mentions: [], data: { type: "loop_guard.paused" } });
          throw roomPaused();
        }
      } else guard?.personPosts();
      rows.push({ pending, authorId: actor.participantId, kind: "text", body: input.body, clientMsgId: input.clientMsgId, threadRootId: input.threadRootId ?? null, mentions: prechecked.mentions });
      firstOf.set(key, pending);
    } catch (error) {
      settle.push(() => pending.reject(error));
    }
  }
  const facts = { roomKind: room?.kind ?? "channel", listeners };
  if (!room) return { stored: [], settle: [...settle, ...twinSettlers(twins, new Map())], room: facts };

  // A person speaking lets paused agents continue; the loop guard may have paused them.
  const people = rows.some((r) => r.pending?.actor.kind === "human" && r.kind === "text");
  const pausedAt = guard ? guard.agentsPausedAt : people ? null : room.agentsPausedAt;
  const pauseChanged = pausedAt !== room.agentsPausedAt;
  if (rows.length < batch.length || pauseChanged) await sql.settleRoom(tx, roomId, room.lastSeq + rows.length, pauseChanged ? pausedAt : undefined);
  if (rows.length === 0) return { stored: [], settle: [...settle, ...twinSettlers(twins, new Map())], room: facts };

  const stored = await insertRows(tx, roomId, room.lastSeq + 1, rows, memberOf);
  const byPending = new Map<PendingSend, MessageView>();
  rows.forEach((row, i) => {
    if (!row.pending) return;
    const pending = row.pending;
    byPending.set(pending, stored[i]);
    settle.push(() => pending.resolve(stored[i]));
  });
  return { stored, settle: [...settle, ...twinSettlers(twins, byPending)], room: facts };
}

/** Inserts the rows with seqs from `firstSeq` and updates what follows from them; returns their views. */
async function insertRows(tx: Tx, roomId: string, firstSeq: number, rows: Row[], memberOf: Map<string, sql.MemberRow>): Promise<MessageView[]> {
  const createdAt = new Date();
  const messages = rows.map((row, i) => ({ id: newId(), roomId, seq: firstSeq + i, authorId: row.authorId, kind: row.kind, body: row.body, clientMsgId: row.clientMsgId, threadRootId: row.threadRootId, data: row.data, createdAt }));
  const mentions = rows.flatMap((row, i) => row.mentions.map((participantId) => ({ messageId: messages[i].id, participantId, roomId, seq: messages[i].seq })));
  // Authors have seen what they wrote: each one's cursors move to their own last message, never
  // past another author's (an agent's delivered cursor is where its replay resumes).
  await sql.writeMessages(tx, messages, mentions, new Map(messages.map((m) => [m.authorId, m.seq])));

  const repliesTo = new Map<string, number>();
  for (const row of rows) if (row.threadRootId) repliesTo.set(row.threadRootId, (repliesTo.get(row.threadRootId) ?? 0) + 1);
  for (const [rootId, count] of repliesTo) await sql.countReplies(tx, rootId, count, createdAt);
  return messages.map((m, i) => {
    const { id, handle, displayName, kind } = memberOf.get(m.authorId)!.participant;
    return presentMessage({ ...m, replyCount: 0, lastReplyAt: null, data: m.data ?? null, editedAt: null, deletedAt: null, author: { id, handle, displayName, kind }, mentions: rows[i].mentions.map((participantId) => ({ participantId })).sort(byParticipant), receipts: [] });
  });
}

const byParticipant = (a: { participantId: string }, b: { participantId: string }) => (a.participantId < b.participantId ? -1 : a.participantId > b.participantId ? 1 : 0);

/** A send repeated within one batch gets what its first copy got. */
function twinSettlers(twins: [PendingSend, PendingSend][], stored: Map<PendingSend, MessageView>): (() => void)[] {
  return twins.map(([twin, first]) => () => {
    const message = stored.get(first);
    if (message) settleWith(twin, () => sameSendOrConflict(message, twin.input));
    else twin.reject(new AppError("CONFLICT", "An identical send in flight was refused; retry"));
  });
}

/** Messages already stored under the batch's (author, clientMsgId) pairs (`batchFacts`), by "author clientMsgId". */
async function originals(found: string[]): Promise<Map<string, MessageView>> {
  if (found.length === 0) return new Map(); // the usual case: no retries in this batch
  // Committed (found under this batch's lock), so any connection reads them.
  const rows = await getDb().message.findMany({ where: { id: { in: found } }, include: messageInclude });
  return new Map(rows.map((row) => [`${row.authorId} ${row.clientMsgId}`, presentMessage(row)]));
}

function settleWith(pending: PendingSend, answer: () => MessageView): void {
  try {
    pending.resolve(answer());
  } catch (error) {
    pending.reject(error);
  }
}

async function findByClientMsgId(authorId: string, clientMsgId: string): Promise<MessageView | null> {
  const row = await getDb().message.findUnique({
    where: { authorId_clientMsgId: { authorId, clientMsgId } },
    include: messageInclude,
  });
  return row ? presentMessage(row) : null;
}

function sameSendOrConflict(existing: MessageView, input: SendInput): MessageView {
  if (existing.roomId !== input.roomId || existing.threadRootId !== (input.threadRootId ?? null)) {
    throw new AppError("CONFLICT", "This clientMsgId was already used for another message");
  }
  return existing;
}

async function checkThreadRoot(roomId: string, rootId: string): Promise<void> {
  const root = await getDb().message.findUnique({ where: { id: rootId }, select: { roomId: true, threadRootId: true, kind: true } });
  if (!root || root.roomId !== roomId) throw new AppError("MESSAGE_NOT_FOUND", "No such thread in this room");
  if (root.threadRootId !== null) throw new AppError("INVALID_PAYLOAD", "Replies go to the thread's first message");
  if (root.kind !== "text") throw new AppError("INVALID_PAYLOAD", "This message cannot have a thread");
}

