// The statements that store a batch of sends (server/services/sending.ts), written as SQL and run on the
// driver adapter directly (server/direct-sql.ts). They are the hot path: through Prisma's query builder
// each cost about 0.9 ms of CPU whatever its size, and a batch has fixed costs only. A batch is one read
// of the facts it depends on (`batchFacts`) and one conditional write (`storeBatch`). The SQL is the
// common subset of SQLite and PostgreSQL; tables are schema-qualified by `sqlTable`.
import { Prisma, sqlTable } from "../db";
import { prepared, type DirectTx as Tx } from "../direct-sql";
import type { WorkspaceLimits } from "./limits";

const table = (name: string) => Prisma.raw(sqlTable(name));
const list = (values: readonly (string | number)[]) => Prisma.join(values);

/** `IN (values)`: a list on SQLite; on PostgreSQL one array parameter, however many values. */
const isIn = (q: Tx, values: readonly string[]) => (q.dialect === "postgresql" ? Prisma.sql`= ANY(CAST(${values} AS TEXT[]))` : Prisma.sql`IN (${list(values)})`);

/** PostgreSQL array parameters. */
const texts = (values: (string | null)[]) => Prisma.sql`CAST(${values} AS TEXT[])`;
const integers = (values: (number | null)[]) => Prisma.sql`CAST(${values} AS INTEGER[])`;
/** A DateTime as PostgreSQL's timestamp text, in UTC (inside an array the driver would use local time). */
const pgTimestamp = (at: Date) => at.toISOString().slice(0, 23).replace("T", " ");

/** The room as a batch's sends were decided against. */
export interface RoomFacts {
  id: string;
  workspaceId: string;
  kind: string;
  visibility: string;
  /** The room's version: every change a send depends on appends a message (membership) or is checked again when storing. */
  lastSeq: number;
  agentsPausedAt: Date | null;
  archivedAt: Date | null;
}

export interface MemberRow {
  participantId: string;
  role: string;
  deliveryMode: string;
  participant: { id: string; handle: string; displayName: string; kind: string; status: string; messagesPerMinute: number | null; burst: number | null };
}

/** What a batch of sends depends on. `room` is null when there is no such room. */
export interface BatchFacts {
  room: RoomFacts | null;
  workspace: WorkspaceLimits | null;
  /** The authors' memberships and the room's agents in `mentions` mode (for the fan-out). */
  members: MemberRow[];
  /** Messages already stored under these authors and clientMsgIds (retries). */
  storedIds: string[];
}

/** SQLite answers DateTime columns of raw queries as text; PostgreSQL as text or Date. */
const asDate = (value: Date | string | null): Date | null => (value === null ? null : value instanceof Date ? value : new Date(value));

type FactRow = {
  workspaceId: string;
  roomKind: string;
  visibility: string;
  lastSeq: number;
  agentsPausedAt: Date | string | null;
  archivedAt: Date | string | null;
  agentMessagesPerMinute: number;
  agentBurst: number;
  loopGuardMessages: number;
  loopGuardWindowSec: number;
  what: "member" | "stored" | null;
  id: string | null;
  role: string;
  deliveryMode: string;
  handle: string;
  displayName: string;
  kind: string;
  status: string;
  messagesPerMinute: number | null;
  burst: number | null;
};

/**
 * Everything a batch decides on, in one read: the room and its workspace's limits, the authors'
 * memberships, the room's agents in `mentions` mode, and the retries already stored. No lock: what
 * is stored from these facts is stored only if the room has not moved since (`storeBatch`).
 */
