import type { RoomCan, RoomView } from "@switchboard/sdk/contract";
import { can, type Actor } from "../policies";

interface RoomRow {
  id: string;
  kind: RoomView["kind"];
  visibility: RoomView["visibility"];
  name: string | null;
  topic: string;
  lastSeq: number;
  /** Absent: not archived (rows read without it). */
  archivedAt?: Date | null;
}

/** A group's title names this many others at most: all of a conversation opened with the most people. */
export const TITLE_NAMES = 8;

/**
 * A room as `viewerId` sees it. A channel's title is its name; a direct conversation's title is the
 * other members' names (or the viewer's own, for notes to self): `members` are the first to have
 * joined (at least TITLE_NAMES + 1 of them, or all); a group grown larger by invitations is titled by
 * its first TITLE_NAMES others "and N more".
 */
export function presentRoom(
  room: RoomRow,
  members: { participantId: string; displayName: string }[],
  viewerId: string,
  memberCount = members.length,
  shared: RoomView["shared"] = null,
): RoomView {
  const others = members.filter((m) => m.participantId !== viewerId);
  const named = (others.length ? others : members).slice(0, TITLE_NAMES);
  const more = others.length ? memberCount - 1 - named.length : 0;
  const names = named
    .map((m) => m.displayName)
    .sort((a, b) => a.localeCompare(b))
    .join(", ");
  const title = room.kind === "channel" ? (room.name ?? "") : more > 0 ? `${names} and ${more} more` : names;
  return {
    id: room.id,
    kind: room.kind,
    visibility: room.visibility,
    name: room.name,
    title,
    topic: room.topic,
    lastSeq: room.lastSeq,
    memberCount,
    archivedAt: room.archivedAt?.toISOString() ?? null,
    shared,
  };
}

type RoomSubject = Parameters<typeof can<"room.read">>[2];

/**
 * What `actor` may do in a room, for its view of the room: asked of the policy table here, so the
 * browser never re-derives a rule. Messages arrive room-wide (one `message:new` for every member)
 * and cannot carry one viewer's flags, so what the viewer may do with a message is said here for any
 * text message of theirs (`editOwn`, `deleteOwn`) and of someone else's (`deleteOthers`: moderation).
 */
export function roomCan(actor: Actor, subject: RoomSubject): RoomCan {
  const text = (authorId: string) => ({ ...subject, message: { authorId, kind: "text", deletedAt: null } });
  // Any id but the actor's stands for "someone else".
  const someoneElse = `not:${actor.participantId}`;
  return {
    post: can(actor, "room.post", subject),
    join: !subject.membership && can(actor, "room.join", subject),
    invite: can(actor, "room.invite", subject),
    leave: can(actor, "room.leave", subject),
    editOwn: can(actor, "message.edit", text(actor.participantId)),
    deleteOwn: can(actor, "message.delete", text(actor.participantId)),
    deleteOthers: can(actor, "message.delete", text(someoneElse)),
    react: can(actor, "message.react", text(someoneElse)),
    pin: can(actor, "message.pin", { ...text(someoneElse), pinned: true }),
    markUnread: can(actor, "room.cursor", subject),
    update: can(actor, "room.update", subject),
  };
}
