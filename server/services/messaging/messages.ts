// Messages in a room. Every room event gets the room's next seq in a transaction and is published only
// after commit: `appendToRoom` stores one event in the caller's transaction (room events, system
// notices); people's and agents' sends go through sending.ts, which stores them in batches.
import type { MessageView } from "@switchboard/sdk/contract";
import { MAX_BODY_BYTES } from "@switchboard/sdk/contract";
import { getDb, type Tx } from "../../db";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { authorize, type Actor } from "../../policies";
import { audience, publish, type Committed } from "../../realtime";
import { transaction } from "../../transaction";
import { roomChanged } from "../../realtime/wakeups";
import { reachable } from "../access/reach";
import { selectPage, syncSelected } from "./delivery";
import { mentionedHandles, resolveMentions } from "./mentions";
import { findMessages, presentedMessages } from "./reads";
import type { NotifiedPerson } from "../notifications/outbox";
import { loadMembershipFor, loadRoomFor, loadRoomOfMessage } from "../access/rooms";
import { deleteFilesOf, removeBytes } from "../files/files";

export interface AppendInput {
  /** The message's id, when the caller needs it before the message is stored. */
  id?: string;
  roomId: string;
  authorId: string;
  body: string;
  clientMsgId: string;
  kind?: "text" | "event" | "system" | "question";
  threadRootId?: string | null;
  mentions?: string[];
  data?: object;
}

/** Stores one message with the room's next seq. Concurrent callers serialize on the room row. */
export async function appendToRoom(tx: Tx, input: AppendInput): Promise<MessageView> {
  const room = await tx.room.update({ where: { id: input.roomId }, data: { lastSeq: { increment: 1 } } });
  const message = await tx.message.create({
    data: {
      id: input.id ?? newId(),
      roomId: input.roomId,
      seq: room.lastSeq,
      authorId: input.authorId,
      kind: input.kind ?? "text",
      body: input.body,
      clientMsgId: input.clientMsgId,
      threadRootId: input.threadRootId ?? null,
      data: input.data,
      mentions: {
        create: (input.mentions ?? []).map((participantId) => ({ participantId, roomId: input.roomId, seq: room.lastSeq })),
      },
    },
    select: { id: true, createdAt: true },
  });
  if (input.threadRootId) {
    await tx.message.update({
      where: { id: input.threadRootId },
      data: { replyCount: { increment: 1 }, lastReplyAt: message.createdAt },
    });
  }
  // The author has read what they wrote; what they were delivered moves by their acks alone (replay).
  await tx.roomMember.updateMany({
    where: { roomId: input.roomId, participantId: input.authorId },
    data: { readSeq: room.lastSeq },
  });
  const [stored] = await presentedMessages([message.id], tx);
  return stored;
}

/**
 * The room members a body mentions whom the author may reach (others are left as plain text). Only
 * the handles the body names are looked up, however many members the room has.
 */
export async function mentionsIn(actor: Actor, roomId: string, body: string): Promise<string[]> {
  return (await mentionedIn(actor, roomId, body)).mentions;
}

/** A body's mentions, and the people among them with their notification preference (for the outbox). */
export async function mentionedIn(actor: Actor, roomId: string, body: string): Promise<Mentioned> {
  const handles = mentionedHandles(body);
  // The same read as before: the two columns the outbox needs come with the rows at no extra cost.
  // The room's members by handle; in a room shared across workspaces, where two have one handle, the
  // author's own workspace's is meant.
  const found = handles.length
    ? await getDb().participant.findMany({
        where: { handle: { in: handles }, roomMembers: { some: { roomId } } },
        select: { id: true, handle: true, kind: true, workspaceId: true, notifications: true },
      })
    : [];
  const members = found.filter((m) => m.workspaceId === actor.workspaceId || !found.some((o) => o.handle === m.handle && o.workspaceId === actor.workspaceId));
  const named = resolveMentions(
    body,
    members.map((m) => ({ participantId: m.id, handle: m.handle })),
  );
  const mentions = await reachable(actor, named, roomId);
  const people = members
    .filter((m) => m.kind === "human" && mentions.includes(m.id))
    .map(({ id, workspaceId, notifications }) => ({ id, workspaceId, notifications }));
  return { mentions, people };
}

export interface Mentioned {
  /** The participants mentioned (and reachable by the author). */
  mentions: string[];
  /** The people among them, with what they want to be notified of. */
  people: NotifiedPerson[];
}

/** `withFiles`: a message carrying files may have no text. */
export function checkBody(body: string, withFiles = false): void {
  if (body.trim().length === 0 && !withFiles) throw new AppError("MESSAGE_EMPTY", "A message needs some text (or a file)");
  const bytes = Buffer.byteLength(body, "utf8");
  if (bytes > MAX_BODY_BYTES) {
    throw new AppError("MESSAGE_TOO_LARGE", `A message is at most ${MAX_BODY_BYTES} bytes (this one is ${bytes})`);
  }
}

/** A message as everyone sees it. */
async function presented(messageId: string): Promise<MessageView> {
  const [message] = await presentedMessages([messageId]);
  if (!message) throw new AppError("MESSAGE_NOT_FOUND", "No such message");
  return message;
}

