// The message store on PostgreSQL: the send path's SQL on a pg pool of its own (server/db.ts `sendPool`),
// its pages on another (`readPool`).
// Every statement is a named prepared statement (parsed and planned once per connection, which was most
// of a small statement's cost) whose text does not depend on how many values it carries: lists go in as
// one array parameter each (`unnest`), so a batch of 200 messages runs the same statement as a batch of
// one. Each row of a growing table is found by a unique key, so the generic plans stay index lookups.
import { createHash } from "node:crypto";
import type pg from "pg";
import { Prisma, readPool, sendPool, sqlTable, sqlType } from "../../db";
import {
  factsFromRows,
  lastSeqOfAuthors,
  type BatchFacts,
  type BatchWrite,
  type FactRow,
  type FactsReader,
  type HeldRoom,
  type MessagePage,
  type MessageRow,
  type MessageStore,
  type SendKey,
} from "./types";
import { AppError } from "../../errors";
import { withinHoldLimit } from "./hold-limit";

const table = (name: string) => Prisma.raw(sqlTable(name));
const texts = (values: (string | null)[]) => Prisma.sql`CAST(${values} AS TEXT[])`;
const integers = (values: number[]) => Prisma.sql`CAST(${values} AS INTEGER[])`;
/** Values of an enum column: PostgreSQL does not turn text into an enum by itself. */
const enums = (values: string[], type: string) => Prisma.sql`CAST(${values} AS ${Prisma.raw(sqlType(type))}[])`;
/** A timestamp as PostgreSQL's text, in UTC (how Prisma stores DateTime; pg would send a Date in local time). */
const timestamp = (at: Date) => at.toISOString().slice(0, 23).replace("T", " ");
const timestamps = (values: Date[]) => Prisma.sql`CAST(${values.map(timestamp)} AS TIMESTAMP(3)[])`;

type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

const names = new Map<string, string>();
function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `sb_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`));
  return name;
}

async function rows<T>(q: Queryable, statement: Prisma.Sql): Promise<T[]> {
  const result = await q.query<T & pg.QueryResultRow>({ name: nameOf(statement.text), text: statement.text, values: statement.values });
  return result.rows;
}

/** The one read a batch is decided on (see `FactsReader.batchFacts`). */
export function batchFactsStatement(roomId: string, sends: SendKey[]): Prisma.Sql {
  const authorIds = [...new Set(sends.map((s) => s.authorId))];
  return Prisma.sql`
    SELECT r."workspaceId", r."kind" AS "roomKind", r."visibility", r."lastSeq", r."agentsPausedAt", r."archivedAt",
      w."agentMessagesPerMinute", w."agentBurst", w."peopleMessagesPerMinute", w."peopleBurst", w."loopGuardMessages", w."loopGuardWindowSec", f.*
    FROM ${table("Room")} r JOIN ${table("Workspace")} w ON w."id" = r."workspaceId" LEFT JOIN (
      SELECT 'member' AS "what", m."participantId" AS "id", m."role", m."deliveryMode", p."handle", p."displayName", p."kind", p."status",
        p."messagesPerMinute", p."burst", p."rateLimitExempt"
      FROM ${table("RoomMember")} m JOIN ${table("Participant")} p ON p."id" = m."participantId"
      WHERE m."roomId" = ${roomId} AND m."participantId" = ANY(${texts(authorIds)})
      UNION ALL
      SELECT 'member' AS "what", m."participantId" AS "id", m."role", m."deliveryMode", p."handle", p."displayName", p."kind", p."status",
        p."messagesPerMinute", p."burst", p."rateLimitExempt"
      FROM ${table("RoomMember")} m JOIN ${table("Participant")} p ON p."id" = m."participantId"
      WHERE m."roomId" = ${roomId} AND m."deliveryMode" = 'mentions' AND p."kind" = 'agent' AND NOT (m."participantId" = ANY(${texts(authorIds)}))
      UNION ALL
      SELECT 'stored', s."id", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
      FROM unnest(${texts(sends.map((s) => s.authorId))}, ${texts(sends.map((s) => s.clientMsgId))}) AS k("authorId", "clientMsgId")
      CROSS JOIN LATERAL (SELECT "id" FROM ${table("Message")} WHERE "authorId" = k."authorId" AND "clientMsgId" = k."clientMsgId" LIMIT 1) s
    ) f ON TRUE
    WHERE r."id" = ${roomId}`;
}

