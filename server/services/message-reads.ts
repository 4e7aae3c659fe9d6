// Reading messages as clients see them, in four statements however many messages: the rows, their
// authors, their mentions and their receipts. Prisma's `include` would bind one parameter per message
// for each relation; replay pages of hundreds of messages spent most of their time there. Mentions and
// receipts carry their message's room and seq, so a dense run of one room's messages reads them by
// seq range instead.
import type { MessageView } from "../../sdk/contract";
import { getDb, Prisma, sqlTable } from "../db";
import { directStatements } from "../direct-sql";
import { presentMessage } from "../presenters/message";
import type { MessageColumns } from "./send-statements";

const messageFields = {
  id: true,
  roomId: true,
  seq: true,
  authorId: true,
  kind: true,
  body: true,
  clientMsgId: true,
  threadRootId: true,
  replyCount: true,
  lastReplyAt: true,
  data: true,
  createdAt: true,
  editedAt: true,
  deletedAt: true,
} as const;

export const authorFields = { id: true, handle: true, displayName: true, kind: true } as const;

/** Read by seq range when the messages fill at least this share of it; by id otherwise. */
const DENSE_ENOUGH = 0.25;

export async function findMessages(args: {
  where: Prisma.MessageWhereInput;
  orderBy: { seq: "asc" | "desc" };
  take?: number;
}): Promise<MessageView[]> {
  const db = getDb();
  const rows = await db.message.findMany({ ...args, select: messageFields });
  if (rows.length === 0) return [];

  const related = relatedRows(rows);
  const [authors, mentions, receipts] = await Promise.all([
    db.participant.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.authorId))] } }, select: authorFields }),
    db.messageMention.findMany({ where: related, select: { messageId: true, participantId: true }, orderBy: { participantId: "asc" } }),
    db.messageReceipt.findMany({
      where: related,
      select: { messageId: true, participantId: true, state: true, reason: true, updatedAt: true },
      orderBy: { participantId: "asc" },
    }),
  ]);
  return assemble(rows, authors, mentions, receipts);
}

type Author = { id: string; handle: string; displayName: string; kind: string };
type Receipt = { messageId: string; participantId: string; state: string; reason: string | null; updatedAt: Date };
type Row = Omit<Parameters<typeof presentMessage>[0], "author" | "mentions" | "receipts"> & { authorId: string };

/** Messages as clients see them, from their rows and the related rows read for them. */
function assemble(rows: Row[], authors: Author[], mentions: { messageId: string; participantId: string }[], receipts: Receipt[]): MessageView[] {
  const authorById = new Map(authors.map((a) => [a.id, a]));
  const mentionsOf = groupBy(mentions, (m) => m.messageId);
  const receiptsOf = groupBy(receipts, (r) => r.messageId);
  return rows.map((row) =>
    presentMessage({ ...row, author: authorById.get(row.authorId)!, mentions: mentionsOf.get(row.id) ?? [], receipts: receiptsOf.get(row.id) ?? [] }),
  );
}

/** Seqs are 32-bit integers in both databases. */
export const MAX_SEQ = 2_147_483_647;

/**
 * One room's messages with seq in (`afterSeq`, `throughSeq`], oldest first, at most `limit`: a replay
 * or sync page. The same four reads as `findMessages`, as SQL on the driver adapter: Prisma's result
 * mapping was most of a 500-message page's cost.
 */
export async function roomRange(roomId: string, afterSeq: number, throughSeq: number, limit: number): Promise<MessageView[]> {
  if (limit <= 0 || throughSeq <= afterSeq) return [];
  const table = (name: string) => Prisma.raw(sqlTable(name));
  return directStatements(async (q) => {
    const rows = await q.query<RawMessage>(Prisma.sql`
      SELECT "id", "roomId", "seq", "authorId", "kind", "body", "clientMsgId", "threadRootId", "replyCount", "lastReplyAt", "data", "createdAt", "editedAt", "deletedAt"
      FROM ${table("Message")} WHERE "roomId" = ${roomId} AND "seq" > ${afterSeq} AND "seq" <= ${throughSeq} ORDER BY "seq" ASC LIMIT ${limit}`);
    if (rows.length === 0) return [];
    const low = rows[0].seq;
    const high = rows[rows.length - 1].seq;
    const [authors, mentions, receipts] = await Promise.all([
      q.query<Author>(Prisma.sql`
        SELECT "id", "handle", "displayName", "kind" FROM ${table("Participant")} WHERE "id" IN (${Prisma.join([...new Set(rows.map((r) => r.authorId))])})`),
      q.query<{ messageId: string; participantId: string }>(Prisma.sql`
        SELECT "messageId", "participantId" FROM ${table("MessageMention")}
        WHERE "roomId" = ${roomId} AND "seq" >= ${low} AND "seq" <= ${high} ORDER BY "participantId" ASC`),
      q.query<Omit<Receipt, "updatedAt"> & { updatedAt: RawDate }>(Prisma.sql`
        SELECT "messageId", "participantId", "state", "reason", "updatedAt" FROM ${table("MessageReceipt")}
        WHERE "roomId" = ${roomId} AND "seq" >= ${low} AND "seq" <= ${high} ORDER BY "participantId" ASC`),
    ]);
    const messages = rows.map((row) => ({
      ...row,
      lastReplyAt: toDate(row.lastReplyAt),
      data: typeof row.data === "string" ? JSON.parse(row.data) : row.data,
      createdAt: toDate(row.createdAt)!,
      editedAt: toDate(row.editedAt),
      deletedAt: toDate(row.deletedAt),
    }));
    return assemble(messages, authors, mentions, receipts.map((r) => ({ ...r, updatedAt: toDate(r.updatedAt)! })));
  });
}

type RawDate = string | Date | null;
/** A Message row as SQL reads it (integers are numbers: the adapter and direct-sql.ts convert them). */
type RawMessage = MessageColumns & { replyCount: number; data: unknown; lastReplyAt: RawDate; createdAt: RawDate; editedAt: RawDate; deletedAt: RawDate };

/** DateTime columns read as SQL: ISO 8601 text in UTC on both databases (SQLite as stored, PostgreSQL by the adapter). */
function toDate(value: RawDate): Date | null {
  if (value === null) return null;
  return value instanceof Date ? value : new Date(value);
}

/** Which mention and receipt rows to read for these messages: a seq range when that is tight. */
function relatedRows(rows: { id: string; roomId: string; seq: number }[]) {
  const roomId = rows[0].roomId;
  let low = rows[0].seq;
  let high = rows[0].seq;
  for (const row of rows) {
    if (row.roomId !== roomId) return { messageId: { in: rows.map((r) => r.id) } };
    low = Math.min(low, row.seq);
    high = Math.max(high, row.seq);
  }
  if (rows.length < DENSE_ENOUGH * (high - low + 1)) return { messageId: { in: rows.map((r) => r.id) } };
  // Rows of messages in the range that were not asked for are read and dropped (a thread reply
  // within a page of the main timeline, say).
  return { roomId, seq: { gte: low, lte: high } };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
