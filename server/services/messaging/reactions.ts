// Reactions, pins and "mark unread from here": changes to a message that take no seq of their own.
// Each is one write, then one event to the room (`message:reactions`, `message:pinned`) or to the
// member's own sockets (`room:unread`), published after commit. A reaction that answers an approval
// question is the questions domain's (questions/reaction-answers.ts), which calls `setReaction`.
import type { MessageView } from "@switchboard/sdk/contract";
import { MAX_REACTIONS_PER_MESSAGE, type ReactionsChange } from "@switchboard/sdk/reactions";
import { getDb, type Db, type Tx } from "../../db";
import { AppError, isUniqueViolation } from "../../errors";
import { authorize, type Actor } from "../../policies";
import { presentReactions } from "../../presenters/message";
import { audience, publish } from "../../realtime";
import { transaction } from "../../transaction";
import { loadMembershipFor, loadRoomFor, loadRoomOfMessage } from "../access/rooms";
import { recordAudit } from "../governance/audit";
import { findMessages, presentedMessages } from "./reads";

const messageFacts = { id: true, roomId: true, seq: true, authorId: true, kind: true, deletedAt: true, pinnedAt: true } as const;

async function loadMessageFor(actor: Actor, messageId: string) {
  const message = await getDb().message.findUnique({ where: { id: messageId }, select: messageFacts });
  if (!message) throw new AppError("MESSAGE_NOT_FOUND", "No such message");
  return { ...(await loadRoomOfMessage(actor, message.roomId)), message };
}

/** A message's reactions as they stand. */
async function reactionsOf(messageId: string, db: Db | Tx = getDb()) {
  const rows = await db.reaction.findMany({
    where: { messageId },
    select: { participantId: true, emoji: true },
    orderBy: [{ createdAt: "asc" }, { participantId: "asc" }],
  });
  return presentReactions(rows);
}

export interface ReactionSet {
  change: ReactionsChange;
  /** The reaction was added now (not there before). */
  added: boolean;
  message: { id: string; kind: string; authorId: string };
}

/**
 * Adds or removes the actor's reaction (idempotent both ways), then tells the room the message's
 * reactions as they now stand. A new emoji past MAX_REACTIONS_PER_MESSAGE is refused (LIMIT_REACHED);
 * adding to one already there always works.
 */
export async function setReaction(actor: Actor, input: { messageId: string; emoji: string; on: boolean }): Promise<ReactionSet> {
  const subject = await loadMessageFor(actor, input.messageId);
  authorize(actor, "message.react", subject);
  const key = { messageId: input.messageId, participantId: actor.participantId, emoji: input.emoji };
  let committed;
  let changed: "added" | "removed" | null = null;
  try {
    [changed, committed] = await transaction(async (tx) => {
      if (!input.on) return (await tx.reaction.deleteMany({ where: key })).count > 0 ? "removed" : null;
      if (await tx.reaction.findUnique({ where: { messageId_participantId_emoji: key }, select: { emoji: true } })) return null;
      const used = await tx.reaction.findMany({ where: { messageId: input.messageId }, select: { emoji: true }, distinct: ["emoji"] });
      if (!used.some((r) => r.emoji === input.emoji) && used.length >= MAX_REACTIONS_PER_MESSAGE) {
        throw new AppError("LIMIT_REACHED", `A message has at most ${MAX_REACTIONS_PER_MESSAGE} different reactions`);
      }
      await tx.reaction.create({ data: key });
      return "added";
    });
  } catch (error) {
    // The same reaction twice at once: the first told the room.
    if (!isUniqueViolation(error)) throw error;
  }
  const { message } = subject;
  const change: ReactionsChange = { roomId: message.roomId, seq: message.seq, messageId: message.id, reactions: await reactionsOf(message.id) };
  if (changed && committed) publish(committed, audience.room(message.roomId), "message:reactions", change);
  return { change, added: changed === "added", message: { id: message.id, kind: message.kind, authorId: message.authorId } };
}

/** Pins or unpins a message in its room's header (audited), and tells the room. */
export async function pinMessage(actor: Actor, input: { messageId: string; pinned: boolean }): Promise<MessageView> {
  const subject = await loadMessageFor(actor, input.messageId);
  authorize(actor, "message.pin", { ...subject, pinned: input.pinned });
  const { message } = subject;
  const [changed, committed] = await transaction(async (tx) => {
    const now = new Date();
    const { count } = await tx.message.updateMany({
      where: { id: message.id, pinnedAt: input.pinned ? null : { not: null } },
      data: { pinnedAt: input.pinned ? now : null, pinnedById: input.pinned ? actor.participantId : null },
    });
    if (count === 0) return false; // pinned (or unpinned) already
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: input.pinned ? "message.pinned" : "message.unpinned",
      subjectType: "message",
      subjectId: message.id,
      data: { roomId: message.roomId },
    });
    return true;
  });
  const [view] = await presentedMessages([message.id]);
  if (changed) publish(committed, audience.room(message.roomId), "message:pinned", { roomId: message.roomId, seq: message.seq, message: view });
  return view;
}

/** At most this many pinned messages are listed. */
const PINS_SHOWN = 100;

/** A room's pinned messages, the latest pinned first. */
export async function pinnedMessages(actor: Actor, input: { roomId: string }): Promise<MessageView[]> {
  authorize(actor, "room.read", await loadRoomFor(actor, input.roomId));
  const messages = await findMessages({ where: { roomId: input.roomId, pinnedAt: { not: null } }, orderBy: { seq: "desc" }, take: PINS_SHOWN });
  return messages.sort((a, b) => (b.pinned!.at > a.pinned!.at ? 1 : b.pinned!.at < a.pinned!.at ? -1 : b.seq - a.seq));
}

/**
 * "Mark unread from here": the actor's read cursor moves back to just before the message (never
 * forward), and the actor's sockets hear it (`room:unread`) to show the room unread again.
 */
export async function markUnread(actor: Actor, input: { messageId: string }): Promise<{ roomId: string; readSeq: number }> {
  const message = await getDb().message.findUnique({ where: { id: input.messageId }, select: { roomId: true, seq: true } });
  if (!message) throw new AppError("MESSAGE_NOT_FOUND", "No such message");
  await loadRoomOfMessage(actor, message.roomId);
  const { membership } = await loadMembershipFor(actor, message.roomId);
  const readSeq = Math.min(membership.readSeq, message.seq - 1);
  const [, committed] = await transaction((tx) =>
    tx.roomMember.updateMany({ where: { roomId: message.roomId, participantId: actor.participantId }, data: { readSeq } }),
  );
  publish(committed, audience.participant(actor.participantId), "room:unread", { roomId: message.roomId, readSeq });
  return { roomId: message.roomId, readSeq };
}
