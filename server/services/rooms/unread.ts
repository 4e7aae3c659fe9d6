// What is unread for a member: counted in grouped queries over many rooms at once, for the sidebar
// (one participant's rooms) and the workspace switcher (an account's participants in all its workspaces).
import { UNREAD } from "@switchboard/sdk/contract";
import { getDb } from "../../db";

/** Rooms per grouped query: well inside SQLite's expression depth (1000) and bound-variable limits. */
const ROOMS_PER_COUNT_QUERY = 200;

/** A room a viewer is in: its read cursor there, and the room's last seq read with it. */
export interface RoomCursor {
  roomId: string;
  readSeq: number;
  lastSeq: number;
}

/**
 * Unread messages (`UNREAD` in the contract: others' top-level text, not deleted), and mentions of
 * the viewer, after each room's read cursor and up to the `lastSeq` read with it, so the counts and
 * `lastSeq` describe the same moment (the browser re-applies anything newer that reached it over the
 * socket meanwhile, by the same rule), by room id.
 * `viewerIds`: the viewer's participants (one per workspace: a room is in one workspace, so each room
 * has one of them as its member); messages they wrote themselves are not unread, mentions of them are.
 * Two grouped queries per 200 rooms, not two per room; rooms read up to their last seq are not asked about at all.
 */
export async function unreadCounts(viewerIds: string[], rooms: RoomCursor[]) {
  const db = getDb();
  const unread = new Map<string, number>();
  const mentions = new Map<string, number>();
  const behind = rooms.filter((r) => r.lastSeq > r.readSeq);
  for (let i = 0; i < behind.length; i += ROOMS_PER_COUNT_QUERY) {
    const afterCursor = behind.slice(i, i + ROOMS_PER_COUNT_QUERY).map((r) => ({ roomId: r.roomId, seq: { gt: r.readSeq, lte: r.lastSeq } }));
    const [messages, mentioned] = await Promise.all([
      db.message.groupBy({
        by: ["roomId"],
        where: { OR: afterCursor, ...UNREAD, authorId: { notIn: viewerIds } },
        _count: { _all: true },
      }),
      db.messageMention.groupBy({
        by: ["roomId"],
        where: { participantId: { in: viewerIds }, OR: afterCursor },
        _count: { _all: true },
      }),
    ]);
    for (const g of messages) unread.set(g.roomId, g._count._all);
    for (const g of mentioned) mentions.set(g.roomId, g._count._all);
  }
  return { unread, mentions };
}
