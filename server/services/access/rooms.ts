import { getDb } from "../../db";
import { AppError } from "../../errors";
import { authorize, can, type Actor } from "../../policies";

/** A room outside the actor's workspace is, to them, no room at all. */
export function visibleRoom<R extends { workspaceId: string }>(actor: Actor, room: R | null): R {
  if (!room || room.workspaceId !== actor.workspaceId) throw new AppError("ROOM_NOT_FOUND", "No such room");
  return room;
}

/** A room and the actor's membership in it: the facts every room policy decides on. */
export async function loadRoomFor(actor: Actor, roomId: string) {
  const room = visibleRoom(actor, await getDb().room.findUnique({ where: { id: roomId } }));
  const membership = await getDb().roomMember.findUnique({
    where: { roomId_participantId: { roomId, participantId: actor.participantId } },
  });
  return { room, membership };
}

/** A room the actor is a member of, with that membership (cursors and delivery mode). */
export async function loadMembershipFor(actor: Actor, roomId: string) {
  const subject = await loadRoomFor(actor, roomId);
  authorize(actor, "room.cursor", subject);
  return { room: subject.room, membership: subject.membership! };
}

/** Of these rooms, those the actor may read (members, public channels for the workspace's members...). */
export async function readableRoomIds(actor: Actor, roomIds: string[]): Promise<Set<string>> {
  if (roomIds.length === 0) return new Set();
  const [rooms, memberships] = await Promise.all([
    getDb().room.findMany({ where: { id: { in: roomIds } }, select: { id: true, workspaceId: true, kind: true, visibility: true, archivedAt: true } }),
    getDb().roomMember.findMany({ where: { participantId: actor.participantId, roomId: { in: roomIds } }, select: { roomId: true, role: true } }),
  ]);
  const membership = new Map(memberships.map((m) => [m.roomId, m]));
  return new Set(rooms.filter((room) => can(actor, "room.read", { room, membership: membership.get(room.id) ?? null })).map((r) => r.id));
}
