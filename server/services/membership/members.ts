// Who is in a room: adding members as one room event (audited, with the room's seq), their delivery
// defaults and modes, and telling their sockets and the room. Rooms, direct conversations and
// approvals all add members through here.
import type { DeliveryMode, MembershipView } from "@switchboard/sdk/contract";
import { getDb, type Tx } from "../../db";
import { AppError } from "../../errors";
import { authorize, type Actor } from "../../policies";
import { audience, publish, subscribeToRoom, unsubscribeFromRoom, type Committed } from "../../realtime";
import { transaction, TX_OPTIONS } from "../../transaction";
import { loadRoomFor } from "../access/rooms";
import { roomViewsFor } from "../access/views";
import { recordAudit } from "../governance/audit";
import { defaultMode, fanOutNew, followsWholeRoom, memberships } from "../messaging/delivery";
import { bumpRoomVersion } from "../messaging/room-version";
import { linkedWorkspaces } from "../workspace-connections/links";
import { holdCrossings } from "../workspace-connections/shares";

/** Participants of the actor's workspace only (a new channel's first members). */
export async function workspaceParticipants(actor: Actor, ids: string[]): Promise<string[]> {
  return (await participantsReaching(actor, ids, async () => [])).ids;
}

/**
 * Whom a direct conversation may hold: the actor's workspace's participants, and those of workspaces
 * connected with it now. Answers the workspaces the conversation spans too.
 */
export async function conversationParticipants(actor: Actor, ids: string[]): Promise<{ ids: string[]; workspaceIds: string[] }> {
  const { ids: unique, rows } = await participantsReaching(actor, ids, async () => [...(await linkedWorkspaces(actor.workspaceId)).keys()]);
  return { ids: unique, workspaceIds: [...new Set([actor.workspaceId, ...rows.map((p) => p.workspaceId)])] };
}

/** Whom a room may take in: participants of the actor's workspace, of the room's, and of the workspaces the room is shared with now. */
export async function roomParticipants(actor: Actor, room: { id: string; workspaceId: string }, ids: string[]): Promise<string[]> {
  const shared = async () =>
    (await getDb().roomShare.findMany({ where: { roomId: room.id, status: "active", connection: { status: "active" } }, select: { workspaceId: true } })).map(
      (s) => s.workspaceId,
    );
  return (await participantsReaching(actor, ids, async () => [room.workspaceId, ...(await shared())])).ids;
}

/**
 * The participants `ids` name, each of the actor's workspace or of one `otherWorkspaces` gives (read
 * only when someone is of another); anyone else is PARTICIPANT_NOT_FOUND, as an id nobody has (the
 * `direct.open` rule). Whether the actor may reach each of them is the connection rules', asked by the caller.
 */
async function participantsReaching(actor: Actor, ids: string[], otherWorkspaces: () => Promise<string[]>) {
  const unique = [...new Set(ids)];
  const rows = await getDb().participant.findMany({ where: { id: { in: unique } }, select: { id: true, workspaceId: true } });
  if (rows.length !== unique.length) throw new AppError("PARTICIPANT_NOT_FOUND", "No such participant");
  const linkedWorkspaceIds = rows.some((p) => p.workspaceId !== actor.workspaceId) ? await otherWorkspaces() : [];
  authorize(actor, "direct.open", { participants: rows, linkedWorkspaceIds });
  return { ids: unique, rows };
}

/** Adds members and records it as one room event; returns that event. Caller publishes. */
export async function addMembers(tx: Tx, roomId: string, byId: string, ids: string[], type: "member.joined" | "member.added") {
  await tx.roomMember.createMany({ data: await newMemberships(tx, roomId, ids) });
  await auditRoom(tx, roomId, byId, type === "member.joined" ? "room.joined" : "room.members_added", { participantIds: ids });
  return bumpRoomVersion(tx, roomId, byId, { type, participantIds: ids });
}

