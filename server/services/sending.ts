// Sending messages, with group commit. Sends to a room that arrive while the room's previous batch is
// being stored wait, and are then stored together: their seqs assigned, inserted in one statement and
// committed once; only after that commit is each send acknowledged and fanned out, in seq order. A
// send to a quiet room is stored at once (there is no timer), so batching costs latency only when
// there is a queue to amortize.
//
// Per room and process one batch runs at a time, which also keeps one sender's messages in the order
// they arrived. Checks that depend on nothing a send changes (thread, mentions) start on arrival,
// while the previous batch commits. The rest (membership, suspension, rate, loop guard, duplicates)
// is decided on one read of the room's facts, and the batch is then stored on condition that those
// facts still hold: the room's `lastSeq` has not moved (every membership change appends an event) and
// its agent authors are still active. On PostgreSQL that conditional write is one statement, so a
// batch is two round trips and holds the room row only while the write runs. If another process or a
// membership change moved the room in between, the batch is decided again holding the room, so
// several processes agree.
import type { MessageView } from "../../sdk/contract";
import { getDb } from "../db";
import { directStatements, directTransaction, type Dialect, type DirectTx as Tx } from "../direct-sql";
import { AppError, isUniqueViolation } from "../errors";
import { newId } from "../ids";
import { authorize, type Actor } from "../policies";
import { messageInclude, presentMessage } from "../presenters/message";
import { fanOut } from "./delivery";
import { consumeAgentMessage, effectiveLimits, LoopGuard, roomPaused, systemClientMsgId } from "./limits";
import { checkBody, mentionsIn, publishUpdated } from "./messages";
import * as knownFacts from "./known-facts";
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
  /** The agent's rate limit's verdict on this send under the limits it was counted with (see `countAgentMessage`). */
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
    const pending: PendingSend = { actor, input, prechecked: precheck(actor, input), resolve, reject };
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
    outcome = await decideAndStore(roomId, batch);
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

/**
 * Decides the batch on the facts its room's previous batch left (PostgreSQL, see `known-facts.ts`)
 * and stores it with checks that they still hold; else decides it on an unlocked read and stores it
 * if that read still holds; else decides it again holding the room (and its agent authors) in a
 * transaction, where it does.
 */
async function decideAndStore(roomId: string, batch: PendingSend[]): Promise<Outcome> {
  const authorIds = [...new Set(batch.map((p) => p.actor.participantId))];
  const known = knownFacts.recall(roomId, authorIds, agentAuthors(batch).length > 0);
  if (known) {
    const facts = factsFrom(known, batch);
    const plan = await decide(roomId, batch, facts);
    // A refusal decided on remembered facts is decided again on read ones: only what is stored is checked.
    if (plan.write && plan.refused === 0) {
      const checks = { room: known.room, workspace: known.workspace, authors: facts.members.filter((m) => authorIds.includes(m.participantId)), listeners: plan.outcome.room.listeners, sends: batch.map(sendKey) };
      if (await directStatements((q) => sql.storeBatch(q, { ...plan.write!, checks }))) {
        knownFacts.remember(roomId, plan.after!, null);
        return plan.outcome;
      }
    }
    knownFacts.forget(roomId);
  }

  const facts = await directStatements((q) => readFacts(q, roomId, batch, null));
  const plan = await decide(roomId, batch, facts);
  // PostgreSQL: one statement, committed on its own. SQLite: a short transaction, the write lock held for it alone.
  const store = (write: sql.BatchWrite) =>
    facts.dialect === "postgresql" ? directStatements((q) => sql.storeBatch(q, write)) : directTransaction((tx) => sql.storeBatch(tx, write));
  if (!plan.write) return plan.outcome;
  if (await store(plan.write)) return rememberAfter(roomId, facts, plan);

  return directTransaction(async (tx) => {
    await sql.lockRoom(tx, roomId);
    const agents = await sql.lockActiveAgents(tx, agentAuthors(batch));
    const heldFacts = await readFacts(tx, roomId, batch, agents);
    const held = await decide(roomId, batch, heldFacts);
    if (held.write && !(await sql.storeBatch(tx, held.write))) throw new AppError("UNAVAILABLE", "The room changed while a send held it; retry");
    return held.write ? rememberAfter(roomId, heldFacts, held) : held.outcome;
  });
}

