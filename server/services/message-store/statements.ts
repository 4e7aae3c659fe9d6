// The message store's SQL, each statement written once over both databases: what differs between them
// (lists, tables of values, timestamps, how rows come back) is a fragment of the dialect (`d`). How the
// statements run (a transaction of them on SQLite, one statement of CTEs on PostgreSQL) is in sqlite.ts
// and postgres.ts.
import { Prisma } from "../../db";
import { query, rowsOf, table, type Run, type SqlDialect } from "./dialect";
import { factsFromRows, lastSeqOfAuthors, type BatchWrite, type FactRow, type FactsReader, type MessagePage, type MessageRow, type SendKey } from "./types";

const sql = Prisma.sql;

const member = sql`m."participantId" AS "id", m."role", m."deliveryMode", p."handle", p."displayName", p."kind", p."status",
        p."messagesPerMinute", p."burst", p."rateLimitExempt"`;

/** The one read a batch is decided on (see `FactsReader.batchFacts`). */
export function batchFacts(d: SqlDialect, roomId: string, sends: SendKey[], mentioned: string[]) {
  const authorIds = [...new Set(sends.map((s) => s.authorId))];
  const mentionable = mentioned.length
    ? sql`
      UNION ALL
      SELECT 'mentionable', m."participantId", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
      FROM ${table("RoomMember")} m WHERE m."roomId" = ${roomId} AND ${d.inList(sql`m."participantId"`, [...new Set(mentioned)])}`
    : Prisma.empty;
  return query<FactRow>(
    sql`
    SELECT r."workspaceId", r."kind" AS "roomKind", r."visibility", r."lastSeq", r."agentsPausedAt", r."archivedAt",
      w."agentMessagesPerMinute", w."agentBurst", w."peopleMessagesPerMinute", w."peopleBurst", w."loopGuardMessages", w."loopGuardWindowSec", f.*
    FROM ${table("Room")} r JOIN ${table("Workspace")} w ON w."id" = r."workspaceId" LEFT JOIN (
      SELECT 'member' AS "what", ${member}
      FROM ${table("RoomMember")} m JOIN ${table("Participant")} p ON p."id" = m."participantId"
      WHERE m."roomId" = ${roomId} AND ${d.inList(sql`m."participantId"`, authorIds)}
      UNION ALL
      SELECT 'member' AS "what", ${member}
      FROM ${table("RoomMember")} m JOIN ${table("Participant")} p ON p."id" = m."participantId"
      WHERE m."roomId" = ${roomId} AND m."deliveryMode" = 'mentions' AND m."pausedAt" IS NULL AND p."kind" = 'agent'
        AND NOT (${d.inList(sql`m."participantId"`, authorIds)})
      UNION ALL
      SELECT 'stored', s."id", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
      FROM ${d.storedUnder(sends.map((s) => [s.authorId, s.clientMsgId] as const))}${mentionable}
    ) f ON TRUE
    WHERE r."id" = ${roomId}`,
    { agentsPausedAt: "date", archivedAt: "date", rateLimitExempt: "bool" },
  );
}

/** When the agents' text messages since the room's last text by a person were written (see `FactsReader.agentRun`). */
export const agentRun = (d: SqlDialect, roomId: string, since: Date, limit: number) =>
  query<{ createdAt: Date }>(
    sql`
    SELECT m."createdAt" FROM ${table("Message")} m JOIN ${table("Participant")} p ON p."id" = m."authorId"
    WHERE m."roomId" = ${roomId} AND m."kind" = 'text' AND p."kind" = 'agent' AND m."createdAt" >= ${d.timestamp(since)}
      AND m."seq" > COALESCE((
        SELECT h."seq" FROM ${table("Message")} h JOIN ${table("Participant")} hp ON hp."id" = h."authorId"
        WHERE h."roomId" = ${roomId} AND h."kind" = 'text' AND hp."kind" = 'human'
        ORDER BY h."seq" DESC LIMIT 1), 0)
    ORDER BY m."seq" DESC LIMIT ${limit}`,
    { createdAt: "date" },
  );

/** The facts a batch is decided on, read by `run`. */
export function factsReader(d: SqlDialect, run: Run): FactsReader {
  return {
    batchFacts: async (roomId, sends, mentioned) => factsFromRows(roomId, await rowsOf(d, run, batchFacts(d, roomId, sends, mentioned))),
    agentRun: async (roomId, since, limit) => (await rowsOf(d, run, agentRun(d, roomId, since, limit))).map((r) => r.createdAt).reverse(),
  };
}

/** Touches the active agents among `ids` (on PostgreSQL their rows stay locked until commit: a suspension waits). */
export const holdAgents = (d: SqlDialect, ids: string[], at: Date) =>
  sql`UPDATE ${table("Participant")} SET "lastSeenAt" = ${d.timestamp(at)} WHERE ${d.inList(sql`"id"`, ids)} AND "status" = 'active'`;

