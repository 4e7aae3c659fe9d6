// Delivery to agents: which messages a member's delivery mode selects, the server-side cursors
// (delivered, processed), replay of what a member missed, and per-recipient processing receipts.
//
// Modes: `all` (everything in the room), `mentions` (what is addressed to the member, addressed.ts:
// messages by others that mention it, every message of a dm or group, and replies in threads it is
// in), `none` (nothing pushed; sync still works).
// People's browsers always get the whole room; modes shape what agents receive and pay tokens for.
import type { DeliveryMode, MembershipView, MessageView, ReceiptView, ReplayPage } from "@switchboard/sdk/contract";
import { getDb } from "../../db";
import { AppError } from "../../errors";
import { authorize, type Actor } from "../../policies";
import { presentReceipt } from "../../presenters/message";
import { audience, publish, publishNewMessages, type Committed } from "../../realtime";
import { transaction } from "../../transaction";
import { roomChanged } from "../../realtime/wakeups";
import { addressing } from "./addressed";
import { presentedMessages, roomRange } from "./reads";
import { loadMembershipFor, loadRoomOfMessage } from "../access/rooms";
import { roomViews, withMemberCount } from "../access/views";

export const REPLAY_PAGE = 500;

/** New members' default: people see everything, agents only what is addressed to them. */
export const defaultMode = (kind: string): DeliveryMode => (kind === "agent" ? "mentions" : "all");

/** Whether a member's sockets subscribe to the whole room's events. */
export const followsWholeRoom = (kind: string, mode: string): boolean => kind !== "agent" || mode === "all";

/** The next page of what `mode` selects after `afterSeq`, and the seq the page accounts for. */
export async function selectPage(
  member: { participantId: string; roomId: string; roomKind: string; mode: string },
  afterSeq: number,
  limit: number,
): Promise<Omit<ReplayPage, "roomId">> {
  // Fix the end first: what commits while we read belongs to the next page.
  const { lastSeq } = await getDb().room.findUniqueOrThrow({ where: { id: member.roomId }, select: { lastSeq: true } });
  if (member.mode === "none" || lastSeq <= afterSeq) return { messages: [], throughSeq: Math.max(afterSeq, lastSeq), hasMore: false };
  if (member.mode === "mentions") return selectAddressed(member, afterSeq, lastSeq, limit);
  const rows = await roomRange(member.roomId, afterSeq, lastSeq, limit + 1); // the whole room: the common, hot case
  const hasMore = rows.length > limit;
  const messages = rows.slice(0, limit);
  return { messages, throughSeq: hasMore ? messages[messages.length - 1].seq : lastSeq, hasMore };
}

/** A `mentions`-mode page reads the room this many seqs at a time, */
const SCAN_WINDOW = 1000;
/** and at most this many before it answers: a page may hold nothing and still move the cursor on. */
const SCAN_PER_PAGE = 20_000;

/**
 * What is addressed to the member after `afterSeq` (delivered live to a `mentions`-mode agent, see
 * addressed.ts), at most `limit`: the room's messages are read a window at a time (the few columns
 * the rule reads, and the member's mentions), the rule picks, and what it picked is read whole.
 */
async function selectAddressed(
  member: { participantId: string; roomId: string; roomKind: string },
  afterSeq: number,
  lastSeq: number,
  limit: number,
): Promise<Omit<ReplayPage, "roomId">> {
  const { participantId, roomId } = member;
  const db = getDb();
  const picked: { id: string; seq: number }[] = [];
  let through = afterSeq;
  while (through < lastSeq && picked.length <= limit && through - afterSeq < SCAN_PER_PAGE) {
    const window = { roomId, seq: { gt: through, lte: Math.min(through + SCAN_WINDOW, lastSeq) } };
    const [rows, mentions] = await Promise.all([
      db.message.findMany({ where: window, select: { id: true, seq: true, roomId: true, authorId: true, threadRootId: true }, orderBy: { seq: "asc" } }),
      db.messageMention.findMany({ where: { participantId, ...window }, select: { messageId: true } }),
    ]);
    const mentioned = new Set(mentions.map((m) => m.messageId));
    const candidates = rows.map((r) => ({ ...r, mentions: mentioned.has(r.id) ? [participantId] : [] }));
    const isAddressed = await addressing(member.roomKind, candidates, [participantId]);
    picked.push(...candidates.filter((m) => isAddressed(m, participantId)));
    through = window.seq.lte;
  }
  // One more than the page holds says there is more; the page then accounts up to its last message.
  const hasMore = picked.length > limit || through < lastSeq;
  const page = picked.slice(0, limit);
  const throughSeq = picked.length > limit ? page[page.length - 1].seq : through;
  const messages = await presentedMessages(page.map((m) => m.id));
  return { messages, throughSeq, hasMore };
}

/** Agents that receive only what is addressed to them: the room's members in `mentions` mode, not paused there. */
const listensForMentions = { deliveryMode: "mentions", pausedAt: null, participant: { kind: "agent" } } as const;

