import type { MessageView, ReceiptView } from "@switchboard/sdk/contract";
import type { ReactionView } from "@switchboard/sdk/reactions";
import { presentFile, type FileRow } from "./file";

interface ReceiptRow {
  participantId: string;
  state: ReceiptView["state"];
  reason: string | null;
  updatedAt: Date;
}

interface MessageRow {
  id: string;
  roomId: string;
  seq: number;
  kind: MessageView["kind"];
  body: string;
  clientMsgId: string;
  threadRootId: string | null;
  replyCount: number;
  lastReplyAt: Date | null;
  data: unknown;
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
  author: MessageView["author"];
  mentions: { participantId: string }[];
  receipts?: ReceiptRow[];
  /** The message's reactions, oldest first (absent: none). */
  reactions?: ReactionRow[];
  pinnedAt?: Date | null;
  pinnedById?: string | null;
  /** The files attached to it, not deleted (absent: none). */
  files?: FileRow[];
}

interface ReactionRow {
  participantId: string;
  emoji: string;
}

/** What every transport returns for a message. A deleted message keeps its place but not its words. */
export function presentMessage(m: MessageRow): MessageView {
  const deleted = m.deletedAt !== null;
  return {
    id: m.id,
    roomId: m.roomId,
    seq: m.seq,
    kind: m.kind,
    author: {
      id: m.author.id,
      handle: m.author.handle,
      displayName: m.author.displayName,
      kind: m.author.kind,
    },
    body: deleted ? "" : m.body,
    clientMsgId: m.clientMsgId,
    threadRootId: m.threadRootId,
    replyCount: m.replyCount,
    lastReplyAt: m.lastReplyAt?.toISOString() ?? null,
    mentions: deleted ? [] : m.mentions.map((x) => x.participantId),
    data: deleted ? null : withoutUsage(m.data ?? null),
    createdAt: m.createdAt.toISOString(),
    editedAt: m.editedAt?.toISOString() ?? null,
    deletedAt: m.deletedAt?.toISOString() ?? null,
    receipts: (m.receipts ?? []).map(presentReceipt),
    files: deleted ? [] : (m.files ?? []).map(presentFile),
    reactions: deleted ? [] : presentReactions(m.reactions ?? []),
    pinned: m.pinnedAt ? { at: m.pinnedAt.toISOString(), byId: m.pinnedById ?? null } : null,
  };
}

/** Reactions grouped by emoji, in the order each emoji was first used; `rows` oldest first. */
export function presentReactions(rows: ReactionRow[]): ReactionView[] {
  const byEmoji = new Map<string, string[]>();
  for (const r of rows) {
    const ids = byEmoji.get(r.emoji);
    if (ids) ids.push(r.participantId);
    else byEmoji.set(r.emoji, [r.participantId]);
  }
  return [...byEmoji].map(([emoji, participantIds]) => ({ emoji, count: participantIds.length, participantIds }));
}

/**
 * Earlier versions stored the cost of the calls that produced a message in its `data.usage`. Usage is
 * for the agent, its owner and admins (`usage.read`), and a message goes to the whole room: that key
 * never leaves with it.
 */
function withoutUsage(data: unknown): unknown {
  if (!data || typeof data !== "object" || Array.isArray(data) || !("usage" in data)) return data;
  const { usage: _usage, ...rest } = data as Record<string, unknown>;
  return Object.keys(rest).length ? rest : null;
}

export function presentReceipt(r: ReceiptRow): ReceiptView {
  return { participantId: r.participantId, state: r.state, reason: r.reason, at: r.updatedAt.toISOString() };
}