/** A batch decided on `facts` (read) was stored: on PostgreSQL, what it leaves is remembered for the room's next batch. */
function rememberAfter(roomId: string, facts: Facts, plan: Plan): Outcome {
  if (facts.dialect === "postgresql" && plan.after) knownFacts.remember(roomId, plan.after, facts.room!.lastSeq);
  return plan.outcome;
}

const sendKey = (p: PendingSend) => ({ authorId: p.actor.participantId, clientMsgId: p.input.clientMsgId });

/** What a batch is decided on. */
interface Facts extends sql.BatchFacts {
  dialect: Dialect;
  /** The agent authors that are active (held, when read under the room's lock). */
  activeAgents: Set<string>;
  guard: LoopGuard | null;
  /** Messages already stored for these sends (retries), by "author clientMsgId". */
  earlier: Map<string, MessageView>;
}

/** `heldAgents`: the active agent authors, when the caller holds their rows; else read with the rest. */
async function readFacts(q: Tx, roomId: string, batch: PendingSend[], heldAgents: Set<string> | null): Promise<Facts> {
  const read = await sql.batchFacts(q, roomId, batch.map(sendKey));
  const activeAgents = heldAgents ?? activeAmong(read.members, batch);
  const guard = read.room && read.workspace && activeAgents.size > 0 ? await LoopGuard.load(q, read.room, read.workspace) : null;
  return { ...read, dialect: q.dialect, activeAgents, guard, earlier: await originals(read.storedIds) };
}

/** Remembered facts as a batch decides on them: no retries among its sends (its write checks that). */
function factsFrom(known: knownFacts.RoomState, batch: PendingSend[]): Facts {
  const { room, workspace, members, guard } = known;
  return { room, workspace, members, storedIds: [], dialect: "postgresql", activeAgents: activeAmong(members, batch), guard: guard?.copy() ?? null, earlier: new Map() };
}

const agentAuthors = (batch: PendingSend[]) => [...new Set(batch.filter((p) => p.actor.kind === "agent").map((p) => p.actor.participantId))];

/** The batch's agent authors whose rows say they are active. */
function activeAmong(members: sql.MemberRow[], batch: PendingSend[]): Set<string> {
  const agents = agentAuthors(batch);
  return new Set(members.filter((m) => agents.includes(m.participantId) && m.participant.status === "active").map((m) => m.participantId));
}

/** What each send gets, and what to store for them (null: nothing). */
interface Plan {
  outcome: Outcome;
  write: sql.BatchWrite | null;
  /** How many sends it refuses. */
  refused: number;
  /** The room's facts once `write` is stored. */
  after: knownFacts.RoomState | null;
}

