import { getDb } from "../../db";
import { AppError } from "../../errors";
import { authorize, can, decide, type Actor } from "../../policies";
import { sharingWith } from "../workspace-connections/links";

/**
 * A room outside the actor's workspace is, to them, no room at all, unless they are a member of it
 * (someone of a connected workspace, admitted to a shared room or a conversation across: ending the
 * connection removes them, so a membership across always means the two are connected now).
 */
export function visibleRoom<R extends { workspaceId: string }>(actor: Actor, room: R | null, membership: object | null = null): R {
  if (!room || (room.workspaceId !== actor.workspaceId && !membership)) throw new AppError("ROOM_NOT_FOUND", "No such room");
  return room;
}

/**
 * A room and the actor's membership in it: the facts every room policy decides on. For someone of
 * another workspace, also whether the room is a channel shared with theirs, and whether its side lets
 * theirs invite (services/workspace-connections/shares.ts).
 */
export async function loadRoomFor(actor: Actor, roomId: string) {
  const [found, membership] = await Promise.all([
    getDb().room.findUnique({ where: { id: roomId } }),
    getDb().roomMember.findUnique({ where: { roomId_participantId: { roomId, participantId: actor.participantId } } }),
  ]);
  if (found && found.workspaceId !== actor.workspaceId) {
    const share = await sharingWith(found.id, found.workspaceId, actor.workspaceId);
    if (!membership && !share.shared) throw new AppError("ROOM_NOT_FOUND", "No such room");
    return { room: { ...found, sharedWithActor: share.shared, guestsMayInvite: share.guestsMayInvite }, membership };
  }
  return { room: visibleRoom(actor, found), membership };
}

/**
 * The room of a message the actor named by id, with their membership: a room they may not read
 * answers MESSAGE_NOT_FOUND, as an id nobody has does, so an id tells nothing of what it names.
 */
export async function loadRoomOfMessage(actor: Actor, roomId: string) {
  const subject = await loadRoomFor(actor, roomId).catch((error: unknown) => {
    throw error instanceof AppError && error.code === "ROOM_NOT_FOUND" ? messageNotFound() : error;
  });
  const decision = decide(actor, "room.read", subject);
  if (decision !== true) throw decision.code === "ROOM_NOT_FOUND" ? messageNotFound() : new AppError(decision.code, decision.message);
  return subject;
}

const messageNotFound = () => new AppError("MESSAGE_NOT_FOUND", "No such message");

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