export async function batchFacts(q: Tx, roomId: string, sends: { authorId: string; clientMsgId: string }[]): Promise<BatchFacts> {
  const authorIds = [...new Set(sends.map((s) => s.authorId))];
  // Each send's (author, clientMsgId), looked up in the unique index.
  const stored =
    q.dialect === "postgresql"
      ? Prisma.sql`FROM unnest(${texts(sends.map((s) => s.authorId))}, ${texts(sends.map((s) => s.clientMsgId))}) AS k("authorId", "clientMsgId")
          CROSS JOIN LATERAL (SELECT "id" FROM ${table("Message")} WHERE "authorId" = k."authorId" AND "clientMsgId" = k."clientMsgId" LIMIT 1) s`
      : Prisma.sql`FROM ${table("Message")} s WHERE (s."authorId", s."clientMsgId") IN (VALUES ${Prisma.join(sends.map((s) => Prisma.sql`(${s.authorId}, ${s.clientMsgId})`))})`;
  const rows = await q.query<FactRow>(prepared(Prisma.sql`
    SELECT r."workspaceId", r."kind" AS "roomKind", r."visibility", r."lastSeq", r."agentsPausedAt", r."archivedAt",
      w."agentMessagesPerMinute", w."agentBurst", w."loopGuardMessages", w."loopGuardWindowSec", f.*
    FROM ${table("Room")} r JOIN ${table("Workspace")} w ON w."id" = r."workspaceId" LEFT JOIN (
      SELECT 'member' AS "what", m."participantId" AS "id", m."role", m."deliveryMode", p."handle", p."displayName", p."kind", p."status", p."messagesPerMinute", p."burst"
      FROM ${table("RoomMember")} m JOIN ${table("Participant")} p ON p."id" = m."participantId"
      WHERE m."roomId" = ${roomId} AND (m."participantId" ${isIn(q, authorIds)} OR (m."deliveryMode" = 'mentions' AND p."kind" = 'agent'))
      UNION ALL
      SELECT 'stored', s."id", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL ${stored}
    ) f ON 1 = 1
    WHERE r."id" = ${roomId}`));
  if (rows.length === 0) return { room: null, workspace: null, members: [], storedIds: [] };
  const r = rows[0];
  const room = { id: roomId, workspaceId: r.workspaceId, kind: r.roomKind, visibility: r.visibility, lastSeq: Number(r.lastSeq), agentsPausedAt: asDate(r.agentsPausedAt), archivedAt: asDate(r.archivedAt) };
  const workspace = { agentMessagesPerMinute: r.agentMessagesPerMinute, agentBurst: r.agentBurst, loopGuardMessages: r.loopGuardMessages, loopGuardWindowSec: r.loopGuardWindowSec };
  const members: MemberRow[] = [];
  const storedIds: string[] = [];
  for (const f of rows) {
    if (f.what === "stored") storedIds.push(f.id!);
    else if (f.what === "member") {
      const participant = { id: f.id!, handle: f.handle, displayName: f.displayName, kind: f.kind, status: f.status, messagesPerMinute: f.messagesPerMinute, burst: f.burst };
      members.push({ participantId: f.id!, role: f.role, deliveryMode: f.deliveryMode, participant });
    }
  }
  return { room, workspace, members, storedIds };
}

/**
 * Holds the room row until the transaction ends (on PostgreSQL other processes' batches for the room
 * wait; SQLite has one writer anyway), for a batch whose unlocked attempt found the room moved.
 */
export async function lockRoom(tx: Tx, roomId: string): Promise<void> {
  await tx.execute(Prisma.sql`UPDATE ${table("Room")} SET "lastSeq" = "lastSeq" WHERE "id" = ${roomId}`);
}

/** Agents among `ids` that are active, holding their rows so a suspension waits for this commit. */
export async function lockActiveAgents(tx: Tx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx.query<{ id: string }>(Prisma.sql`${holdActiveAgents(tx, ids, new Date())} RETURNING "id"`);
  return new Set(rows.map((r) => r.id));
}

/** Touches the active agents among `ids`: the row locks that make a suspension wait for the commit. */
function holdActiveAgents(q: Tx, ids: string[], at: Date): Prisma.Sql {
  return Prisma.sql`UPDATE ${table("Participant")} SET "lastSeenAt" = ${at} WHERE "id" ${isIn(q, ids)} AND "status" = 'active'`;
}

/**
 * When the agents' text messages of the room's current run were written: those since `since` and
 * after the last person's text message, the latest `limit` of them, oldest first.
 */
export async function agentRunTimes(tx: Tx, roomId: string, since: Date, limit: number): Promise<Date[]> {
  const rows = await tx.query<{ createdAt: Date | string }>(Prisma.sql`
    SELECT m."createdAt" FROM ${table("Message")} m JOIN ${table("Participant")} p ON p."id" = m."authorId"
    WHERE m."roomId" = ${roomId} AND m."kind" = 'text' AND p."kind" = 'agent' AND m."createdAt" >= ${since}
      AND m."seq" > COALESCE((
        SELECT h."seq" FROM ${table("Message")} h JOIN ${table("Participant")} hp ON hp."id" = h."authorId"
        WHERE h."roomId" = ${roomId} AND h."kind" = 'text' AND hp."kind" = 'human'
        ORDER BY h."seq" DESC LIMIT 1), 0)
    ORDER BY m."seq" DESC LIMIT ${limit}`);
  return rows.map((r) => asDate(r.createdAt)!).reverse();
}

