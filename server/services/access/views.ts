// Rooms as their viewers see them (presenters/room.ts), read with what a view needs however large the
// room: its member count (counted by the database), and for a dm or group the few members its title
// names. Nothing here reads all of a room's members.
import type { RoomView } from "@switchboard/sdk/contract";
import { getDb, Prisma, sqlTable } from "../../db";
import { presentRoom, TITLE_NAMES } from "../../presenters/room";

/** Prisma `include` for a room row with its member count, as `roomViews` takes it. */
export const withMemberCount = { _count: { select: { members: true } } } as const;

type CountedRoom = Parameters<typeof presentRoom>[0] & { _count: { members: number } };
type TitleMember = { participantId: string; displayName: string };

/** Rooms per statement: well inside both databases' limits on bound values. */
const ROOMS_PER_QUERY = 500;

/** `rooms` as `viewerId` sees them, in the same order. */
export async function roomViews(rooms: CountedRoom[], viewerId: string): Promise<RoomView[]> {
  const [titles, shared] = await Promise.all([titleMembers(rooms), sharedChannels(rooms)]);
  return rooms.map((room) => presentRoom(room, titles.get(room.id) ?? [], viewerId, room._count.members, shared.get(room.id) ?? null));
}

/** One room as each of `viewerIds` sees it (its rows read once for all of them). */
export async function roomViewsFor(roomId: string, viewerIds: string[]): Promise<RoomView[]> {
  const room = await getDb().room.findUniqueOrThrow({ where: { id: roomId }, include: withMemberCount });
  const [titles, shared] = await Promise.all([titleMembers([room]), sharedChannels([room])]);
  return viewerIds.map((viewerId) => presentRoom(room, titles.get(room.id) ?? [], viewerId, room._count.members, shared.get(room.id) ?? null));
}

/** For each channel among `rooms` shared with other workspaces now: its own workspace and those. One query. */
async function sharedChannels(rooms: { id: string; kind: string }[]): Promise<Map<string, NonNullable<RoomView["shared"]>>> {
  const ids = rooms.filter((r) => r.kind === "channel").map((r) => r.id);
  const byRoom = new Map<string, NonNullable<RoomView["shared"]>>();
  if (ids.length === 0) return byRoom;
  const shares = await getDb().roomShare.findMany({
    where: { roomId: { in: ids }, status: "active", connection: { status: "active" } },
    select: { roomId: true, workspace: { select: { id: true, name: true } }, room: { select: { workspace: { select: { id: true, name: true } } } } },
    orderBy: { createdAt: "asc" },
  });
  for (const share of shares) {
    const entry = byRoom.get(share.roomId);
    if (entry) entry.with.push(share.workspace);
    else byRoom.set(share.roomId, { home: share.room.workspace, with: [share.workspace] });
  }
  return byRoom;
}

export async function roomView(roomId: string, viewerId: string): Promise<RoomView> {
  const [view] = await roomViewsFor(roomId, [viewerId]);
  return view;
}

/**
 * For each dm or group among `rooms`, its first TITLE_NAMES + 1 members by the time they joined:
 * enough to title it for any of its members (the viewer may be one of them).
 */
async function titleMembers(rooms: { id: string; kind: string }[]): Promise<Map<string, TitleMember[]>> {
  const ids = rooms.filter((r) => r.kind !== "channel").map((r) => r.id);
  const table = (name: string) => Prisma.raw(sqlTable(name));
  const byRoom = new Map<string, TitleMember[]>();
  for (let i = 0; i < ids.length; i += ROOMS_PER_QUERY) {
    const rows = await getDb().$queryRaw<(TitleMember & { roomId: string })[]>`
      SELECT "roomId", "participantId", "displayName" FROM (
        SELECT "m"."roomId", "m"."participantId", "p"."displayName",
          ROW_NUMBER() OVER (PARTITION BY "m"."roomId" ORDER BY "m"."joinedAt", "m"."participantId") AS "place"
        FROM ${table("RoomMember")} AS "m" JOIN ${table("Participant")} AS "p" ON "p"."id" = "m"."participantId"
        WHERE "m"."roomId" IN (${Prisma.join(ids.slice(i, i + ROOMS_PER_QUERY))})
      ) AS "ranked"
      WHERE "place" <= ${TITLE_NAMES + 1}
      ORDER BY "roomId", "place"`;
    for (const { roomId, participantId, displayName } of rows) {
      const members = byRoom.get(roomId);
      if (members) members.push({ participantId, displayName });
      else byRoom.set(roomId, [{ participantId, displayName }]);
    }
  }
  return byRoom;
}
