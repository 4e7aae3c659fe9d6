// Rooms: channels, direct messages and group conversations, and who is in them. Membership changes
// are room events: they go through the same write path as messages and carry the room's seq.
import { type ChannelView, type RoomMemberView, type RoomView } from "@switchboard/sdk/contract";
import { getDb } from "../../db";
import { AppError, isUniqueViolation } from "../../errors";
import { newId } from "../../ids";
import { authorize, type Actor } from "../../policies";
import { participantSelect, presentParticipant } from "../../presenters/participant";
import { roomCan } from "../../presenters/room";
import { audience, publish, unsubscribeFromRoom } from "../../realtime";
import { onlineAmong } from "../../realtime/presence";
import { gate, handlesOf } from "../approvals/approvals";
import { assertCanReach } from "../access/reach";
import { fanOutNew } from "../messaging/delivery";
import { waitingFor } from "../questions/waiting";
import { bumpRoomVersion } from "../messaging/room-version";
import { transaction, TX_OPTIONS } from "../../transaction";
import { loadRoomFor } from "../access/rooms";
import { resolveRoom } from "./references";
import { sharedNowWith } from "../workspace-connections/links";
import { roomView, roomViews, withMemberCount } from "../access/views";
import { openDirectRoom } from "../membership/direct";
import { addMembers, announceJoined, auditRoom, roomParticipants, workspaceParticipants } from "../membership/members";
import { unreadCounts } from "./unread";

export interface SidebarRoom extends RoomView {
  unread: number;
  mentions: number;
  readSeq: number;
}

/** The rooms in the actor's sidebar, with unread and mention counts. */
export async function listMine(actor: Actor): Promise<SidebarRoom[]> {
  const memberships = await getDb().roomMember.findMany({
    where: { participantId: actor.participantId, room: { archivedAt: null } },
    include: { room: { include: withMemberCount } },
  });
  const [views, counts] = await Promise.all([
    roomViews(
      memberships.map((m) => m.room),
      actor.participantId,
    ),
    unreadCounts(
      [actor.participantId],
      memberships.map((m) => ({ roomId: m.roomId, readSeq: m.readSeq, lastSeq: m.room.lastSeq })),
    ),
  ]);
  return memberships.map((m, i) => ({
    ...views[i],
    unread: counts.unread.get(m.roomId) ?? 0,
    mentions: counts.mentions.get(m.roomId) ?? 0,
    readSeq: m.readSeq,
  }));
}

/**
 * Public channels of the workspace, joined or not, and archived ones (with the private archived
 * channels the actor is in, which the sidebar no longer lists): for people's browser, and agents over
 * the socket and MCP.
 */
export async function browseChannels(actor: Actor): Promise<ChannelView[]> {
  authorize(actor, "channel.browse", undefined);
  const rows = await getDb().room.findMany({
    where: {
      kind: "channel",
      OR: [
        {
          workspaceId: actor.workspaceId,
          OR: [{ visibility: "public" }, { archivedAt: { not: null }, members: { some: { participantId: actor.participantId } } }],
        },
        // Public channels of connected workspaces shared with the actor's.
        { visibility: "public", archivedAt: null, ...sharedNowWith(actor.workspaceId) },
      ],
    },
    include: {
      _count: { select: { members: true } },
      members: { where: { participantId: actor.participantId }, select: { participantId: true } },
      workspace: { select: { id: true, name: true } },
    },
    orderBy: { name: "asc" },
  });
  return rows.map((r) => ({
    id: r.id,
    name: r.name ?? "",
    topic: r.topic,
    memberCount: r._count.members,
    joined: r.members.length > 0,
    archived: r.archivedAt !== null,
    sharedFrom: r.workspaceId === actor.workspaceId ? null : r.workspace,
  }));
}

export async function getRoom(actor: Actor, roomId: string) {
  const subject = await loadRoomFor(actor, roomId);
  authorize(actor, "room.read", subject);
  const view = await roomView(roomId, actor.participantId);
  return { ...view, joined: subject.membership !== null, readSeq: subject.membership?.readSeq ?? 0, can: roomCan(actor, subject) };
}

export async function listMembers(actor: Actor, roomId: string): Promise<RoomMemberView[]> {
  authorize(actor, "room.read", await loadRoomFor(actor, roomId));
  const rows = await getDb().roomMember.findMany({
    where: { roomId },
    include: { participant: { select: participantSelect } },
    orderBy: { joinedAt: "asc" },
  });
  const ids = rows.map((r) => r.participantId);
  const [online, waiting] = await Promise.all([onlineAmong(ids), waitingFor(ids)]);
  return rows.map((r) => ({
    participant: presentParticipant(r.participant),
    role: r.role,
    online: online.has(r.participantId),
    waitingFor: waiting.get(r.participantId) ?? null,
  }));
}