/** The columns a message is stored with. */
export interface MessageColumns {
  id: string;
  roomId: string;
  seq: number;
  authorId: string;
  kind: string;
  body: string;
  clientMsgId: string;
  threadRootId: string | null;
}

export type NewMessage = MessageColumns & { data?: object; createdAt: Date };

export type Mention = { messageId: string; participantId: string; roomId: string; seq: number };

/** What a batch stores, and the facts it was decided on that must still hold when it does. */
export interface BatchWrite {
  roomId: string;
  /** The room's `lastSeq` the batch was decided at; the messages take the seqs after it. */
  afterSeq: number;
  messages: NewMessage[];
  mentions: Mention[];
  /** Thread roots and how many replies this batch adds to each. */
  replies: Map<string, number>;
  /** The room's new `agentsPausedAt`, or undefined to leave it. */
  agentsPausedAt?: Date | null;
  /** The agents the batch took as active (its agent authors). */
  agents: string[];
  at: Date;
  /**
   * PostgreSQL: the facts the batch was decided on, when it was decided without reading them (they
   * were remembered from the room's previous batch, `known-facts.ts`); stored only if they still hold.
   */
  checks?: FactChecks;
}

/** What a batch decided on remembered facts depends on, beyond the room's `lastSeq` and its agents being active. */
export interface FactChecks {
  room: RoomFacts;
  workspace: WorkspaceLimits;
  /** The authors' memberships, as decided on. */
  authors: MemberRow[];
  /** Every agent of the room in `mentions` mode. */
  listeners: string[];
  /** The sends, none of which may be stored already (a retry is answered from a fresh read). */
  sends: { authorId: string; clientMsgId: string }[];
}

/**
 * The checks of `FactChecks`, as conditions on the room's row in the write's own statement, so the
 * facts are checked where they are relied on, with no round trip of their own. Each row is found by
 * its key (the room by its id alone, the rest by LATERAL lookups), so the statement's generic plan
 * stays index lookups however the tables grow.
 */
function factsHold(c: FactChecks): Prisma.Sql {
  const { room, workspace: w, authors: a } = c;
  const listeners = [...c.listeners].sort(); // ids are ASCII: JavaScript's order is COLLATE "C"
  // A room's workspace, kind and visibility are set when it is created and never change; its pause does.
  return Prisma.sql` AND "agentsPausedAt" IS NOT DISTINCT FROM CAST(${room.agentsPausedAt} AS TIMESTAMP(3))
    AND EXISTS (SELECT 1 FROM ${table("Workspace")} w WHERE w."id" = ${room.workspaceId} AND w."agentMessagesPerMinute" = ${w.agentMessagesPerMinute}
      AND w."agentBurst" = ${w.agentBurst} AND w."loopGuardMessages" = ${w.loopGuardMessages} AND w."loopGuardWindowSec" = ${w.loopGuardWindowSec})
    AND (SELECT COUNT(*) FROM unnest(${texts(a.map((m) => m.participantId))}, ${texts(a.map((m) => m.role))}, ${texts(a.map((m) => m.deliveryMode))},
        ${texts(a.map((m) => m.participant.handle))}, ${texts(a.map((m) => m.participant.displayName))}, ${texts(a.map((m) => m.participant.kind))},
        ${texts(a.map((m) => m.participant.status))}, ${integers(a.map((m) => m.participant.messagesPerMinute))}, ${integers(a.map((m) => m.participant.burst))})
        AS a("id", "role", "mode", "handle", "name", "kind", "status", "perMinute", "burst")
      CROSS JOIN LATERAL (SELECT 1 FROM ${table("RoomMember")} m JOIN ${table("Participant")} p ON p."id" = m."participantId"
        WHERE m."roomId" = ${room.id} AND m."participantId" = a."id" AND m."role" = a."role" AND m."deliveryMode" = a."mode"
          AND p."handle" = a."handle" AND p."displayName" = a."name" AND p."kind" = a."kind" AND p."status" = a."status"
          AND p."messagesPerMinute" IS NOT DISTINCT FROM a."perMinute" AND p."burst" IS NOT DISTINCT FROM a."burst" LIMIT 1) same) = ${a.length}
    AND (SELECT COALESCE(array_agg(m."participantId" ORDER BY m."participantId" COLLATE "C"), CAST('{}' AS TEXT[]))
      FROM ${table("RoomMember")} m CROSS JOIN LATERAL (SELECT 1 FROM ${table("Participant")} p WHERE p."id" = m."participantId" AND p."kind" = 'agent' LIMIT 1) agent
      WHERE m."roomId" = ${room.id} AND m."deliveryMode" = 'mentions') = ${texts(listeners)}
    AND NOT EXISTS (SELECT 1 FROM unnest(${texts(c.sends.map((x) => x.authorId))}, ${texts(c.sends.map((x) => x.clientMsgId))}) AS k("authorId", "clientMsgId")
      CROSS JOIN LATERAL (SELECT 1 FROM ${table("Message")} s WHERE s."authorId" = k."authorId" AND s."clientMsgId" = k."clientMsgId" LIMIT 1) retry)`;
}

