// The message store on SQLite. Writes run on the driver adapter Prisma connected (server/db.ts
// `sqliteAdapter`), so they share Prisma's one connection and its transaction lock: a transaction here
// and one of Prisma's never interleave. Reads outside a transaction (what a batch is decided on, replay
// pages) run on a read-only connection of the send path's own (`sqliteReader`), each statement
// prepared once: they see the last commit, and a batch decided on them is stored only if the room has
// not moved since (`storeIfUnchanged`). Values are bound as the adapter binds Prisma's own (DateTime as
// ISO 8601 text in UTC), so what is written here reads back through Prisma unchanged.
import type { ArgType, SqlQuery, SqlQueryable } from "@prisma/driver-adapter-utils";
import { Prisma, sqliteAdapter, sqliteReader, sqliteStatement, sqlTable } from "../../db";
import { sqliteDateTime } from "../../sqlite-time";
import { AppError } from "../../errors";
import { withinHoldLimit } from "./hold-limit";
import {
  factsFromRows,
  lastSeqOfAuthors,
  type BatchWrite,
  type FactRow,
  type FactsReader,
  type HeldRoom,
  type MessagePage,
  type MessageRow,
  type MessageStore,
  type SendKey,
} from "./types";

const table = (name: string) => Prisma.raw(sqlTable(name));
const list = (values: readonly (string | number)[]) => Prisma.join(values);

function query(statement: Prisma.Sql): SqlQuery {
  return { sql: statement.sql, args: statement.values, argTypes: statement.values.map(argType) };
}

function argType(value: unknown): ArgType {
  if (value instanceof Date) return { scalarType: "datetime", arity: "scalar" };
  if (typeof value === "number") return { scalarType: Number.isInteger(value) ? "int" : "float", arity: "scalar" };
  if (typeof value === "boolean") return { scalarType: "boolean", arity: "scalar" };
  if (typeof value === "string") return { scalarType: "string", arity: "scalar" };
  return { scalarType: "unknown", arity: "scalar" };
}

type Row = Record<string, unknown>;
/** Runs a read: on the adapter's connection inside a transaction, else on the read-only connection. */
type Read = (statement: Prisma.Sql) => Promise<Row[]>;

/** Rows as objects by column name, each value as SQLite has it (DateTime as text, booleans as 0 or 1). */
async function raw(q: SqlQueryable, statement: Prisma.Sql): Promise<Row[]> {
  const { columnNames, rows } = await q.queryRaw(query(statement));
  return rows.map((row) => Object.fromEntries(columnNames.map((name, i) => [name, row[i]])));
}

/** A read on the send path's read-only connection, bound as the adapter binds values. */
const readOnly: Read = async (statement) => sqliteStatement(sqliteReader(), statement.sql).all(statement.values.map(bindable)) as Row[];

function bindable(value: unknown): unknown {
  if (value instanceof Date) return sqliteDateTime(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  return value ?? null;
}

const execute = (q: SqlQueryable, statement: Prisma.Sql): Promise<number> => q.executeRaw(query(statement));

const date = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string));

