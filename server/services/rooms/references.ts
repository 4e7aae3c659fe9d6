// What people and models call rooms and participants: `#name` and `@handle`, or ids. Resolved in the
// actor's workspace first, then among what it reaches of connected workspaces (a channel shared with
// it, someone their side lets it find or a room it shares with them); a name the actor may not see
// resolves to the same "no such room" as one that does not exist, so a name reveals nothing. The
// services called with the ids decide the rest.
import { getDb } from "../../db";
import { AppError } from "../../errors";
import type { Actor } from "../../policies";
import { exposes, linkedWorkspaces, sharedNowWith } from "../workspace-connections/links";

export async function resolveRoom(actor: Actor, ref: string): Promise<string> {
  if (!ref.startsWith("#")) return ref;
  const name = ref.slice(1).toLowerCase();
  const channel = { kind: "channel" as const, name, archivedAt: null };
  const own = await getDb().room.findFirst({
    where: { workspaceId: actor.workspaceId, ...channel },
    select: { id: true, visibility: true, members: { where: { participantId: actor.participantId }, select: { participantId: true } } },
  });
  if (own && (own.visibility === "public" || own.members.length > 0)) return own.id;
  if (own) throw new AppError("ROOM_NOT_FOUND", `No room ${ref}`);
  // A channel of another workspace: one the actor is in, else a public one shared with its workspace now.
  const shared = await getDb().room.findFirst({
    where: {
      ...channel,
      workspaceId: { not: actor.workspaceId },
      OR: [
        { members: { some: { participantId: actor.participantId } } },
        ...(actor.role === "guest"
          ? []
          : [
              {
                visibility: "public" as const,
                ...sharedNowWith(actor.workspaceId),
              },
            ]),
      ],
    },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  if (!shared) throw new AppError("ROOM_NOT_FOUND", `No room ${ref}`);
  return shared.id;
}

export async function resolveParticipant(actor: Actor, ref: string): Promise<string> {
  if (!ref.startsWith("@")) return ref;
  const handle = ref.slice(1).toLowerCase();
  const own = await getDb().participant.findFirst({ where: { workspaceId: actor.workspaceId, handle }, select: { id: true } });
  if (own) return own.id;
  // Someone of a connected workspace: whom their side lets the actor's find, or who shares a room with it.
  const linked = await linkedWorkspaces(actor.workspaceId);
  if (linked.size > 0) {
    const candidates = await getDb().participant.findMany({
      where: { workspaceId: { in: [...linked.keys()] }, handle },
      select: {
        id: true,
        kind: true,
        workspaceId: true,
        roomMembers: { where: { room: { members: { some: { participantId: actor.participantId } } } }, take: 1, select: { roomId: true } },
      },
    });
    const reached = candidates.find((p) => p.roomMembers.length > 0 || exposes(linked.get(p.workspaceId)!, p));
    if (reached) return reached.id;
  }
  throw new AppError("PARTICIPANT_NOT_FOUND", `No one is ${ref}`);
}

export const resolveParticipants = (actor: Actor, refs: string[]): Promise<string[]> => Promise.all(refs.map((ref) => resolveParticipant(actor, ref)));

/**
 * The workspace a room belongs to, or null: which of a person's participants acts on it when the
 * request names no workspace (a cookie upload, a link to a room from before workspaces).
 */
export async function workspaceOfRoom(roomId: string): Promise<string | null> {
  return (await getDb().room.findUnique({ where: { id: roomId }, select: { workspaceId: true } }))?.workspaceId ?? null;
}