/**
 * Stores the batch if the facts it was decided on still hold: the room is still at `afterSeq`
 * (nothing was appended, no member joined or left) and not archived, and every agent in `agents` is
 * still active (their rows stay held until commit, so a suspension waits). Returns false, having
 * stored nothing, when they do not.
 *
 * On PostgreSQL this is one statement of data-modifying CTEs, so outside a transaction it is one round
 * trip that commits on its own; the room row's lock is held only while it runs. On SQLite (no round
 * trips) it is several statements, to be run in a transaction.
 */
export async function storeBatch(q: Tx, w: BatchWrite): Promise<boolean> {
  const lastSeq = w.afterSeq + w.messages.length;
  const paused = w.agentsPausedAt === undefined ? Prisma.empty : Prisma.sql`, "agentsPausedAt" = ${w.agentsPausedAt}`;
  const moveRoom = (held: Prisma.Sql) => Prisma.sql`UPDATE ${table("Room")} SET "lastSeq" = ${lastSeq}${paused}
    WHERE "id" = ${w.roomId} AND "lastSeq" = ${w.afterSeq} AND "archivedAt" IS NULL${held}`;

  if (q.dialect === "sqlite") {
    // No round trips to save: batches on SQLite are always decided on a fresh read.
    if (w.checks) throw new Error("storeBatch: fact checks are for PostgreSQL");
    if (w.agents.length && (await q.execute(holdActiveAgents(q, w.agents, w.at))) !== w.agents.length) return false;
    if ((await q.execute(moveRoom(Prisma.empty))) !== 1) return false;
    if (w.messages.length === 0) return true;
    await q.execute(Prisma.sql`INSERT INTO ${table("Message")} (${messageColumns}) VALUES ${Prisma.join(w.messages.map((m) => Prisma.sql`(${messageValues(m)})`))}`);
    if (w.mentions.length) await q.execute(Prisma.sql`INSERT INTO ${table("MessageMention")} (${mentionColumns}) VALUES ${Prisma.join(w.mentions.map((m) => Prisma.sql`(${m.messageId}, ${m.participantId}, ${m.roomId}, ${m.seq})`))}`);
    await q.execute(moveCursors(w.roomId, w.messages));
    if (w.replies.size) await q.execute(countReplies(w.replies, w.at));
    return true;
  }

  // PostgreSQL: each write below happens only if "roomMoved" did, and that only if every agent was
  // held. Rows go in as one array parameter per column (unnest), so a batch of 200 messages is
  // planned like a batch of one.
  const ctes: Prisma.Sql[] = [];
  let held = w.checks ? factsHold(w.checks) : Prisma.empty;
  if (w.agents.length) {
    ctes.push(Prisma.sql`"agentsHeld" AS (${holdActiveAgents(q, w.agents, w.at)} RETURNING 1)`);
    held = Prisma.sql`${held} AND (SELECT COUNT(*) FROM "agentsHeld") = ${w.agents.length}`;
  }
  ctes.push(Prisma.sql`"roomMoved" AS (${moveRoom(held)} RETURNING 1)`);
  const moved = Prisma.sql`EXISTS (SELECT 1 FROM "roomMoved")`;
  if (w.messages.length) {
    const m = w.messages;
    ctes.push(Prisma.sql`"messages" AS (INSERT INTO ${table("Message")} (${messageColumns})
      SELECT "id", ${w.roomId}, "seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "data", "createdAt"
      FROM unnest(${texts(m.map((x) => x.id))}, ${integers(m.map((x) => x.seq))}, ${texts(m.map((x) => x.authorId))}, ${texts(m.map((x) => x.kind))},
        ${texts(m.map((x) => x.body))}, ${texts(m.map((x) => x.clientMsgId))}, ${texts(m.map((x) => x.threadRootId))},
        CAST(${m.map((x) => json(x.data))} AS JSONB[]), CAST(${m.map((x) => pgTimestamp(x.createdAt))} AS TIMESTAMP(3)[]))
        AS "v"("id", "seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "data", "createdAt")
      WHERE ${moved})`);
    if (w.mentions.length) {
      const n = w.mentions;
      ctes.push(Prisma.sql`"mentions" AS (INSERT INTO ${table("MessageMention")} (${mentionColumns})
        SELECT "messageId", "participantId", ${w.roomId}, "seq" FROM unnest(${texts(n.map((x) => x.messageId))}, ${texts(n.map((x) => x.participantId))}, ${integers(n.map((x) => x.seq))})
          AS "v"("messageId", "participantId", "seq")
        WHERE ${moved})`);
    }
    const last = [...lastSeqOf(m)];
    ctes.push(Prisma.sql`"cursors" AS (UPDATE ${table("RoomMember")} SET "readSeq" = "c"."seq"
      FROM unnest(${texts(last.map(([id]) => id))}, ${integers(last.map(([, seq]) => seq))}) AS "c"("author", "seq")
      WHERE "roomId" = ${w.roomId} AND "participantId" = "c"."author" AND ${moved})`);
    if (w.replies.size) {
      const roots = [...w.replies];
      const added = Prisma.sql`(SELECT "r"."added" FROM unnest(${texts(roots.map(([id]) => id))}, ${integers(roots.map(([, n]) => n))}) AS "r"("root", "added") WHERE "r"."root" = "t"."id")`;
      ctes.push(Prisma.sql`"replies" AS (UPDATE ${table("Message")} AS "t" SET "replyCount" = "t"."replyCount" + ${added}, "lastReplyAt" = ${w.at}
        WHERE "t"."id" ${isIn(q, roots.map(([id]) => id))} AND ${moved})`);
    }
  }
  const [row] = await q.query<{ moved: number | string }>(prepared(Prisma.sql`WITH ${Prisma.join(ctes, ", ")} SELECT COUNT(*) AS "moved" FROM "roomMoved"`));
  return Number(row.moved) === 1;
}