function reader(q: Queryable): FactsReader {
  return {
    async batchFacts(roomId: string, sends: SendKey[]): Promise<BatchFacts> {
      return factsFromRows(roomId, await rows<FactRow>(q, batchFactsStatement(roomId, sends)));
    },

    async agentRun(roomId: string, since: Date, limit: number): Promise<Date[]> {
      const found = await rows<{ createdAt: Date }>(
        q,
        Prisma.sql`
        SELECT m."createdAt" FROM ${table("Message")} m JOIN ${table("Participant")} p ON p."id" = m."authorId"
        WHERE m."roomId" = ${roomId} AND m."kind" = 'text' AND p."kind" = 'agent' AND m."createdAt" >= CAST(${timestamp(since)} AS TIMESTAMP(3))
          AND m."seq" > COALESCE((
            SELECT h."seq" FROM ${table("Message")} h JOIN ${table("Participant")} hp ON hp."id" = h."authorId"
            WHERE h."roomId" = ${roomId} AND h."kind" = 'text' AND hp."kind" = 'human'
            ORDER BY h."seq" DESC LIMIT 1), 0)
        ORDER BY m."seq" DESC LIMIT ${limit}`,
      );
      return found.map((r) => r.createdAt).reverse();
    },
  };
}

/** Touches the active agents among `ids` (their rows stay locked until commit: a suspension waits). */
const holdActiveAgents = (ids: string[], at: Date) =>
  Prisma.sql`UPDATE ${table("Participant")} SET "lastSeenAt" = CAST(${timestamp(at)} AS TIMESTAMP(3)) WHERE "id" = ANY(${texts(ids)}) AND "status" = 'active'`;

/**
 * The whole batch as one statement of data-modifying CTEs. Each write happens only if "roomMoved" did:
 * the room was still at `afterSeq` and not archived, and (when the batch has agent authors) every one
 * of them was held active first. "agentsHeld" is read by roomMoved's condition, so PostgreSQL takes
 * the agents' rows before the room's: the order `holding` takes them in too.
 */
export function storeStatement(w: BatchWrite): Prisma.Sql {
  const lastSeq = w.afterSeq + w.messages.length;
  const ctes: Prisma.Sql[] = [];
  let agentsHeld = Prisma.empty;
  if (w.agents.length) {
    ctes.push(Prisma.sql`"agentsHeld" AS (${holdActiveAgents(w.agents, w.at)} RETURNING 1)`);
    agentsHeld = Prisma.sql` AND (SELECT COUNT(*) FROM "agentsHeld") = ${w.agents.length}`;
  }
  const paused =
    w.agentsPausedAt === undefined ? Prisma.empty : Prisma.sql`, "agentsPausedAt" = CAST(${w.agentsPausedAt && timestamp(w.agentsPausedAt)} AS TIMESTAMP(3))`;
  ctes.push(Prisma.sql`"roomMoved" AS (UPDATE ${table("Room")} SET "lastSeq" = ${lastSeq}${paused}
    WHERE "id" = ${w.roomId} AND "lastSeq" = ${w.afterSeq} AND "archivedAt" IS NULL${agentsHeld} RETURNING 1)`);
  const moved = Prisma.sql`EXISTS (SELECT 1 FROM "roomMoved")`;
  const m = w.messages;
  if (m.length) {
    ctes.push(Prisma.sql`"messages" AS (INSERT INTO ${table("Message")} ("id", "roomId", "seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "requesterId", "causeId", "data", "createdAt")
      SELECT "id", ${w.roomId}, "seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "requesterId", "causeId", "data", "createdAt"
      FROM unnest(${texts(m.map((x) => x.id))}, ${integers(m.map((x) => x.seq))}, ${texts(m.map((x) => x.authorId))}, ${enums(
        m.map((x) => x.kind),
        "MessageKind",
      )},
        ${texts(m.map((x) => x.body))}, ${texts(m.map((x) => x.clientMsgId))}, ${texts(m.map((x) => x.threadRootId))}, ${texts(m.map((x) => x.requesterId))}, ${texts(m.map((x) => x.causeId))},
        CAST(${m.map((x) => (x.data ? JSON.stringify(x.data) : null))} AS JSONB[]), ${timestamps(m.map((x) => x.createdAt))})
        AS "v"("id", "seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "requesterId", "causeId", "data", "createdAt")
      WHERE ${moved})`);
    if (w.mentions.length) {
      const n = w.mentions;
      ctes.push(Prisma.sql`"mentions" AS (INSERT INTO ${table("MessageMention")} ("messageId", "participantId", "roomId", "seq")
        SELECT "messageId", "participantId", ${w.roomId}, "seq" FROM unnest(${texts(n.map((x) => x.messageId))}, ${texts(n.map((x) => x.participantId))}, ${integers(n.map((x) => x.seq))})
          AS "v"("messageId", "participantId", "seq")
        WHERE ${moved})`);
    }
    // Authors have read what they wrote; their delivered cursors move by their own acks alone.
    const last = [...lastSeqOfAuthors(m)];
    ctes.push(Prisma.sql`"cursors" AS (UPDATE ${table("RoomMember")} SET "readSeq" = "c"."seq"
      FROM unnest(${texts(last.map(([id]) => id))}, ${integers(last.map(([, seq]) => seq))}) AS "c"("author", "seq")
      WHERE "roomId" = ${w.roomId} AND "participantId" = "c"."author" AND ${moved})`);
    if (w.replies.size) {
      const roots = [...w.replies];
      // Each root found by its id (a join with the array would be planned as a scan of Message).
      const added = Prisma.sql`(SELECT "r"."added" FROM unnest(${texts(roots.map(([id]) => id))}, ${integers(roots.map(([, n]) => n))}) AS "r"("root", "added") WHERE "r"."root" = "t"."id")`;
      ctes.push(Prisma.sql`"replies" AS (UPDATE ${table("Message")} AS "t" SET "replyCount" = "t"."replyCount" + ${added}, "lastReplyAt" = CAST(${timestamp(w.at)} AS TIMESTAMP(3))
        WHERE "t"."id" = ANY(${texts(roots.map(([id]) => id))}) AND ${moved})`);
    }
  }
  return Prisma.sql`WITH ${Prisma.join(ctes, ", ")} SELECT COUNT(*) AS "moved" FROM "roomMoved"`;
}