/** Tells the room a message changed (edited, deleted, a reply added to its thread), once that committed. */
export async function publishUpdated(committed: Committed, messageId: string): Promise<MessageView> {
  const message = await presented(messageId);
  publish(committed, audience.room(message.roomId), "message:updated", { roomId: message.roomId, seq: message.seq, message });
  roomChanged(committed, message.roomId);
  return message;
}

async function loadMessageFor(actor: Actor, messageId: string) {
  const message = await getDb().message.findUnique({ where: { id: messageId } });
  if (!message) throw new AppError("MESSAGE_NOT_FOUND", "No such message");
  const subject = await loadRoomOfMessage(actor, message.roomId);
  return { ...subject, message };
}

export async function editMessage(actor: Actor, input: { messageId: string; body: string }): Promise<MessageView> {
  const subject = await loadMessageFor(actor, input.messageId);
  authorize(actor, "message.edit", subject);
  checkBody(input.body);
  const mentions = await mentionsIn(actor, subject.message.roomId, input.body);
  const [, committed] = await transaction(async (tx) => {
    await tx.messageMention.deleteMany({ where: { messageId: input.messageId } });
    await tx.message.update({
      where: { id: input.messageId },
      data: {
        body: input.body,
        editedAt: new Date(),
        mentions: {
          create: mentions.map((participantId) => ({ participantId, roomId: subject.message.roomId, seq: subject.message.seq })),
        },
      },
    });
  });
  return publishUpdated(committed, input.messageId);
}

export async function deleteMessage(actor: Actor, input: { messageId: string }): Promise<MessageView> {
  const subject = await loadMessageFor(actor, input.messageId);
  authorize(actor, "message.delete", subject);
  if (subject.message.deletedAt) return presented(input.messageId); // deleted already: nothing changes
  const [files, committed] = await transaction(async (tx) => {
    await tx.messageMention.deleteMany({ where: { messageId: input.messageId } });
    await tx.message.update({ where: { id: input.messageId }, data: { body: "", data: undefined, deletedAt: new Date() } });
    return deleteFilesOf(tx, input.messageId);
  });
  await removeBytes(files);
  return publishUpdated(committed, input.messageId);
}

/**
 * The newest `limit` messages of a timeline (`where`) before `beforeSeq` (or the newest of all),
 * oldest first, and whether older ones remain.
 */
async function pageBefore(where: { roomId: string; threadRootId: null } | { threadRootId: string }, beforeSeq: number | undefined, limit: number) {
  const rows = await findMessages({
    where: { ...where, ...(beforeSeq !== undefined ? { seq: { lt: beforeSeq } } : {}) },
    orderBy: { seq: "desc" },
    take: limit + 1,
  });
  return { messages: rows.slice(0, limit).reverse(), hasMore: rows.length > limit };
}

/** A page of a room's main timeline (no thread replies), oldest first, ending before `beforeSeq`. */
export async function history(actor: Actor, input: { roomId: string; beforeSeq?: number; limit: number }) {
  authorize(actor, "room.read", await loadRoomFor(actor, input.roomId));
  return pageBefore({ roomId: input.roomId, threadRootId: null }, input.beforeSeq, input.limit);
}

/** The thread of a message (its root's): the root and a page of replies, paged like `history`. */
export async function thread(actor: Actor, input: { messageId: string; beforeSeq?: number; limit: number }) {
  const subject = await loadMessageFor(actor, input.messageId);
  authorize(actor, "room.read", subject);
  const rootId = subject.message.threadRootId ?? subject.message.id;
  const [[root], page] = await Promise.all([presentedMessages([rootId]), pageBefore({ threadRootId: rootId }, input.beforeSeq, input.limit)]);
  return { root, replies: page.messages, hasMore: page.hasMore };
}

/**
 * Everything in a room after `afterSeq` (thread replies and events included), in seq order; with
 * `selected`, only what the caller's delivery mode selects. In both, `lastSeq` is the seq the page
 * accounts for: the next page starts after it, and without `hasMore` it is the room's last seq.
 */
/**
 * A page of the room's messages after `afterSeq`; without it, the newest `limit` (what a model reads
 * first). `selected`: only what is addressed to the actor, by its delivery mode.
 */
export async function sync(actor: Actor, input: { roomId: string; afterSeq?: number; limit: number; selected?: boolean }) {
  if (input.selected && input.afterSeq !== undefined) return syncSelected(actor, { ...input, afterSeq: input.afterSeq });
  const subject = await loadRoomFor(actor, input.roomId);
  authorize(actor, "room.read", subject);
  const afterSeq = input.afterSeq ?? Math.max(0, subject.room.lastSeq - input.limit);
  if (input.selected) return syncSelected(actor, { ...input, afterSeq });
  const page = await selectPage({ participantId: actor.participantId, roomId: input.roomId, roomKind: subject.room.kind, mode: "all" }, afterSeq, input.limit);
  return { messages: page.messages, hasMore: page.hasMore, lastSeq: page.throughSeq };
}

export async function markRead(actor: Actor, input: { roomId: string; seq: number }) {
  const subject = await loadMembershipFor(actor, input.roomId);
  const target = Math.min(input.seq, subject.room.lastSeq);
  await getDb().roomMember.updateMany({
    where: { roomId: input.roomId, participantId: actor.participantId, readSeq: { lt: target } },
    data: { readSeq: target },
  });
  return { readSeq: Math.max(target, subject.membership.readSeq) };
}