/** Each author's last seq of the batch. */
const lastSeqOf = (messages: NewMessage[]) => new Map(messages.map((m) => [m.authorId, m.seq]));

const messageColumns = Prisma.raw(`"id", "roomId", "seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "data", "createdAt"`);
const mentionColumns = Prisma.raw(`"messageId", "participantId", "roomId", "seq"`);

/** `data` is JSON: text on SQLite, jsonb on PostgreSQL. */
const json = (data: object | undefined) => (data ? JSON.stringify(data) : null);

function messageValues(m: NewMessage): Prisma.Sql {
  return Prisma.sql`${m.id}, ${m.roomId}, ${m.seq}, ${m.authorId}, ${m.kind}, ${m.body}, ${m.clientMsgId}, ${m.threadRootId}, ${json(m.data)}, ${m.createdAt}`;
}

/**
 * Each author's read cursor to its own last message of the batch (they have read what they wrote). The
 * delivered cursor stays: only the author's acks move it, so an agent that replies while messages wait
 * behind its handler is still replayed them after a crash.
 */
function moveCursors(roomId: string, messages: NewMessage[]): Prisma.Sql {
  const lastOf = lastSeqOf(messages);
  const seqOf = Prisma.sql`CASE "participantId" ${Prisma.join(
    [...lastOf].map(([id, seq]) => Prisma.sql`WHEN ${id} THEN CAST(${seq} AS INTEGER)`),
    " ",
  )} END`;
  return Prisma.sql`UPDATE ${table("RoomMember")} SET "readSeq" = ${seqOf}
    WHERE "roomId" = ${roomId} AND "participantId" IN (${list([...lastOf.keys()])})`;
}

function countReplies(replies: Map<string, number>, at: Date): Prisma.Sql {
  const added = Prisma.sql`CASE "id" ${Prisma.join(
    [...replies].map(([id, n]) => Prisma.sql`WHEN ${id} THEN CAST(${n} AS INTEGER)`),
    " ",
  )} END`;
  return Prisma.sql`UPDATE ${table("Message")} SET "replyCount" = "replyCount" + ${added}, "lastReplyAt" = ${at} WHERE "id" IN (${list([...replies.keys()])})`;
}
