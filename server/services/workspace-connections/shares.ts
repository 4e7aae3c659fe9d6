// Rooms shared across a workspace connection. A room stays its owner workspace's; while it is shared,
// the guest side's people and agents may be its members. When the share ends (the connection ended,
// the owner stopped sharing, the guest side left), the guest side's members leave the room at once.
import type { MessageView } from "@switchboard/sdk/contract";
import type { RoomShareView, RoomSharingView } from "@switchboard/sdk/workspace-connections";
import { getDb, type Tx } from "../../db";
import { AppError } from "../../errors";
import { assertMayWrite, authorize, can, type Actor } from "../../policies";
import { audience, publish, unsubscribeFromRoom, type Committed } from "../../realtime";
import { transaction, TX_OPTIONS } from "../../transaction";
import { loadRoomFor } from "../access/rooms";
import { recordAudit } from "../governance/audit";
import { fanOutNew } from "../messaging/delivery";
import { bumpRoomVersion } from "../messaging/room-version";
import { announceConnection } from "./announce";
import { connectedNow, linkedWorkspaces } from "./links";

/** A room whose guest-side members were removed: who, and the room event that says so. */
export interface EndedShare {
  roomId: string;
  removed: string[];
  event: MessageView;
}

/**
 * Ends what a connection between `a` and `b` let in, in `tx`: each of its shares is `ended`, and every
 * member of a room of one workspace who belongs to the other leaves it (one room event a room), shared
 * channels and conversations across alike. Afterwards no membership crosses the two workspaces, which
 * is what lets a membership alone admit someone of another workspace to a room (access/rooms.ts).
 */
