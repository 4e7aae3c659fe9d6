// The notification outbox: rows written after a message commits, for the sweeper to mail as digests.
// Kept off the send path's cost: a batch that mentions no person in a channel touches no table; one
// that does is one insert (and, in a dm or group, one read of the members who want every message).
// With no SMTP_URL nothing is written: nothing would ever mail the rows.
import { excerptOf, notificationFor, type MessageView, type NotificationPreference, type RoomKind } from "@switchboard/sdk/contract";
import { getDb, type Db, type Tx } from "../../db";
import { env } from "../../env";
import { newId } from "../../ids";

/** A person who may be notified, as the send path (or the dm/group read) found them. */
export type NotifiedPerson = { id: string; workspaceId: string; notifications: NotificationPreference };
type Kind = "mention" | "message" | "question";

interface OutboxRow {
  id: string;
  workspaceId: string;
  recipientId: string;
  kind: Kind;
  roomId: string;
  messageId: string;
  seq: number;
  title: string;
  excerpt: string;
}

const byline = (m: MessageView) => `${m.author.displayName} (@${m.author.handle})`;

/**
 * Enqueues what a committed batch of one room's messages notifies (see `notificationFor`): `mentioned`
 * holds the people each message mentions, with their preference, as the send path resolved them.
 */
export async function notifyNewMessages(messages: MessageView[], roomKind: RoomKind, mentioned: Map<string, NotifiedPerson[]>): Promise<void> {
  if (!env.SMTP_URL || messages.length === 0) return;
  if (roomKind === "channel" && mentioned.size === 0) return;
  const db = getDb();
  const wantEverything: NotifiedPerson[] =
    roomKind === "channel"
      ? []
      : await db.participant.findMany({
          where: { kind: "human", notifications: "all", roomMembers: { some: { roomId: messages[0].roomId } } },
          select: { id: true, workspaceId: true, notifications: true },
        });
  const rows: OutboxRow[] = [];
  for (const message of messages) {
    const people = new Map<string, NotifiedPerson>();
    for (const p of [...wantEverything, ...(mentioned.get(message.id) ?? [])]) people.set(p.id, p);
    for (const person of people.values()) {
      const kind = notificationFor(message, person, roomKind);
      if (!kind) continue;
      const title = kind === "mention" ? `${byline(message)} mentioned you` : `${byline(message)} wrote`;
      rows.push({
        id: newId(),
        workspaceId: person.workspaceId,
        recipientId: person.id,
        kind,
        roomId: message.roomId,
        messageId: message.id,
        seq: message.seq,
        title,
        excerpt: excerptOf(message.body),
      });
    }
  }
  if (rows.length) await db.notification.createMany({ data: rows });
}

export interface QuestionNotice {
  workspaceId: string;
  /** The people asked; agents, other workspaces' participants and anyone whose preference is `none` are skipped. */
  recipientIds: string[];
  roomId: string;
  /** The message that carries the question: its seq decides "read in the app", its body the excerpt. */
  messageId: string;
  /** One line, e.g. "Builder (@builder) asks you to approve the deploy". */
  title: string;
}

/**
 * Enqueues a `question` notification for each person asked, in the caller's transaction (`db` may be
 * a transaction client, so the rows commit with the question) or on its own. Returns how many rows
 * were written. Questions notify under `mentions` and `all`; `none` gets nothing.
 */
export async function notifyQuestion(db: Db | Tx, notice: QuestionNotice): Promise<number> {
  if (!env.SMTP_URL || notice.recipientIds.length === 0) return 0;
  const [people, message] = await Promise.all([
    db.participant.findMany({
      where: { id: { in: notice.recipientIds }, workspaceId: notice.workspaceId, kind: "human", notifications: { not: "none" } },
      select: { id: true },
    }),
    db.message.findUnique({ where: { id: notice.messageId }, select: { seq: true, body: true, roomId: true } }),
  ]);
  if (!message || message.roomId !== notice.roomId || people.length === 0) return 0;
  const excerpt = excerptOf(message.body);
  const { count } = await db.notification.createMany({
    data: people.map((p) => ({
      id: newId(),
      workspaceId: notice.workspaceId,
      recipientId: p.id,
      kind: "question" as const,
      roomId: notice.roomId,
      messageId: notice.messageId,
      seq: message.seq,
      title: notice.title,
      excerpt,
    })),
  });
  return count;
}