/**
 * Everything the server pushes for new messages of one room, in seq order: each goes to the room's
 * audience, and to the agents in `mentions` mode it is addressed to.
 */
export async function fanOutNew(committed: Committed, ...messages: MessageView[]): Promise<void> {
  if (messages.length === 0) return;
  const roomId = messages[0].roomId;
  const listeners = await getDb().roomMember.findMany({ where: { roomId, ...listensForMentions }, select: { participantId: true } });
  const room = listeners.length ? await getDb().room.findUniqueOrThrow({ where: { id: roomId }, select: { kind: true } }) : { kind: "channel" };
  await fanOut(committed, messages, { roomKind: room.kind, listeners: listeners.map((l) => l.participantId) });
}

/** `fanOutNew` for a caller that already knows the room's kind and its `mentions`-mode agents. */
export async function fanOut(committed: Committed, messages: MessageView[], room: { roomKind: string; listeners: string[] }): Promise<void> {
  const addressed = await addressedAgents(messages, room);
  publishNewMessages(committed, messages[0].roomId, messages);
  // Agents in `mentions` mode follow no room audience: each message addressed to them comes on its own.
  messages.forEach((message, i) => {
    if (addressed[i].length) publish(committed, addressed[i].map(audience.participant), "message:new", { roomId: message.roomId, seq: message.seq, message });
  });
  await announceMentions(committed, messages);
}

/**
 * The people these messages mention hear of it in whichever of their workspaces their browser shows
 * (`workspace:activity`), so the workspace rail counts that workspace's mentions again at once; its
 * other unread messages it counts when it asks again (every 20 s). A read only when someone is mentioned.
 */
async function announceMentions(committed: Committed, messages: MessageView[]): Promise<void> {
  const mentioned = [...new Set(messages.flatMap((m) => m.mentions.filter((id) => id !== m.author.id)))];
  if (mentioned.length === 0) return;
  const people = await getDb().member.findMany({ where: { participantId: { in: mentioned } }, select: { accountId: true, workspaceId: true } });
  for (const person of people) publish(committed, audience.account(person.accountId), "workspace:activity", { workspaceId: person.workspaceId });
}

/** For each new message, the `mentions`-mode agents it is addressed to. */
async function addressedAgents(messages: MessageView[], { roomKind, listeners }: { roomKind: string; listeners: string[] }): Promise<string[][]> {
  if (listeners.length === 0) return messages.map(() => []);
  const addressable = messages.map((m) => ({ roomId: m.roomId, seq: m.seq, authorId: m.author.id, threadRootId: m.threadRootId, mentions: m.mentions }));
  const isAddressed = await addressing(roomKind, addressable, listeners);
  return addressable.map((m) => listeners.filter((id) => isAddressed(m, id)));
}

/** The actor's rooms with its delivery mode and cursors in each (or in one room, with `roomId`). */
export async function memberships(actor: Actor, roomId?: string): Promise<MembershipView[]> {
  const rows = await getDb().roomMember.findMany({
    where: { participantId: actor.participantId, room: { archivedAt: null }, ...(roomId ? { roomId } : {}) },
    include: { room: { include: withMemberCount } },
    orderBy: { joinedAt: "asc" },
  });
  const views = await roomViews(
    rows.map((m) => m.room),
    actor.participantId,
  );
  return rows.map((m, i) => ({
    room: views[i],
    deliveryMode: m.deliveryMode,
    deliveredSeq: m.deliveredSeq,
    readSeq: m.readSeq,
    processedSeq: m.processedSeq,
    ...(m.pausedAt ? { pausedAt: m.pausedAt.toISOString() } : {}),
  }));
}

/** Sync for a member's delivery mode (agents catching up from their own cursor). */
export async function syncSelected(actor: Actor, input: { roomId: string; afterSeq: number; limit: number }) {
  const subject = await loadMembershipFor(actor, input.roomId);
  const page = await selectPage(
    { participantId: actor.participantId, roomId: input.roomId, roomKind: subject.room.kind, mode: subject.membership.deliveryMode },
    input.afterSeq,
    input.limit,
  );
  return { messages: page.messages, hasMore: page.hasMore, lastSeq: page.throughSeq };
}

export async function ackDelivery(actor: Actor, input: { roomId: string; seq: number }): Promise<{ deliveredSeq: number }> {
  const subject = await loadMembershipFor(actor, input.roomId);
  const target = Math.min(input.seq, subject.room.lastSeq);
  await getDb().roomMember.updateMany({
    where: { roomId: input.roomId, participantId: actor.participantId, deliveredSeq: { lt: target } },
    data: { deliveredSeq: target },
  });
  return { deliveredSeq: Math.max(target, subject.membership.deliveredSeq) };
}

