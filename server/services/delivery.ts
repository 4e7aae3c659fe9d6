// Delivery to agents: which messages a member's delivery mode selects, the server-side cursors
// (delivered, processed), replay of what a member missed, and per-recipient processing receipts.
//
// Modes: `all` (everything in the room), `mentions` (messages that mention the member, every message
// of a dm or group, and replies in threads the member is in), `none` (nothing pushed; sync still works).
// People's browsers always get the whole room; modes shape what agents receive and pay tokens for.
import type { DeliveryMode, MembershipView, MessageView, ReceiptView, ReplayPage } from "../../sdk/contract";
import { getDb, type Prisma } from "../db";
import { AppError } from "../errors";
import { authorize, type Actor } from "../policies";
import { messageInclude, presentMessage, presentReceipt } from "../presenters/message";
import { presentRoom } from "../presenters/room";
import { audience, publish, subscribeToRoom, unsubscribeFromRoom } from "../realtime";
import { loadMembershipFor, loadRoomFor } from "./room-access";

export const REPLAY_PAGE = 500;

/** New members' default: people see everything, agents only what is addressed to them. */
export const defaultMode = (kind: string): DeliveryMode => (kind === "agent" ? "mentions" : "all");

/** Whether a member's sockets subscribe to the whole room's events. */
export const followsWholeRoom = (kind: string, mode: string): boolean => kind !== "agent" || mode === "all";

/** Threads (root ids) a member is in: it wrote the root or a reply, or was mentioned there. */
async function threadsOf(participantId: string, roomId: string): Promise<string[]> {
  const rows = await getDb().message.findMany({
    where: { roomId, OR: [{ authorId: participantId }, { mentions: { some: { participantId } } }] },
    select: { id: true, threadRootId: true },
  });
  return [...new Set(rows.map((r) => r.threadRootId ?? r.id))];
}

async function selection(participantId: string, roomId: string, roomKind: string, mode: string): Promise<Prisma.MessageWhereInput | null> {
  if (mode === "none") return null;
  if (mode === "all" || roomKind !== "channel") return {};
  return {
    authorId: { not: participantId },
    OR: [{ mentions: { some: { participantId } } }, { threadRootId: { in: await threadsOf(participantId, roomId) } }],
  };
}

/** The next page of what `mode` selects after `afterSeq`, and the seq the page accounts for. */
export async function selectPage(
  member: { participantId: string; roomId: string; roomKind: string; mode: string },
  afterSeq: number,
  limit: number,
): Promise<Omit<ReplayPage, "roomId">> {
  const db = getDb();
  // Fix the end first: what commits while we read belongs to the next page.
  const { lastSeq } = await db.room.findUniqueOrThrow({ where: { id: member.roomId }, select: { lastSeq: true } });
  const where = await selection(member.participantId, member.roomId, member.roomKind, member.mode);
  if (!where || lastSeq <= afterSeq) return { messages: [], throughSeq: Math.max(afterSeq, lastSeq), hasMore: false };
  const rows = await db.message.findMany({
    where: { roomId: member.roomId, seq: { gt: afterSeq, lte: lastSeq }, ...where },
    orderBy: { seq: "asc" },
    take: limit + 1,
    include: messageInclude,
  });
  const hasMore = rows.length > limit;
  const messages = rows.slice(0, limit).map(presentMessage);
  return { messages, throughSeq: hasMore ? messages[messages.length - 1].seq : lastSeq, hasMore };
}

/** Agents in `mentions` mode that a new message is addressed to (the room's audience has the rest). */
export async function addressedAgents(message: MessageView): Promise<string[]> {
  const db = getDb();
  const candidates = await db.roomMember.findMany({
    where: { roomId: message.roomId, deliveryMode: "mentions", participant: { kind: "agent" }, participantId: { not: message.author.id } },
    select: { participantId: true, room: { select: { kind: true } } },
  });
  if (candidates.length === 0) return [];
  if (candidates[0].room.kind !== "channel") return candidates.map((c) => c.participantId);
  const addressed = new Set(message.mentions);
  if (message.threadRootId) {
    const inThread = await db.message.findMany({
      where: { OR: [{ id: message.threadRootId }, { threadRootId: message.threadRootId }] },
      select: { authorId: true, mentions: { select: { participantId: true } } },
    });
    for (const m of inThread) {
      addressed.add(m.authorId);
      for (const x of m.mentions) addressed.add(x.participantId);
    }
  }
  return candidates.filter((c) => addressed.has(c.participantId)).map((c) => c.participantId);
}