function reader(read: Read): FactsReader {
  return {
    async batchFacts(roomId: string, sends: SendKey[]) {
      const authorIds = [...new Set(sends.map((s) => s.authorId))];
      const found = await read(Prisma.sql`
        SELECT r."workspaceId", r."kind" AS "roomKind", r."visibility", r."lastSeq", r."agentsPausedAt", r."archivedAt",
          w."agentMessagesPerMinute", w."agentBurst", w."peopleMessagesPerMinute", w."peopleBurst", w."loopGuardMessages", w."loopGuardWindowSec", f.*
        FROM ${table("Room")} r JOIN ${table("Workspace")} w ON w."id" = r."workspaceId" LEFT JOIN (
          SELECT 'member' AS "what", m."participantId" AS "id", m."role", m."deliveryMode", p."handle", p."displayName", p."kind", p."status",
            p."messagesPerMinute", p."burst", p."rateLimitExempt"
          FROM ${table("RoomMember")} m JOIN ${table("Participant")} p ON p."id" = m."participantId"
          WHERE m."roomId" = ${roomId} AND m."participantId" IN (${list(authorIds)})
          UNION ALL
          SELECT 'member' AS "what", m."participantId" AS "id", m."role", m."deliveryMode", p."handle", p."displayName", p."kind", p."status",
            p."messagesPerMinute", p."burst", p."rateLimitExempt"
          FROM ${table("RoomMember")} m JOIN ${table("Participant")} p ON p."id" = m."participantId"
          WHERE m."roomId" = ${roomId} AND m."deliveryMode" = 'mentions' AND p."kind" = 'agent' AND NOT (m."participantId" IN (${list(authorIds)}))
          UNION ALL
          SELECT 'stored', s."id", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
          FROM ${table("Message")} s WHERE (s."authorId", s."clientMsgId") IN (VALUES ${Prisma.join(sends.map((s) => Prisma.sql`(${s.authorId}, ${s.clientMsgId})`))})
        ) f ON 1 = 1
        WHERE r."id" = ${roomId}`);
      const rows = found.map(
        (r) => ({ ...r, agentsPausedAt: date(r.agentsPausedAt), archivedAt: date(r.archivedAt), rateLimitExempt: r.rateLimitExempt === 1 }) as FactRow,
      );
      return factsFromRows(roomId, rows);
    },

    async agentRun(roomId: string, since: Date, limit: number) {
      const found = await read(Prisma.sql`
        SELECT m."createdAt" FROM ${table("Message")} m JOIN ${table("Participant")} p ON p."id" = m."authorId"
        WHERE m."roomId" = ${roomId} AND m."kind" = 'text' AND p."kind" = 'agent' AND m."createdAt" >= ${since}
          AND m."seq" > COALESCE((
            SELECT h."seq" FROM ${table("Message")} h JOIN ${table("Participant")} hp ON hp."id" = h."authorId"
            WHERE h."roomId" = ${roomId} AND h."kind" = 'text' AND hp."kind" = 'human'
            ORDER BY h."seq" DESC LIMIT 1), 0)
        ORDER BY m."seq" DESC LIMIT ${limit}`);
      return found.map((r) => date(r.createdAt)!).reverse();
    },
  };
}

/** Touches the active agents among `ids`, returning how many there are. */
const holdActiveAgents = (q: SqlQueryable, ids: string[], at: Date) =>
  execute(q, Prisma.sql`UPDATE ${table("Participant")} SET "lastSeenAt" = ${at} WHERE "id" IN (${list(ids)}) AND "status" = 'active'`);

/** Stores the batch in the caller's transaction if the room is still at `afterSeq`; false (nothing written) if not. */
async function store(q: SqlQueryable, w: BatchWrite): Promise<boolean> {
  const paused = w.agentsPausedAt === undefined ? Prisma.empty : Prisma.sql`, "agentsPausedAt" = ${w.agentsPausedAt}`;
  const moved = await execute(
    q,
    Prisma.sql`UPDATE ${table("Room")} SET "lastSeq" = ${w.afterSeq + w.messages.length}${paused}
    WHERE "id" = ${w.roomId} AND "lastSeq" = ${w.afterSeq} AND "archivedAt" IS NULL`,
  );
  if (moved !== 1) return false;
  if (w.messages.length === 0) return true;
  await execute(
    q,
    Prisma.sql`INSERT INTO ${table("Message")} ("id", "roomId", "seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "requesterId", "causeId", "data", "createdAt")
    VALUES ${Prisma.join(w.messages.map((m) => Prisma.sql`(${m.id}, ${m.roomId}, ${m.seq}, ${m.authorId}, ${m.kind}, ${m.body}, ${m.clientMsgId}, ${m.threadRootId}, ${m.requesterId}, ${m.causeId}, ${m.data ? JSON.stringify(m.data) : null}, ${m.createdAt})`))}`,
  );
  if (w.mentions.length) {
    await execute(
      q,
      Prisma.sql`INSERT INTO ${table("MessageMention")} ("messageId", "participantId", "roomId", "seq")
      VALUES ${Prisma.join(w.mentions.map((m) => Prisma.sql`(${m.messageId}, ${m.participantId}, ${m.roomId}, ${m.seq})`))}`,
    );
  }
  // Authors have read what they wrote; their delivered cursors move by their own acks alone.
  for (const [authorId, seq] of lastSeqOfAuthors(w.messages)) {
    await execute(q, Prisma.sql`UPDATE ${table("RoomMember")} SET "readSeq" = ${seq} WHERE "roomId" = ${w.roomId} AND "participantId" = ${authorId}`);
  }
  for (const [rootId, added] of w.replies) {
    await execute(q, Prisma.sql`UPDATE ${table("Message")} SET "replyCount" = "replyCount" + ${added}, "lastReplyAt" = ${w.at} WHERE "id" = ${rootId}`);
  }
  return true;
}

