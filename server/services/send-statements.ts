// The statements a batch of sends runs inside its transaction (server/services/sending.ts), written as
// SQL and run on the driver adapter directly (server/direct-sql.ts). They are the hot path: through
// Prisma's query builder each cost about 0.9 ms of CPU whatever its size, and a batch has fixed costs
// only. The SQL is the common subset of SQLite and PostgreSQL; tables are schema-qualified by `sqlTable`.
import { Prisma, sqlTable } from "../db";
import type { DirectTx as Tx } from "../direct-sql";
import type { WorkspaceLimits } from "./limits";

const table = (name: string) => Prisma.raw(sqlTable(name));
const list = (values: readonly (string | number)[]) => Prisma.join(values);

/** The room as a batch holds it. `lastSeq` is the value before this batch's reservation. */
export interface LockedRoom {
  id: string;
  workspaceId: string;
  kind: string;
  visibility: string;
  lastSeq: number;
  agentsPausedAt: Date | null;
  archivedAt: Date | null;
}

/** SQLite answers DateTime columns of raw queries as text; PostgreSQL as text or Date. */
const asDate = (value: Date | string | null): Date | null => (value === null ? null : value instanceof Date ? value : new Date(value));

/**
 * Locks the room row (on PostgreSQL, other processes' batches for this room wait here) and reserves
 * `count` seqs after its `lastSeq` in the same statement. A batch that stores fewer gives the rest back
 * with `settleRoom` before it commits, so no reader ever sees a gap.
 */
export async function lockRoom(tx: Tx, roomId: string, count: number): Promise<LockedRoom | null> {
  const [row] = await tx.query<Omit<LockedRoom, "agentsPausedAt" | "archivedAt"> & { agentsPausedAt: Date | string | null; archivedAt: Date | string | null }>(Prisma.sql`
    UPDATE ${table("Room")} SET "lastSeq" = "lastSeq" + ${count} WHERE "id" = ${roomId}
    RETURNING "id", "workspaceId", "kind", "visibility", "lastSeq", "agentsPausedAt", "archivedAt"`);
  if (!row) return null;
  return { ...row, lastSeq: Number(row.lastSeq) - count, agentsPausedAt: asDate(row.agentsPausedAt), archivedAt: asDate(row.archivedAt) };
}

/** Sets the room's final `lastSeq` (after a partly refused batch) and, when it changed, `agentsPausedAt`. */
export async function settleRoom(tx: Tx, roomId: string, lastSeq: number, agentsPausedAt?: Date | null): Promise<void> {
  const paused = agentsPausedAt === undefined ? Prisma.empty : Prisma.sql`, "agentsPausedAt" = ${agentsPausedAt}`;
  await tx.execute(Prisma.sql`UPDATE ${table("Room")} SET "lastSeq" = ${lastSeq}${paused} WHERE "id" = ${roomId}`);
}

export interface MemberRow {
  participantId: string;
  role: string;
  deliveryMode: string;
  participant: { id: string; handle: string; displayName: string; kind: string; messagesPerMinute: number | null; burst: number | null };
}

/**
 * In one read: the authors' memberships, the room's agents in `mentions` mode (for the fan-out), and
 * the ids of messages already stored under any of these authors and clientMsgIds (retries). Runs
 * after `lockRoom`, so it sees every membership change committed before this batch's lock.
 */
export async function batchFacts(tx: Tx, roomId: string, authorIds: string[], clientMsgIds: string[]): Promise<{ members: MemberRow[]; storedIds: string[] }> {
  const rows = await tx.query<{ what: "member" | "stored"; id: string; role: string; deliveryMode: string; handle: string; displayName: string; kind: string; messagesPerMinute: number | null; burst: number | null }>(Prisma.sql`
    SELECT 'member' AS "what", m."participantId" AS "id", m."role", m."deliveryMode", p."handle", p."displayName", p."kind", p."messagesPerMinute", p."burst"
    FROM ${table("RoomMember")} m JOIN ${table("Participant")} p ON p."id" = m."participantId"
    WHERE m."roomId" = ${roomId} AND (m."participantId" IN (${list(authorIds)}) OR (m."deliveryMode" = 'mentions' AND p."kind" = 'agent'))
    UNION ALL
    SELECT 'stored', "id", NULL, NULL, NULL, NULL, NULL, NULL, NULL
    FROM ${table("Message")} WHERE "authorId" IN (${list(authorIds)}) AND "clientMsgId" IN (${list(clientMsgIds)})`);
  const members: MemberRow[] = [];
  const storedIds: string[] = [];
  for (const r of rows) {
    if (r.what === "stored") storedIds.push(r.id);
    else {
      const participant = { id: r.id, handle: r.handle, displayName: r.displayName, kind: r.kind, messagesPerMinute: r.messagesPerMinute, burst: r.burst };
      members.push({ participantId: r.id, role: r.role, deliveryMode: r.deliveryMode, participant });
    }
  }
  return { members, storedIds };
}

