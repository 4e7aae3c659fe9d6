import { getDb } from "../db";
import { AppError } from "../errors";
import { authorize, type Actor } from "../policies";

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
