// Rooms shared across a workspace connection. A room stays its owner workspace's; while it is shared,
// the guest side's people and agents may be its members. When the share ends (the connection ended,
// the owner stopped sharing, the guest side left), the guest side's members leave the room at once.
import type { MessageView } from "@switchboard/sdk/contract";
import type { Tx } from "../../db";
import { audience, publish, unsubscribeFromRoom, type Committed } from "../../realtime";
import { fanOutNew } from "../messaging/delivery";
import { bumpRoomVersion } from "../messaging/room-version";

/** A room whose guest-side members were removed: who, and the room event that says so. */
export interface EndedShare {
  roomId: string;
  removed: string[];
  event: MessageView;
}

/**
 * Ends every share of a connection in `tx`: each active or pending share is `ended`, and the members
 * of each room who belong to the guest workspace are removed (one room event each).
 */
export async function endShares(tx: Tx, connectionId: string, byId: string): Promise<EndedShare[]> {
  const shares = await tx.roomShare.findMany({ where: { connectionId, status: { in: ["pending", "active"] } }, select: { roomId: true, workspaceId: true } });
  if (shares.length === 0) return [];
  await tx.roomShare.updateMany({ where: { connectionId, status: { in: ["pending", "active"] } }, data: { status: "ended", updatedAt: new Date() } });
  const ended: EndedShare[] = [];
  for (const share of shares) ended.push(await removeGuests(tx, share.roomId, share.workspaceId, byId));
  return ended;
}

/** Removes the members of `roomId` who belong to `guestWorkspaceId`, as one room event. */
export async function removeGuests(tx: Tx, roomId: string, guestWorkspaceId: string, byId: string): Promise<EndedShare> {
  const guests = await tx.roomMember.findMany({ where: { roomId, participant: { workspaceId: guestWorkspaceId } }, select: { participantId: true } });
  const removed = guests.map((g) => g.participantId);
  if (removed.length) await tx.roomMember.deleteMany({ where: { roomId, participantId: { in: removed } } });
  const event = await bumpRoomVersion(tx, roomId, byId, { type: "member.left", participantIds: removed });
  return { roomId, removed, event };
}

/** After the commit: the rooms' members see who left, and the removed lose the rooms on every process. */
export async function announceSharesEnded(committed: Committed, ended: EndedShare[]): Promise<void> {
  for (const { roomId, removed, event } of ended) {
    await fanOutNew(committed, event);
    if (removed.length === 0) continue;
    publish(committed, audience.room(roomId), "room:members", { roomId, seq: event.seq, joined: [], left: removed });
    unsubscribeFromRoom(removed, roomId);
    publish(committed, removed.map(audience.participant), "room:removed", { roomId });
  }
}
