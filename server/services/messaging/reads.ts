// Reading messages as clients see them, in four statements however many messages: the rows, their
// authors, their mentions and their receipts. `presentedMessages` is how a stored message is read for
// presenting by its id; pages (`findMessages`, `roomRange`) build the same views. Prisma's `include`
// would bind one parameter per message for each relation; replay pages of hundreds of messages spent
// most of their time there. Mentions and receipts carry their message's room and seq, so a dense run
// of one room's messages reads them by seq range instead.
import type { MessageView } from "@switchboard/sdk/contract";
import { getDb, type Db, type Prisma, type Tx } from "../../db";
import { presentMessage } from "../../presenters/message";
import { messageStore, type MessagePage } from "../message-store";
import { groupBy } from "../../collections";

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
  pinnedAt: true,
  pinnedById: true,
} as const;

export const authorFields = { id: true, handle: true, displayName: true, kind: true } as const;

/** Read by seq range when the messages fill at least this share of it; by id otherwise. */
const DENSE_ENOUGH = 0.25;

/**
 * The messages with these ids as clients see them, in the order of `ids` (an id with no message is left
 * out). `db`: the caller's transaction, to present what it has just written.
 */
export async function presentedMessages(ids: string[], db: Db | Tx = getDb()): Promise<MessageView[]> {
  if (ids.length === 0) return [];
  const found = new Map((await findMessages({ where: { id: { in: ids } }, orderBy: { seq: "asc" } }, db)).map((m) => [m.id, m]));
  return ids.flatMap((id) => found.get(id) ?? []);
}

/** The messages `where` selects, in seq order (at most `take`), as clients see them. */
export async function findMessages(
  args: {
    where: Prisma.MessageWhereInput;
    orderBy: { seq: "asc" | "desc" };
    take?: number;
  },
  db: Db | Tx = getDb(),
): Promise<MessageView[]> {
  const rows = await db.message.findMany({ ...args, select: messageFields });
  if (rows.length === 0) return [];

  const related = relatedRows(rows);
  const [authors, mentions, receipts, reactions, files] = await Promise.all([
    db.participant.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.authorId))] } }, select: authorFields }),
    db.messageMention.findMany({ where: related, select: { messageId: true, participantId: true }, orderBy: { participantId: "asc" } }),
    db.messageReceipt.findMany({
      where: related,
      select: { messageId: true, participantId: true, state: true, reason: true, updatedAt: true },
      orderBy: { participantId: "asc" },
    }),
    db.reaction.findMany({
      where: "roomId" in related ? { message: { roomId: related.roomId, seq: related.seq } } : related,
      select: { messageId: true, participantId: true, emoji: true },
      orderBy: [{ createdAt: "asc" }, { participantId: "asc" }],
    }),
    db.storedFile.findMany({
      where: { ...("roomId" in related ? { message: { roomId: related.roomId, seq: related.seq } } : related), deletedAt: null },
      select: fileFields,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
  ]);
  return assemble(rows, authors, mentions, receipts, reactions, files as AttachedFile[]);
}

type Author = MessagePage["authors"][number];
type Receipt = MessagePage["receipts"][number];
type Reaction = MessagePage["reactions"][number];
type AttachedFile = MessagePage["files"][number];
type Row = Omit<Parameters<typeof presentMessage>[0], "author" | "mentions" | "receipts" | "reactions" | "files"> & { authorId: string };

const fileFields = { messageId: true, id: true, name: true, contentType: true, size: true, width: true, height: true, createdAt: true } as const;

/** Messages as clients see them, from their rows and the related rows read for them. */
function assemble(
  rows: Row[],
  authors: Author[],
  mentions: { messageId: string; participantId: string }[],
  receipts: Receipt[],
  reactions: Reaction[],
  files: AttachedFile[],
): MessageView[] {
  const authorById = new Map(authors.map((a) => [a.id, a]));
  const mentionsOf = groupBy(mentions, (m) => m.messageId);
  const receiptsOf = groupBy(receipts, (r) => r.messageId);
  const reactionsOf = groupBy(reactions, (r) => r.messageId);
  const filesOf = groupBy(files, (f) => f.messageId);
  return rows.map((row) =>
    presentMessage({
      ...row,
      author: authorById.get(row.authorId)!,
      mentions: mentionsOf.get(row.id) ?? [],
      receipts: receiptsOf.get(row.id) ?? [],
      reactions: reactionsOf.get(row.id) ?? [],
      files: filesOf.get(row.id) ?? [],
    }),
  );
}

/** Seqs are 32-bit integers in both databases. */
export const MAX_SEQ = 2_147_483_647;

/**
 * One room's messages with seq in (`afterSeq`, `throughSeq`], oldest first, at most `limit`: a replay
 * or sync page. The same four reads as `findMessages`, as SQL in the message store: Prisma's result
 * mapping was most of a 500-message page's cost.
 */
export async function roomRange(roomId: string, afterSeq: number, throughSeq: number, limit: number): Promise<MessageView[]> {
  if (limit <= 0 || throughSeq <= afterSeq) return [];
  const page = await messageStore().roomRange(roomId, afterSeq, throughSeq, limit);
  return assemble(page.messages, page.authors, page.mentions, page.receipts, page.reactions, page.files);
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
