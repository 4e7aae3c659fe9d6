import type { RoomView } from "../../sdk/contract";

interface RoomRow {
  id: string;
  kind: string;
  visibility: string;
  name: string | null;
  topic: string;
  lastSeq: number;
}

/**
 * A room as `viewerId` sees it. A channel's title is its name; a direct conversation's title is the
 * other members' names (or the viewer's own, for notes to self).
 */
export function presentRoom(
  room: RoomRow,
  members: { participantId: string; displayName: string }[],
  viewerId: string,
): RoomView {
  const others = members.filter((m) => m.participantId !== viewerId);
  const title =
    room.kind === "channel"
      ? (room.name ?? "")
      : (others.length ? others : members)
          .map((m) => m.displayName)
          .sort((a, b) => a.localeCompare(b))
          .join(", ");
  return {
    id: room.id,
    kind: room.kind as RoomView["kind"],
    visibility: room.visibility as RoomView["visibility"],
    name: room.name,
    title,
    topic: room.topic,
    lastSeq: room.lastSeq,
    memberCount: members.length,
  };
}