export async function createChannel(
  actor: Actor,
  input: { name: string; visibility: "public" | "private"; topic: string; memberIds: string[] },
): Promise<RoomView> {
  authorize(actor, "channel.create", undefined);
  const others = (await workspaceParticipants(actor, input.memberIds)).filter((id) => id !== actor.participantId);
  const roomId = newId();
  await assertCanReach(actor, others, roomId);
  let joined;
  try {
    joined = await transaction(async (tx) => {
      await tx.room.create({
        data: {
          id: roomId,
          workspaceId: actor.workspaceId,
          kind: "channel",
          visibility: input.visibility,
          name: input.name,
          topic: input.topic,
          createdById: actor.participantId,
        },
      });
      await tx.roomMember.create({ data: { roomId, participantId: actor.participantId, role: "owner" } });
      await auditRoom(tx, roomId, actor.participantId, "room.created", { name: input.name, visibility: input.visibility });
      const created = await bumpRoomVersion(tx, roomId, actor.participantId, { type: "room.created", name: input.name, visibility: input.visibility });
      return others.length ? addMembers(tx, roomId, actor.participantId, others, "member.added") : created;
    }, TX_OPTIONS);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("NAME_TAKEN", `#${input.name} already exists`);
    throw error;
  }
  const [event, committed] = joined;
  await announceJoined(committed, roomId, event, [actor.participantId, ...others]);
  return roomView(roomId, actor.participantId);
}

/** Joins a public channel, named by its id or as `#name`. */
export async function joinRoom(actor: Actor, ref: string): Promise<RoomView> {
  const roomId = await resolveRoom(actor, ref);
  const subject = await loadRoomFor(actor, roomId);
  authorize(actor, "room.join", subject);
  if (!subject.membership) {
    const [event, committed] = await transaction((tx) => addMembers(tx, roomId, actor.participantId, [actor.participantId], "member.joined"), TX_OPTIONS);
    await announceJoined(committed, roomId, event, [actor.participantId]);
  }
  return roomView(roomId, actor.participantId);
}

export async function inviteToRoom(actor: Actor, roomId: string, participantIds: string[]): Promise<RoomView> {
  const subject = await loadRoomFor(actor, roomId);
  authorize(actor, "room.invite", subject);
  const ids = await roomParticipants(actor, subject.room, participantIds);
  await assertCanReach(actor, ids, roomId);
  const present = await getDb().roomMember.findMany({ where: { roomId, participantId: { in: ids } }, select: { participantId: true } });
  const fresh = ids.filter((id) => !present.some((p) => p.participantId === id));
  if (fresh.length) {
    const reaches = [...fresh].sort();
    await gate(
      actor,
      "room.invite",
      { roomId, reaches },
      async () => `invite ${await handlesOf(reaches)} to ${(await roomView(roomId, actor.participantId)).title}`,
    );
    const [event, committed] = await transaction((tx) => addMembers(tx, roomId, actor.participantId, fresh, "member.added"), TX_OPTIONS);
    await announceJoined(committed, roomId, event, fresh);
  }
  return roomView(roomId, actor.participantId);
}

export async function leaveRoom(actor: Actor, roomId: string): Promise<void> {
  const subject = await loadRoomFor(actor, roomId);
  authorize(actor, "room.leave", subject);
  const [event, committed] = await transaction(async (tx) => {
    await tx.roomMember.delete({ where: { roomId_participantId: { roomId, participantId: actor.participantId } } });
    await auditRoom(tx, roomId, actor.participantId, "room.left", {});
    return bumpRoomVersion(tx, roomId, actor.participantId, { type: "member.left", participantIds: [actor.participantId] });
  }, TX_OPTIONS);
  await fanOutNew(committed, event);
  publish(committed, audience.room(roomId), "room:members", { roomId, seq: event.seq, joined: [], left: [actor.participantId] });
  unsubscribeFromRoom([actor.participantId], roomId);
  publish(committed, audience.participant(actor.participantId), "room:removed", { roomId });
}

/** Opens (or finds) the direct conversation between the actor and `participantIds`, once its owner approves (for agents that must ask). */
export async function openDirect(actor: Actor, participantIds: string[]): Promise<RoomView> {
  return openDirectRoom(actor, participantIds, (reaches) =>
    gate(actor, "dm.open", { reaches }, async () => `open a direct conversation with ${await handlesOf(reaches)}`),
  );
}