async function decide(roomId: string, batch: PendingSend[], facts: Facts): Promise<Plan> {
  const { room, workspace, guard, earlier, activeAgents } = facts;
  const authorIds = new Set(batch.map((p) => p.actor.participantId));
  const memberOf = new Map(facts.members.filter((m) => authorIds.has(m.participantId)).map((m) => [m.participantId, m]));
  const listeners = facts.members.filter(knownFacts.listensForMentions).map((m) => m.participantId);

  const at = new Date();
  const rows: Row[] = [];
  const settle: (() => void)[] = [];
  let refused = 0;
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
        await countAgentMessage(pending, effectiveLimits(membership!.participant, workspace!));
        const notice = guard!.agentPosts(at);
        if (notice) {
          rows.push({ pending: null, authorId: actor.participantId, kind: "system", body: notice, clientMsgId: systemClientMsgId(), threadRootId: null, mentions: [], data: { type: "loop_guard.paused" } });
          throw roomPaused();
        }
      } else guard?.personPosts();
      rows.push({ pending, authorId: actor.participantId, kind: "text", body: input.body, clientMsgId: input.clientMsgId, threadRootId: input.threadRootId ?? null, mentions: prechecked.mentions });
      firstOf.set(key, pending);
    } catch (error) {
      refused++;
      settle.push(() => pending.reject(error));
    }
  }
  const fanOutTo = { roomKind: room?.kind ?? "channel", listeners };
  const nothingStored: Plan = { outcome: { stored: [], settle: [...settle, ...twinSettlers(twins, new Map())], room: fanOutTo }, write: null, refused, after: null };
  if (!room) return nothingStored;

  // A person speaking lets paused agents continue; the loop guard may have paused them.
  const people = rows.some((r) => r.pending?.actor.kind === "human" && r.kind === "text");
  const pausedAt = guard ? guard.agentsPausedAt : people ? null : room.agentsPausedAt;
  const pauseChanged = pausedAt !== room.agentsPausedAt;
  if (rows.length === 0 && !pauseChanged) return nothingStored;

  const messages = rows.map((row, i) => ({ id: newId(), roomId, seq: room.lastSeq + 1 + i, authorId: row.authorId, kind: row.kind, body: row.body, clientMsgId: row.clientMsgId, threadRootId: row.threadRootId, data: row.data, createdAt: at }));
  const mentions = rows.flatMap((row, i) => row.mentions.map((participantId) => ({ messageId: messages[i].id, participantId, roomId, seq: messages[i].seq })));
  const replies = new Map<string, number>();
  for (const row of rows) if (row.threadRootId) replies.set(row.threadRootId, (replies.get(row.threadRootId) ?? 0) + 1);
  const write: sql.BatchWrite = { roomId, afterSeq: room.lastSeq, messages, mentions, replies, agentsPausedAt: pauseChanged ? pausedAt : undefined, agents: [...activeAgents], at };

  const stored = messages.map((m, i) => {
    const { id, handle, displayName, kind } = memberOf.get(m.authorId)!.participant;
    return presentMessage({ ...m, replyCount: 0, lastReplyAt: null, data: m.data ?? null, editedAt: null, deletedAt: null, author: { id, handle, displayName, kind }, mentions: rows[i].mentions.map((participantId) => ({ participantId })).sort(byParticipant), receipts: [] });
  });
  const byPending = new Map<PendingSend, MessageView>();
  rows.forEach((row, i) => {
    if (!row.pending) return;
    const pending = row.pending;
    byPending.set(pending, stored[i]);
    settle.push(() => pending.resolve(stored[i]));
  });
  // The guard as these sends leave it; unknown (read again) if it was not loaded and no person spoke.
  const guardAfter = guard ?? (people ? LoopGuard.afterPerson(workspace!) : null);
  const after = { room: { ...room, lastSeq: room.lastSeq + messages.length, agentsPausedAt: pausedAt }, workspace: workspace!, members: facts.members, guard: guardAfter };
  return { outcome: { stored, settle: [...settle, ...twinSettlers(twins, byPending)], room: fanOutTo }, write, refused, after };
}

/**
 * Counts an agent's send against its rate limit once, however many times its batch is decided: a
 * batch decided again (the room moved) or retried send by send finds the verdict it had, unless it
 * is decided under other limits (its first decision's were no longer true), which count it afresh.
 */
async function countAgentMessage(pending: PendingSend, limits: ReturnType<typeof effectiveLimits>): Promise<void> {
  const key = `${limits.messagesPerMinute}/${limits.burst}`;
  if (pending.rate?.key !== key) {
    const verdict = consumeAgentMessage(pending.actor, limits).then(
      () => null,
      (error: unknown) => ({ error }),
    );
    pending.rate = { key, verdict };
  }
  const verdict = await pending.rate.verdict;
  if (verdict) throw verdict.error;
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
  // Found stored by the batch's read, so any connection reads them.
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