/** Runs `fn` in a transaction on the adapter's connection (under its lock) and commits; rolls back if it throws. */
async function transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
  const tx = await (await sqliteAdapter()).startTransaction(); // BEGIN, holding the adapter's lock
  try {
    const result = await fn(tx);
    await tx.executeRaw({ sql: "COMMIT", args: [], argTypes: [] });
    return result;
  } catch (error) {
    await tx.executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] }).catch(() => undefined); // SQLite may have ended it already
    throw error;
  } finally {
    await tx.commit(); // releases the adapter's lock (the transaction itself ended above)
  }
}

export function sqliteStore(): MessageStore {
  return {
    dialect: "sqlite",
    ...reader(readOnly),

    storeIfUnchanged: (w) =>
      transaction(async (tx) => {
        if (w.agents.length && (await holdActiveAgents(tx, w.agents, w.at)) !== w.agents.length) return false;
        return store(tx, w);
      }),

    holding: (roomId, agentIds, fn) =>
      transaction(async (tx) => {
        // The first write takes SQLite's write lock (other processes on the file wait); the agents' and
        // the room's rows are touched in the order PostgreSQL's store takes them.
        const active = agentIds.length
          ? await raw(
              tx,
              Prisma.sql`UPDATE ${table("Participant")} SET "lastSeenAt" = ${new Date()} WHERE "id" IN (${list(agentIds)}) AND "status" = 'active' RETURNING "id"`,
            )
          : [];
        await execute(tx, Prisma.sql`UPDATE ${table("Room")} SET "lastSeq" = "lastSeq" WHERE "id" = ${roomId}`);
        let ended = false;
        const held: HeldRoom = {
          ...reader((statement) => raw(tx, statement)),
          activeAgents: new Set(active.map((a) => a.id as string)),
          async store(write) {
            if (ended) throw new AppError("UNAVAILABLE", "The room is no longer held; retry");
            if (!(await store(tx, write))) throw new AppError("UNAVAILABLE", "The room changed while a send held it; retry");
          },
        };
        return withinHoldLimit(
          () => fn(held),
          () => (ended = true),
        );
      }),

    async roomRange(roomId, afterSeq, throughSeq, limit): Promise<MessagePage> {
      const found = await readOnly(Prisma.sql`
        SELECT "id", "roomId", "seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "replyCount", "lastReplyAt", "data", "createdAt", "editedAt", "deletedAt"
        FROM ${table("Message")} WHERE "roomId" = ${roomId} AND "seq" > ${afterSeq} AND "seq" <= ${throughSeq} ORDER BY "seq" ASC LIMIT ${limit}`);
      if (found.length === 0) return { messages: [], authors: [], mentions: [], receipts: [] };
      const messages = found.map(
        (r) =>
          ({
            ...r,
            lastReplyAt: date(r.lastReplyAt),
            data: typeof r.data === "string" ? JSON.parse(r.data) : r.data,
            createdAt: date(r.createdAt)!,
            editedAt: date(r.editedAt),
            deletedAt: date(r.deletedAt),
          }) as MessageRow,
      );
      const [low, high] = [messages[0].seq, messages[messages.length - 1].seq];
      const authors = await readOnly(
        Prisma.sql`SELECT "id", "handle", "displayName", "kind" FROM ${table("Participant")} WHERE "id" IN (${list([...new Set(messages.map((r) => r.authorId))])})`,
      );
      const mentions = await readOnly(
        Prisma.sql`SELECT "messageId", "participantId" FROM ${table("MessageMention")} WHERE "roomId" = ${roomId} AND "seq" >= ${low} AND "seq" <= ${high} ORDER BY "participantId" ASC`,
      );
      const receipts = await readOnly(
        Prisma.sql`SELECT "messageId", "participantId", "state", "reason", "updatedAt" FROM ${table("MessageReceipt")} WHERE "roomId" = ${roomId} AND "seq" >= ${low} AND "seq" <= ${high} ORDER BY "participantId" ASC`,
      );
      return {
        messages,
        authors: authors as MessagePage["authors"],
        mentions: mentions as MessagePage["mentions"],
        receipts: receipts.map((r) => ({ ...r, updatedAt: date(r.updatedAt)! })) as MessagePage["receipts"],
      };
    },
  };
}
