// What people and models call rooms and participants: `#name` and `@handle`, or ids. Resolved within
// the actor's workspace; a name the actor may not see resolves to the same "no such room" as one that
// does not exist, so a name reveals nothing. The services called with the ids decide the rest.
import { getDb } from "../../db";
import { AppError } from "../../errors";
import type { Actor } from "../../policies";

export async function resolveRoom(actor: Actor, ref: string): Promise<string> {
  if (!ref.startsWith("#")) return ref;
  const name = ref.slice(1).toLowerCase();
  const room = await getDb().room.findFirst({
    where: { workspaceId: actor.workspaceId, kind: "channel", name, archivedAt: null },
    select: { id: true, visibility: true, members: { where: { participantId: actor.participantId }, select: { participantId: true } } },
  });
  if (!room || (room.visibility !== "public" && room.members.length === 0)) throw new AppError("ROOM_NOT_FOUND", `No room ${ref}`);
  return room.id;
}

export async function resolveParticipant(actor: Actor, ref: string): Promise<string> {
  if (!ref.startsWith("@")) return ref;
  const handle = ref.slice(1).toLowerCase();
  const participant = await getDb().participant.findFirst({ where: { workspaceId: actor.workspaceId, handle }, select: { id: true } });
  if (!participant) throw new AppError("PARTICIPANT_NOT_FOUND", `No one is ${ref}`);
  return participant.id;
}

export const resolveParticipants = (actor: Actor, refs: string[]): Promise<string[]> => Promise.all(refs.map((ref) => resolveParticipant(actor, ref)));

/**
 * The workspace a room belongs to, or null: which of a person's participants acts on it when the
 * request names no workspace (a cookie upload, a link to a room from before workspaces).
 */
export async function workspaceOfRoom(roomId: string): Promise<string | null> {
  return (await getDb().room.findUnique({ where: { id: roomId }, select: { workspaceId: true } }))?.workspaceId ?? null;
}