export async function auditRoom(tx: Tx, roomId: string, actorId: string, action: string, data: Record<string, unknown>) {
  const { workspaceId } = await tx.room.findUniqueOrThrow({ where: { id: roomId }, select: { workspaceId: true } });
  await recordAudit(tx, { workspaceId, actorId, action, subjectType: "room", subjectId: roomId, data });
}

/**
 * Membership rows with each participant's default delivery mode. Participants of another workspace
 * than the room's come in only while what lets them in holds, checked in `tx` (holdCrossings).
 */
export async function newMemberships(tx: Tx, roomId: string, ids: string[]) {
  const [room, participants] = await Promise.all([
    tx.room.findUniqueOrThrow({ where: { id: roomId }, select: { id: true, workspaceId: true, kind: true } }),
    tx.participant.findMany({ where: { id: { in: ids } }, select: { id: true, kind: true, workspaceId: true } }),
  ]);
  await holdCrossings(
    tx,
    room,
    participants.map((p) => p.workspaceId),
  );
  return participants.map((p) => ({ roomId, participantId: p.id, deliveryMode: defaultMode(p.kind) }));
}

/** Subscribes the new members' sockets that follow the whole room (people, agents in `all` mode). */
export async function subscribeNewMembers(roomId: string, ids: string[]): Promise<void> {
  const rows = await getDb().roomMember.findMany({
    where: { roomId, participantId: { in: ids } },
    select: { participantId: true, deliveryMode: true, participant: { select: { kind: true } } },
  });
  subscribeToRoom(
    rows.filter((r) => followsWholeRoom(r.participant.kind, r.deliveryMode)).map((r) => r.participantId),
    roomId,
  );
}

/** Once the members' joining committed: their sockets follow the room, and the room and they hear of it. */
export async function announceJoined(committed: Committed, roomId: string, event: Awaited<ReturnType<typeof addMembers>>, joined: string[]) {
  await subscribeNewMembers(roomId, joined);
  await fanOutNew(committed, event);
  publish(committed, audience.room(roomId), "room:members", { roomId, seq: event.seq, joined, left: [] });
  await announceAdded(committed, roomId, joined);
}

/** Tells each new member about the room, as they see it. */
export async function announceAdded(committed: Committed, roomId: string, joined: string[]): Promise<void> {
  const views = await roomViewsFor(roomId, joined);
  joined.forEach((id, i) => publish(committed, audience.participant(id), "room:added", { room: views[i] }));
}

/**
 * Sets what a member is pushed (its delivery mode), recorded as a room event: a batch of sends pushes
 * its messages to the room's `mentions`-mode agents as its read found them, so the change moves the
 * room's version (room-version.ts) and a batch read before it is decided again.
 */
export async function setDeliveryMode(actor: Actor, input: { roomId: string; mode: DeliveryMode; participantId?: string }): Promise<MembershipView> {
  const participantId = input.participantId ?? actor.participantId;
  const db = getDb();
  const subject = await loadRoomFor(actor, input.roomId);
  const membership = await db.roomMember.findUnique({ where: { roomId_participantId: { roomId: input.roomId, participantId } } });
  const participant = await db.participant.findUnique({ where: { id: participantId }, select: { id: true, ownerId: true, kind: true } });
  if (!participant) throw new AppError("PARTICIPANT_NOT_FOUND", "No such participant");
  authorize(actor, "membership.configure", { ...subject, membership, participant });
  if (membership!.deliveryMode !== input.mode) {
    const [event, committed] = await transaction(async (tx) => {
      await tx.roomMember.update({ where: { roomId_participantId: { roomId: input.roomId, participantId } }, data: { deliveryMode: input.mode } });
      return bumpRoomVersion(tx, input.roomId, actor.participantId, { type: "member.mode_changed", participantIds: [participantId], mode: input.mode });
    }, TX_OPTIONS);
    if (followsWholeRoom(participant.kind, input.mode)) subscribeToRoom([participantId], input.roomId);
    else unsubscribeFromRoom([participantId], input.roomId);
    await fanOutNew(committed, event);
  }
  const [view] = await memberships({ ...actor, participantId }, input.roomId);
  return view;
}