/**
 * Pushes what each of the actor's rooms holds after its delivered cursor, page by page; the cursor
 * moves when the client acks a page. The next page is read while the client handles this one. Stops
 * when the connection does.
 */
export async function replayMissed(actor: Actor, send: (page: ReplayPage) => Promise<boolean>, only?: { roomId: string }): Promise<void> {
  const db = getDb();
  const rows = await db.roomMember.findMany({
    where: {
      participantId: actor.participantId,
      deliveryMode: { not: "none" },
      pausedAt: null,
      room: { archivedAt: null },
      ...(only ? { roomId: only.roomId } : {}),
    },
    include: { room: { select: { kind: true, lastSeq: true } } },
  });
  for (const row of rows) {
    if (row.room.lastSeq <= row.deliveredSeq) continue;
    const member = { participantId: actor.participantId, roomId: row.roomId, roomKind: row.room.kind, mode: row.deliveryMode };
    let next = selectPage(member, row.deliveredSeq, REPLAY_PAGE);
    for (;;) {
      const page = await next;
      if (page.hasMore) next = selectPage(member, page.throughSeq, REPLAY_PAGE);
      if (!(await send({ roomId: row.roomId, ...page }))) {
        await next.catch(() => {}); // settle the prefetch before leaving
        return;
      }
      await db.roomMember.updateMany({
        where: { roomId: row.roomId, participantId: actor.participantId, deliveredSeq: { lt: page.throughSeq } },
        data: { deliveredSeq: page.throughSeq },
      });
      if (!page.hasMore) break;
    }
  }
}

/**
 * What the actor's delivery modes select after its delivered cursors, room by room (oldest joined
 * first), up to `limit` messages in all: what `replayMissed` would push, for clients that ask rather
 * than listen (the MCP bridge). Pages with messages move nothing: the client acks each room's
 * `throughSeq` once it has handled the page, so a client that dies first is given the same again.
 * A stretch the mode selects nothing from moves the delivered cursor past it at once (nothing in it
 * was for the member), as an acked empty replay page would.
 * `after`: per room, a seq to start after when it is past the delivered cursor (what was pushed).
 */
export async function pendingFor(actor: Actor, limit: number, after?: ReadonlyMap<string, number>): Promise<ReplayPage[]> {
  const rows = await getDb().roomMember.findMany({
    where: { participantId: actor.participantId, deliveryMode: { not: "none" }, pausedAt: null, room: { archivedAt: null } },
    include: { room: { select: { kind: true, lastSeq: true } } },
    orderBy: { joinedAt: "asc" },
  });
  const pages: ReplayPage[] = [];
  let left = limit;
  for (const row of rows) {
    const member = { participantId: actor.participantId, roomId: row.roomId, roomKind: row.room.kind, mode: row.deliveryMode };
    let delivered = row.deliveredSeq;
    let from = Math.max(delivered, after?.get(row.roomId) ?? 0);
    while (left > 0 && from < row.room.lastSeq) {
      const page = await selectPage(member, from, left);
      if (page.messages.length > 0) {
        pages.push({ roomId: row.roomId, ...page });
        left -= page.messages.length;
        break;
      }
      // Skipping past what was pushed and not yet acked would lose it: only from the cursor itself.
      if (from === delivered) delivered = (await ackDelivery(actor, { roomId: row.roomId, seq: page.throughSeq })).deliveredSeq;
      if (page.throughSeq <= from) break;
      from = page.throughSeq;
    }
  }
  return pages;
}

/** An agent reports what it did with a message; the room sees it on the message. */
export async function recordReceipt(actor: Actor, input: { messageId: string; state: ReceiptView["state"]; reason?: string }): Promise<ReceiptView> {
  const db = getDb();
  const message = await db.message.findUnique({ where: { id: input.messageId }, select: { roomId: true, seq: true } });
  if (!message) throw new AppError("MESSAGE_NOT_FOUND", "No such message");
  const subject = await loadRoomOfMessage(actor, message.roomId);
  authorize(actor, "room.post", subject);
  const data = { state: input.state, reason: input.state === "failed" ? (input.reason ?? "") : null, updatedAt: new Date() };
  const [row, committed] = await transaction(async (tx) => {
    const receipt = await tx.messageReceipt.upsert({
      where: { messageId_participantId: { messageId: input.messageId, participantId: actor.participantId } },
      create: { messageId: input.messageId, participantId: actor.participantId, roomId: message.roomId, seq: message.seq, ...data },
      update: data,
    });
    if (input.state !== "processing") {
      await tx.roomMember.updateMany({
        where: { roomId: message.roomId, participantId: actor.participantId, processedSeq: { lt: message.seq } },
        data: { processedSeq: message.seq },
      });
    }
    return receipt;
  });
  const receipt = presentReceipt(row);
  publish(committed, audience.room(message.roomId), "message:receipt", { roomId: message.roomId, seq: message.seq, messageId: input.messageId, receipt });
  roomChanged(committed, message.roomId);
  return receipt;
}