/** Agents among `ids` that are active, holding their rows so a suspension waits for this commit. */
export async function lockActiveAgents(tx: Tx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx.query<{ id: string }>(Prisma.sql`
    UPDATE ${table("Participant")} SET "lastSeenAt" = ${new Date()} WHERE "id" IN (${list(ids)}) AND "status" = 'active' RETURNING "id"`);
  return new Set(rows.map((r) => r.id));
}

export async function workspaceLimitsOf(tx: Tx, workspaceId: string): Promise<WorkspaceLimits> {
  const [row] = await tx.query<WorkspaceLimits>(Prisma.sql`
    SELECT "agentMessagesPerMinute", "agentBurst", "loopGuardMessages", "loopGuardWindowSec" FROM ${table("Workspace")} WHERE "id" = ${workspaceId}`);
  if (!row) throw new Error(`workspace ${workspaceId} not found`);
  return row;
}

/** Agents' text messages in the room since `since` and after the last person's text message. */
export async function agentRunSince(tx: Tx, roomId: string, since: Date): Promise<number> {
  const [row] = await tx.query<{ run: number | string }>(Prisma.sql`
    SELECT COUNT(*) AS "run" FROM ${table("Message")} m JOIN ${table("Participant")} p ON p."id" = m."authorId"
    WHERE m."roomId" = ${roomId} AND m."kind" = 'text' AND p."kind" = 'agent' AND m."createdAt" >= ${since}
      AND m."seq" > COALESCE((
        SELECT h."seq" FROM ${table("Message")} h JOIN ${table("Participant")} hp ON hp."id" = h."authorId"
        WHERE h."roomId" = ${roomId} AND h."kind" = 'text' AND hp."kind" = 'human'
        ORDER BY h."seq" DESC LIMIT 1), 0)`);
  return Number(row?.run ?? 0);
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

type Mention = { messageId: string; participantId: string; roomId: string; seq: number };

/**
 * Stores the messages and their mentions, and moves each author's read and delivered cursors to its
 * last message of the batch. On PostgreSQL one statement (data-modifying CTEs: one round trip instead
 * of three); on SQLite, where a statement costs no round trip, three.
 */
export async function writeMessages(tx: Tx, messages: NewMessage[], mentions: Mention[], lastOf: Map<string, number>): Promise<void> {
  const cursors = moveCursors(messages[0].roomId, lastOf);
  if (tx.dialect === "postgresql") {
    const mentionCte = mentions.length ? Prisma.sql`, "mentions" AS (${insertMentionsSql(mentions)} RETURNING 1)` : Prisma.empty;
    await tx.execute(Prisma.sql`WITH "messages" AS (${insertMessagesSql(messages)} RETURNING 1)${mentionCte} ${cursors}`);
    return;
  }
  await tx.execute(insertMessagesSql(messages));
  if (mentions.length) await tx.execute(insertMentionsSql(mentions));
  await tx.execute(cursors);
}

/** One multi-row INSERT. `data` is JSON: text on SQLite, jsonb on PostgreSQL (an untyped parameter takes the column's type). */
function insertMessagesSql(messages: NewMessage[]): Prisma.Sql {
  return Prisma.sql`INSERT INTO ${table("Message")} ("id", "roomId", "seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "data", "createdAt")
    VALUES ${Prisma.join(messages.map((m) => Prisma.sql`(${m.id}, ${m.roomId}, ${m.seq}, ${m.authorId}, ${m.kind}, ${m.body}, ${m.clientMsgId}, ${m.threadRootId}, ${m.data ? JSON.stringify(m.data) : null}, ${m.createdAt})`))}`;
}

function insertMentionsSql(mentions: Mention[]): Prisma.Sql {
  return Prisma.sql`INSERT INTO ${table("MessageMention")} ("messageId", "participantId", "roomId", "seq")
    VALUES ${Prisma.join(mentions.map((m) => Prisma.sql`(${m.messageId}, ${m.participantId}, ${m.roomId}, ${m.seq})`))}`;
}

/** Each author's read and delivered cursors to its own last message: never past another author's. */
function moveCursors(roomId: string, lastOf: Map<string, number>): Prisma.Sql {
  const seqOf = Prisma.sql`CASE "participantId" ${Prisma.join(
    [...lastOf].map(([id, seq]) => Prisma.sql`WHEN ${id} THEN CAST(${seq} AS INTEGER)`),
    " ",
  )} END`;
  return Prisma.sql`UPDATE ${table("RoomMember")} SET "readSeq" = ${seqOf}, "deliveredSeq" = ${seqOf}
    WHERE "roomId" = ${roomId} AND "participantId" IN (${list([...lastOf.keys()])})`;
}

export async function countReplies(tx: Tx, rootId: string, count: number, at: Date): Promise<void> {
  await tx.execute(Prisma.sql`UPDATE ${table("Message")} SET "replyCount" = "replyCount" + ${count}, "lastReplyAt" = ${at} WHERE "id" = ${rootId}`);
}