/** The active agents among `ids`, touched (and held) as `holdAgents` does. */
export const activeAgents = (d: SqlDialect, ids: string[], at: Date) => query<{ id: string }>(sql`${holdAgents(d, ids, at)} RETURNING "id"`);

/** Takes the room's row (a write that changes nothing), so nothing else moves the room until commit. */
export const holdRoom = (roomId: string) => sql`UPDATE ${table("Room")} SET "lastSeq" = "lastSeq" WHERE "id" = ${roomId}`;

/**
 * Moves the room to the batch's last seq if it is still at `afterSeq` and not archived, and the files it
 * attaches are still on no message and not deleted (and `also` holds).
 */
export function moveRoom(d: SqlDialect, w: BatchWrite, also = Prisma.empty) {
  const paused = w.agentsPausedAt === undefined ? Prisma.empty : sql`, "agentsPausedAt" = ${d.timestamp(w.agentsPausedAt)}`;
  const files = w.attachments?.length
    ? sql` AND (SELECT COUNT(*) FROM ${table("StoredFile")} f WHERE ${d.inList(
        sql`f."id"`,
        w.attachments.map((a) => a.fileId),
      )} AND f."roomId" = ${w.roomId} AND f."messageId" IS NULL AND f."deletedAt" IS NULL) = ${w.attachments.length}`
    : Prisma.empty;
  return sql`UPDATE ${table("Room")} SET "lastSeq" = ${w.afterSeq + w.messages.length}${paused}
    WHERE "id" = ${w.roomId} AND "lastSeq" = ${w.afterSeq} AND "archivedAt" IS NULL${files}${also}`;
}

/**
 * The batch's writes once the room moved, by name: its messages, their mentions, the authors' read
 * cursors, the thread roots' reply counts. Each also requires `moved` where given (PostgreSQL runs them
 * in the statement that moves the room).
 */
export function batchWrites(d: SqlDialect, w: BatchWrite, moved?: Prisma.Sql): [name: string, statement: Prisma.Sql][] {
  const m = w.messages;
  if (m.length === 0) return [];
  const where = moved ? sql` WHERE ${moved}` : Prisma.empty;
  const and = moved ? sql` AND ${moved}` : Prisma.empty;
  const messages = d.values({
    alias: "v",
    columns: [
      ["id", "text"],
      ["seq", "integer"],
      ["authorId", "text"],
      ["kind", { enum: "MessageKind" }],
      ["body", "text"],
      ["clientMsgId", "text"],
      ["threadRootId", "text"],
      ["requesterId", "text"],
      ["causeId", "text"],
      ["data", "json"],
      ["createdAt", "timestamp"],
    ],
    rows: m.map((x) => [
      x.id,
      x.seq,
      x.authorId,
      x.kind,
      x.body,
      x.clientMsgId,
      x.threadRootId,
      x.requesterId,
      x.causeId,
      x.data ? JSON.stringify(x.data) : null,
      x.createdAt,
    ]),
  });
  const writes: [string, Prisma.Sql][] = [
    [
      "messages",
      sql`INSERT INTO ${table("Message")} ("id", "roomId", "seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "requesterId", "causeId", "data", "createdAt")
      SELECT ${messages.col("id")}, ${w.roomId}, ${Prisma.join(
        ["seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "requesterId", "causeId", "data", "createdAt"].map(messages.col),
      )}
      FROM ${messages.from}${where}`,
    ],
  ];
  if (w.mentions.length) {
    const mentions = d.values({
      alias: "v",
      columns: [
        ["messageId", "text"],
        ["participantId", "text"],
        ["seq", "integer"],
      ],
      rows: w.mentions.map((x) => [x.messageId, x.participantId, x.seq]),
    });
    writes.push([
      "mentions",
      sql`INSERT INTO ${table("MessageMention")} ("messageId", "participantId", "roomId", "seq")
      SELECT ${mentions.col("messageId")}, ${mentions.col("participantId")}, ${w.roomId}, ${mentions.col("seq")} FROM ${mentions.from}${where}`,
    ]);
  }
  // Authors have read what they wrote; their delivered cursors move by their own acks alone.
  const cursors = d.values({
    alias: "c",
    columns: [
      ["author", "text"],
      ["seq", "integer"],
    ],
    rows: [...lastSeqOfAuthors(m)],
  });
  writes.push([
    "cursors",
    sql`UPDATE ${table("RoomMember")} SET "readSeq" = ${cursors.col("seq")} FROM ${cursors.from}
    WHERE "roomId" = ${w.roomId} AND "participantId" = ${cursors.col("author")}${and}`,
  ]);
  if (w.attachments?.length) {
    const a = d.values({
      alias: "a",
      columns: [
        ["file", "text"],
        ["msg", "text"],
      ],
      rows: w.attachments.map((x) => [x.fileId, x.messageId]),
    });
    writes.push([
      "files",
      sql`UPDATE ${table("StoredFile")} SET "messageId" = ${a.col("msg")} FROM ${a.from}
      WHERE "id" = ${a.col("file")} AND "messageId" IS NULL AND "deletedAt" IS NULL${and}`,
    ]);
  }
  if (w.replies.size) {
    const roots = [...w.replies];
    // Each root found by its id (on PostgreSQL a join with the array would be planned as a scan of Message).
    const r = d.values({
      alias: "r",
      columns: [
        ["root", "text"],
        ["added", "integer"],
      ],
      rows: roots,
    });
    const added = sql`(SELECT ${r.col("added")} FROM ${r.from} WHERE ${r.col("root")} = "t"."id")`;
    writes.push([
      "replies",
      sql`UPDATE ${table("Message")} AS "t" SET "replyCount" = "t"."replyCount" + ${added}, "lastReplyAt" = ${d.timestamp(w.at)}
      WHERE ${d.inList(
        sql`"t"."id"`,
        roots.map(([id]) => id),
      )}${and}`,
    ]);
  }
  return writes;
}