export async function endShares(tx: Tx, connectionId: string, byId: string, a: string, b: string): Promise<EndedShare[]> {
  await tx.roomShare.updateMany({ where: { connectionId, status: { in: ["pending", "active"] } }, data: { status: "ended", updatedAt: new Date() } });
  const crossing = await tx.roomMember.findMany({
    where: {
      OR: [
        { room: { workspaceId: a }, participant: { workspaceId: b } },
        { room: { workspaceId: b }, participant: { workspaceId: a } },
      ],
    },
    select: { roomId: true, room: { select: { workspaceId: true } } },
    distinct: ["roomId"],
  });
  const ended: EndedShare[] = [];
  for (const { roomId, room } of crossing) ended.push(await removeGuests(tx, roomId, room.workspaceId === a ? b : a, byId));
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

/**
 * In the transaction that admits participants of other workspaces to a room: holds what lets each of
 * those workspaces in (the channel's share with it; for a conversation, the connection of the two
 * workspaces) by writing its row unchanged. A disconnect or an unshare racing the admission writes the
 * same row, so it either waits for this commit and then removes them (endShares, removeGuests), or
 * committed first and nothing is held: the admission fails. So no membership outlives what let it in.
 */
export async function holdCrossings(tx: Tx, room: { id: string; workspaceId: string; kind: string }, guestWorkspaceIds: string[]): Promise<void> {
  for (const guest of new Set(guestWorkspaceIds.filter((id) => id !== room.workspaceId))) {
    if (room.kind === "channel") {
      const held = await tx.roomShare.updateMany({
        where: { roomId: room.id, workspaceId: guest, status: "active", connection: { status: "active" } },
        data: { status: "active" },
      });
      if (held.count === 0) throw new AppError("ROOM_NOT_FOUND", "No such room");
    } else {
      const held = await tx.workspaceConnection.updateMany({
        where: connectedNow(room.workspaceId, guest),
        data: { status: "active" },
      });
      if (held.count === 0) throw new AppError("PARTICIPANT_NOT_FOUND", "No such participant");
    }
  }
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

const shareNotFound = () => new AppError("NOT_FOUND", "No such shared channel");

/**
 * Shares a channel of the actor's workspace with a connected one (its owner or an admin; an admin
 * only where this side asks for an admin's approval of each shared room). It is active at once, or
 * waits for the other side's admin where that side asks to approve each one. Sharing again changes nothing.
 */
export async function shareRoom(actor: Actor, input: { roomId: string; workspaceId: string }, address: string | null = null): Promise<RoomShareView> {
  const subject = await loadRoomFor(actor, input.roomId);
  const link = (await linkedWorkspaces(actor.workspaceId)).get(input.workspaceId);
  if (!link) throw new AppError("NOT_FOUND", "No connected workspace with that id");
  const sides = await getDb().workspaceConnectionSide.findMany({ where: { connectionId: link.connectionId } });
  const ours = sides.find((side) => side.workspaceId === actor.workspaceId);
  const theirs = sides.find((side) => side.workspaceId === input.workspaceId);
  authorize(actor, "room.share", { ...subject, adminsOnly: ours?.approveRooms ?? true });
  assertMayWrite(actor);
  const key = { roomId_workspaceId: { roomId: input.roomId, workspaceId: input.workspaceId } };
  const existing = await getDb().roomShare.findUnique({ where: key });
  const shareOf = async () => (await sharesFor(actor, { roomId: input.roomId })).find((share) => share.workspace.id === input.workspaceId)!;
  if (existing && (existing.status === "active" || existing.status === "pending") && existing.connectionId === link.connectionId) return shareOf();
  const status = (theirs?.approveRooms ?? true) ? "pending" : "active";
  const [event, committed] = await transaction(async (tx) => {
    const data = { connectionId: link.connectionId, status, sharedById: actor.participantId, approvedById: null, updatedAt: new Date() } as const;
    await tx.roomShare.upsert({ where: key, create: { roomId: input.roomId, workspaceId: input.workspaceId, ...data }, update: data });
    await auditBoth(tx, actor, [actor.workspaceId, input.workspaceId], "room.shared", input.roomId, { workspace: link.workspace.name, status }, address);
    return bumpRoomVersion(tx, input.roomId, actor.participantId, { type: "room.shared", workspace: link.workspace.name });
  }, TX_OPTIONS);
  await fanOutNew(committed, event);
  announceConnection(committed, link.connectionId, [actor.workspaceId, input.workspaceId], "room_shared");
  return shareOf();
}

/** The guest side's admin approves a channel shared with their workspace, or declines it. */
export async function decideShare(actor: Actor, input: { roomId: string; approve: boolean }, address: string | null = null): Promise<RoomShareView | null> {
  authorize(actor, "workspace_connection.manage", { workspaceId: actor.workspaceId });
  assertMayWrite(actor);
  const share = await guestShare(actor, input.roomId);
  if (share.status !== "pending") throw new AppError("CONFLICT", "This channel is not waiting for an approval");
  const [event, committed] = await transaction(async (tx) => {
    const { count } = await tx.roomShare.updateMany({
      where: { roomId: input.roomId, workspaceId: actor.workspaceId, status: "pending" },
      data: input.approve ? { status: "active", approvedById: actor.participantId, updatedAt: new Date() } : { status: "ended", updatedAt: new Date() },
    });
    if (count !== 1) throw new AppError("CONFLICT", "This channel was decided meanwhile");
    const name = share.guestName;
    await auditBoth(
      tx,
      actor,
      [actor.workspaceId, share.room.workspaceId],
      input.approve ? "room.share_approved" : "room.share_declined",
      input.roomId,
      {},
      address,
    );
    return input.approve ? bumpRoomVersion(tx, input.roomId, actor.participantId, { type: "room.share_accepted", workspace: name }) : null;
  }, TX_OPTIONS);
  if (event) await fanOutNew(committed, event);
  announceConnection(committed, share.connectionId, [actor.workspaceId, share.room.workspaceId], "share_decided");
  return input.approve ? ((await sharesFor(actor, { roomId: input.roomId }))[0] ?? null) : null;
}

/** The guest side's admin takes their workspace out of a channel shared with it: its people and agents leave it. */
export async function leaveShare(actor: Actor, input: { roomId: string }, address: string | null = null): Promise<void> {
  authorize(actor, "workspace_connection.manage", { workspaceId: actor.workspaceId });
  assertMayWrite(actor);
  const share = await guestShare(actor, input.roomId);
  await endShare(actor, input.roomId, actor.workspaceId, share.room.workspaceId, "left", { type: "room.share_left", workspace: share.guestName }, address);
}

/** The room's side (its owner or an admin) stops sharing a channel with a workspace: that workspace's people and agents leave it. */
export async function unshareRoom(actor: Actor, input: { roomId: string; workspaceId: string }, address: string | null = null): Promise<void> {
  const subject = await loadRoomFor(actor, input.roomId);
  authorize(actor, "room.share", { ...subject, adminsOnly: false });
  assertMayWrite(actor);
  const share = await getDb().roomShare.findUnique({
    where: { roomId_workspaceId: { roomId: input.roomId, workspaceId: input.workspaceId } },
    include: { workspace: { select: { name: true } } },
  });
  if (!share || (share.status !== "active" && share.status !== "pending")) throw shareNotFound();
  await endShare(actor, input.roomId, input.workspaceId, actor.workspaceId, "ended", { type: "room.unshared", workspace: share.workspace.name }, address);
}

async function endShare(
  actor: Actor,
  roomId: string,
  guestWorkspaceId: string,
  homeWorkspaceId: string,
  status: "left" | "ended",
  change: { type: "room.unshared" | "room.share_left"; workspace: string },
  address: string | null,
): Promise<void> {
  const share = await getDb().roomShare.findUnique({
    where: { roomId_workspaceId: { roomId, workspaceId: guestWorkspaceId } },
    select: { connectionId: true },
  });
  const [ended, committed] = await transaction(async (tx) => {
    const { count } = await tx.roomShare.updateMany({
      where: { roomId, workspaceId: guestWorkspaceId, status: { in: ["pending", "active"] } },
      data: { status, updatedAt: new Date() },
    });
    if (count !== 1) throw new AppError("CONFLICT", "This channel is no longer shared");
    await auditBoth(tx, actor, [homeWorkspaceId, guestWorkspaceId], status === "left" ? "room.share_left" : "room.unshared", roomId, {}, address);
    const event = await bumpRoomVersion(tx, roomId, actor.participantId, change);
    return { event, removed: await removeGuests(tx, roomId, guestWorkspaceId, actor.participantId) };
  }, TX_OPTIONS);
  await fanOutNew(committed, ended.event);
  await announceSharesEnded(committed, [ended.removed]);
  if (share) announceConnection(committed, share.connectionId, [homeWorkspaceId, guestWorkspaceId], "share_ended");
}

/** A channel shared with the actor's workspace (any status), with the guest side's name; to others it does not exist. */
async function guestShare(actor: Actor, roomId: string) {
  const share = await getDb().roomShare.findUnique({
    where: { roomId_workspaceId: { roomId, workspaceId: actor.workspaceId } },
    include: { room: { select: { workspaceId: true } }, workspace: { select: { name: true } }, connection: { select: { status: true } } },
  });
  if (!share || share.connection.status !== "active") throw shareNotFound();
  return { ...share, guestName: share.workspace.name };
}

async function auditBoth(tx: Tx, actor: Actor, workspaceIds: string[], action: string, roomId: string, data: Record<string, unknown>, address: string | null) {
  for (const workspaceId of new Set(workspaceIds)) {
    await recordAudit(tx, {
      workspaceId,
      actorId: actor.participantId,
      action,
      subjectType: "room",
      subjectId: roomId,
      data,
      address: workspaceId === actor.workspaceId ? address : null,
    });
  }
}

/**
 * A channel's sharing, for its settings: with whom it is shared or waits to be, and each other
 * connected workspace, with whether the actor may share it there. Its owner or an admin.
 */
export async function roomSharing(actor: Actor, roomId: string): Promise<RoomSharingView> {
  const subject = await loadRoomFor(actor, roomId);
  authorize(actor, "room.share", { ...subject, adminsOnly: false });
  const [shares, linked] = await Promise.all([sharesFor(actor, { roomId }), linkedWorkspaces(actor.workspaceId)]);
  const ourSides = await getDb().workspaceConnectionSide.findMany({
    where: { workspaceId: actor.workspaceId, connectionId: { in: [...linked.values()].map((l) => l.connectionId) } },
    select: { connectionId: true, approveRooms: true },
  });
  const adminsOnly = new Map(ourSides.map((side) => [side.connectionId, side.approveRooms]));
  const sharedWith = new Set(shares.map((share) => share.workspace.id));
  const targets = [...linked.values()]
    .filter((link) => !sharedWith.has(link.workspace.id))
    .map((link) => ({ workspace: link.workspace, mayShare: can(actor, "room.share", { ...subject, adminsOnly: adminsOnly.get(link.connectionId) ?? true }) }))
    .sort((a, b) => a.workspace.name.localeCompare(b.workspace.name));
  return { shares, targets };
}

/** The Connections tab's list of shared channels: the workspace's owners and admins. */
export async function listShares(actor: Actor): Promise<RoomShareView[]> {
  authorize(actor, "workspace_connection.manage", { workspaceId: actor.workspaceId });
  return sharesFor(actor);
}

/**
 * Channels the actor's workspace shares with connected ones, and those shared with it, while they
 * are pending or active; `roomId`: that room's alone.
 */
async function sharesFor(actor: Actor, filter: { roomId?: string } = {}): Promise<RoomShareView[]> {
  const rows = await getDb().roomShare.findMany({
    where: {
      status: { in: ["pending", "active"] },
      connection: { status: "active" },
      OR: [{ workspaceId: actor.workspaceId }, { room: { workspaceId: actor.workspaceId } }],
      ...(filter.roomId ? { roomId: filter.roomId } : {}),
    },
    include: {
      room: { select: { id: true, name: true, topic: true, workspace: { select: { id: true, name: true } } } },
      workspace: { select: { id: true, name: true } },
    },
    orderBy: { createdAt: "desc" },
  });
  const sharers = await getDb().participant.findMany({ where: { id: { in: rows.map((r) => r.sharedById) } }, select: { id: true, displayName: true } });
  const nameOf = new Map(sharers.map((p) => [p.id, p.displayName]));
  return rows.map((row) => {
    const ours = row.room.workspace.id === actor.workspaceId;
    return {
      roomId: row.room.id,
      name: row.room.name ?? "",
      topic: row.room.topic,
      ours,
      workspace: ours ? row.workspace : row.room.workspace,
      status: row.status as RoomShareView["status"],
      sharedBy: nameOf.get(row.sharedById) ?? "someone",
      since: row.createdAt.toISOString(),
    };
  });
}