async function store(q: Queryable, w: BatchWrite): Promise<boolean> {
  const [row] = await rows<{ moved: string }>(q, storeStatement(w));
  return Number(row.moved) === 1;
}

export function postgresStore(): MessageStore {
  return {
    dialect: "postgresql",
    batchFacts: (roomId, sends) => reader(sendPool()).batchFacts(roomId, sends),
    agentRun: (roomId, since, limit) => reader(sendPool()).agentRun(roomId, since, limit),

    // One statement, committed on its own: one round trip, the room row locked only while it runs.
    storeIfUnchanged: (write) => store(sendPool(), write),

    async holding(roomId, agentIds, fn) {
      const client = await sendPool().connect();
      try {
        await client.query("BEGIN");
        const agents = agentIds.length ? await rows<{ id: string }>(client, Prisma.sql`${holdActiveAgents(agentIds, new Date())} RETURNING "id"`) : [];
        await rows(client, Prisma.sql`UPDATE ${table("Room")} SET "lastSeq" = "lastSeq" WHERE "id" = ${roomId}`);
        let ended = false;
        const held: HeldRoom = {
          ...reader(client),
          activeAgents: new Set(agents.map((a) => a.id)),
          async store(write) {
            if (ended) throw new AppError("UNAVAILABLE", "The room is no longer held; retry");
            // Nothing else moves the room while it is held.
            if (!(await store(client, write))) throw new AppError("UNAVAILABLE", "The room changed while a send held it; retry");
          },
        };
        const result = await withinHoldLimit(
          () => fn(held),
          () => (ended = true),
        );
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined); // the connection may be gone already
        throw error;
      } finally {
        client.release();
      }
    },

    async roomRange(roomId, afterSeq, throughSeq, limit): Promise<MessagePage> {
      const pool = readPool();
      const messages = await rows<MessageRow>(
        pool,
        Prisma.sql`
        SELECT "id", "roomId", "seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "replyCount", "lastReplyAt", "data", "createdAt", "editedAt", "deletedAt"
        FROM ${table("Message")} WHERE "roomId" = ${roomId} AND "seq" > ${afterSeq} AND "seq" <= ${throughSeq} ORDER BY "seq" ASC LIMIT ${limit}`,
      );
      if (messages.length === 0) return { messages, authors: [], mentions: [], receipts: [] };
      const [low, high] = [messages[0].seq, messages[messages.length - 1].seq];
      const [authors, mentions, receipts] = await Promise.all([
        rows<MessagePage["authors"][number]>(
          pool,
          Prisma.sql`
          SELECT "id", "handle", "displayName", "kind" FROM ${table("Participant")} WHERE "id" = ANY(${texts([...new Set(messages.map((r) => r.authorId))])})`,
        ),
        rows<MessagePage["mentions"][number]>(
          pool,
          Prisma.sql`
          SELECT "messageId", "participantId" FROM ${table("MessageMention")}
          WHERE "roomId" = ${roomId} AND "seq" >= ${low} AND "seq" <= ${high} ORDER BY "participantId" ASC`,
        ),
        rows<MessagePage["receipts"][number]>(
          pool,
          Prisma.sql`
          SELECT "messageId", "participantId", "state", "reason", "updatedAt" FROM ${table("MessageReceipt")}
          WHERE "roomId" = ${roomId} AND "seq" >= ${low} AND "seq" <= ${high} ORDER BY "participantId" ASC`,
        ),
      ]);
      return { messages, authors, mentions, receipts };
    },
  };
}