/** Everything the server pushes for a new message: the room's audience, then addressed agents. */
export async function fanOutNew(message: MessageView): Promise<void> {
  const payload = { roomId: message.roomId, seq: message.seq, message };
  publish(audience.room(message.roomId), "message:new", payload);
  const agents = await addressedAgents(message);
  if (agents.length) publish(agents.map(audience.participant), "message:new", payload);
}

export async function memberships(actor: Actor): Promise<MembershipView[]> {
  const rows = await getDb().roomMember.findMany({
    where: { participantId: actor.participantId, room: { archivedAt: null } },
    include: { room: { include: { members: { select: { participantId: true, participant: { select: { displayName: true } } } } } } },
    orderBy: { joinedAt: "asc" },
  });
  return rows.map((m) => ({
    room: presentRoom(m.room, m.room.members.map((x) => ({ participantId: x.participantId, displayName: x.participant.displayName })), actor.participantId),
    deliveryMode: m.deliveryMode as DeliveryMode,
    deliveredSeq: m.deliveredSeq,
    readSeq: m.readSeq,
    processedSeq: m.processedSeq,
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
 * Pushes what each of the actor's rooms holds after its delivered cursor, page by page; each page
 * waits for the client's ack, which moves the cursor. Stops when the connection does.
 */
export async function replayMissed(
  actor: Actor,
  send: (page: ReplayPage) => Promise<boolean>,
): Promise<void> {
  const rows = await getDb().roomMember.findMany({
    where: { participantId: actor.participantId, deliveryMode: { not: "none" }, room: { archivedAt: null } },
    include: { room: { select: { kind: true, lastSeq: true } } },
  });
  for (const row of rows) {
    let cursor = row.deliveredSeq;
    if (row.room.lastSeq <= cursor) continue;
    for (;;) {
      const page = await selectPage({ participantId: actor.participantId, roomId: row.roomId, roomKind: row.room.kind, mode: row.deliveryMode }, cursor, REPLAY_PAGE);
      if (!(await send({ roomId: row.roomId, ...page }))) return;
      await ackDelivery(actor, { roomId: row.roomId, seq: page.throughSeq });
      cursor = page.throughSeq;
      if (!page.hasMore) break;
    }
  }
}

export async function setDeliveryMode(
  actor: Actor,
  input: { roomId: string; mode: DeliveryMode; participantId?: string },
): Promise<MembershipView> {
  const participantId = input.participantId ?? actor.participantId;
  const db = getDb();
  const subject = await loadRoomFor(actor, input.roomId);
  const membership = await db.roomMember.findUnique({ where: { roomId_participantId: { roomId: input.roomId, participantId } } });
  const participant = await db.participant.findUnique({ where: { id: participantId }, select: { id: true, ownerId: true, kind: true } });
  if (!participant) throw new AppError("PARTICIPANT_NOT_FOUND", "No such participant");
  authorize(actor, "membership.configure", { ...subject, membership, participant });
  await db.roomMember.update({ where: { roomId_participantId: { roomId: input.roomId, participantId } }, data: { deliveryMode: input.mode } });
  if (followsWholeRoom(participant.kind, input.mode)) subscribeToRoom([participantId], input.roomId);
  else unsubscribeFromRoom([participantId], input.roomId);
  const view = (await memberships({ ...actor, participantId })).find((m) => m.room.id === input.roomId);
  return view!;
}

/** An agent reports what it did with a message; the room sees it on the message. */
export async function recordReceipt(
  actor: Actor,
  input: { messageId: string; state: ReceiptView["state"]; reason?: string },
): Promise<ReceiptView> {
  const db = getDb();
  const message = await db.message.findUnique({ where: { id: input.messageId }, select: { roomId: true, seq: true } });
  if (!message) throw new AppError("MESSAGE_NOT_FOUND", "No such message");
  const subject = await loadRoomFor(actor, message.roomId);
  authorize(actor, "room.post", subject);
  const data = { state: input.state, reason: input.state === "failed" ? (input.reason ?? "") : null, updatedAt: new Date() };
  const row = await db.$transaction(async (tx) => {
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
  publish(audience.room(message.roomId), "message:receipt", { roomId: message.roomId, seq: message.seq, messageId: input.messageId, receipt });
  return receipt;
}