/** A room's messages with seq in (`afterSeq`, `throughSeq`], oldest first, at most `limit`, and what presenting them needs (see `MessageStore.roomRange`). */
export async function roomRange(d: SqlDialect, run: Run, roomId: string, afterSeq: number, throughSeq: number, limit: number): Promise<MessagePage> {
  const messages = await rowsOf(
    d,
    run,
    query<MessageRow>(
      sql`
      SELECT "id", "roomId", "seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "replyCount", "lastReplyAt", "data", "createdAt", "editedAt", "deletedAt", "pinnedAt", "pinnedById"
      FROM ${table("Message")} WHERE "roomId" = ${roomId} AND "seq" > ${afterSeq} AND "seq" <= ${throughSeq} ORDER BY "seq" ASC LIMIT ${limit}`,
      { lastReplyAt: "date", data: "json", createdAt: "date", editedAt: "date", deletedAt: "date", pinnedAt: "date" },
    ),
  );
  if (messages.length === 0) return { messages, authors: [], mentions: [], receipts: [], reactions: [], files: [] };
  const [low, high] = [messages[0].seq, messages[messages.length - 1].seq];
  const [authors, mentions, receipts, reactions, files] = await Promise.all([
    rowsOf(
      d,
      run,
      query<MessagePage["authors"][number]>(sql`
      SELECT "id", "handle", "displayName", "kind" FROM ${table("Participant")} WHERE ${d.inList(sql`"id"`, [...new Set(messages.map((r) => r.authorId))])}`),
    ),
    rowsOf(
      d,
      run,
      query<MessagePage["mentions"][number]>(sql`
      SELECT "messageId", "participantId" FROM ${table("MessageMention")}
      WHERE "roomId" = ${roomId} AND "seq" >= ${low} AND "seq" <= ${high} ORDER BY "participantId" ASC`),
    ),
    rowsOf(
      d,
      run,
      query<MessagePage["receipts"][number]>(
        sql`
      SELECT "messageId", "participantId", "state", "reason", "updatedAt" FROM ${table("MessageReceipt")}
      WHERE "roomId" = ${roomId} AND "seq" >= ${low} AND "seq" <= ${high} ORDER BY "participantId" ASC`,
        { updatedAt: "date" },
      ),
    ),
    // Reactions carry no room or seq: read through their messages' (roomId, seq) index.
    rowsOf(
      d,
      run,
      query<MessagePage["reactions"][number]>(sql`
      SELECT r."messageId", r."participantId", r."emoji" FROM ${table("Reaction")} r JOIN ${table("Message")} m ON m."id" = r."messageId"
      WHERE m."roomId" = ${roomId} AND m."seq" >= ${low} AND m."seq" <= ${high} ORDER BY r."createdAt" ASC, r."participantId" ASC`),
    ),
    // Files too, through their messages' index; a deleted message's are deleted with it.
    rowsOf(
      d,
      run,
      query<MessagePage["files"][number]>(
        sql`
      SELECT f."messageId", f."id", f."name", f."contentType", f."size", f."width", f."height", f."createdAt" FROM ${table("StoredFile")} f
      JOIN ${table("Message")} m ON m."id" = f."messageId"
      WHERE m."roomId" = ${roomId} AND m."seq" >= ${low} AND m."seq" <= ${high} AND f."deletedAt" IS NULL ORDER BY f."createdAt" ASC, f."id" ASC`,
        { createdAt: "date" },
      ),
    ),
  ]);
  return { messages, authors, mentions, receipts, reactions, files };
}
