// Workspace connections: an admin of one workspace makes an invite code that expires; an admin of
// another accepts it, and the two are connected until either side's admin ends it. Each side keeps its
// own choices (./sides.ts); rooms are shared across an active connection (./shares.ts). Everything
// that touches both sides is written in both sides' audit logs.
import type {
  AcceptConnectionInput,
  ConnectionInviteView,
  ConnectionPreview,
  ConnectionSideInput,
  CreateConnectionInviteInput,
  WorkspaceConnectionView,
} from "@switchboard/sdk/workspace-connections";
import { getDb, type Tx } from "../../db";
import { AppError } from "../../errors";
import { newId, newPrefix, newSecret, sha256 } from "../../ids";
import { assertMayWrite, authorize, type Actor } from "../../policies";
import { connectionInclude, connectionStatus, presentConnection, presentPeer, presentSide } from "../../presenters/workspace-connection";
import { transaction } from "../../transaction";
import { announceConnection } from "./announce";
import { recordAudit } from "../governance/audit";
import { announceSharesEnded, endShares } from "./shares";
import { connectedNow } from "./links";

const DAY_MS = 24 * 60 * 60 * 1000;
export const CONNECTION_CODE_PREFIX = "sbc_";

const connectionInvalid = () =>
  new AppError("CONNECTION_INVALID", "This connection code is unknown, expired, withdrawn or already used: ask the other workspace's admin for a new one");

/** An admin invites another workspace: a code (and link) shown once, usable once, until it expires. */
export async function createConnectionInvite(actor: Actor, input: CreateConnectionInviteInput, address: string | null = null): Promise<ConnectionInviteView> {
  authorize(actor, "workspace_connection.manage", { workspaceId: actor.workspaceId });
  assertMayWrite(actor);
  const prefix = newPrefix();
  const code = `${CONNECTION_CODE_PREFIX}${prefix}_${newSecret(24)}`;
  const id = newId();
  const expiresAt = new Date(Date.now() + input.expiresInDays * DAY_MS);
  await getDb().$transaction(async (tx) => {
    await tx.workspaceConnection.create({
      data: { id, inviterId: actor.workspaceId, codeHash: sha256(code), codePrefix: prefix, expiresAt, createdById: actor.participantId },
    });
    await assertOwnParticipants(tx, actor.workspaceId, input.side);
    await tx.workspaceConnectionSide.create({ data: { connectionId: id, workspaceId: actor.workspaceId, ...sideData(input.side) } });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "workspace_connection.invited",
      subjectType: "workspace_connection",
      subjectId: id,
      data: { expiresAt: expiresAt.toISOString(), side: presentSide({ workspaceId: actor.workspaceId, ...sideData(input.side) }) },
      address,
    });
  });
  return { connection: await connectionView(id, actor.workspaceId), code };
}

/** What a code would connect this workspace to, before its admin accepts it. */
export async function previewConnection(actor: Actor, code: string): Promise<ConnectionPreview> {
  authorize(actor, "workspace_connection.manage", { workspaceId: actor.workspaceId });
  const row = await usableInvite(getDb(), actor, code);
  return {
    workspace: presentPeer(row.inviter),
    invitedBy: row.createdByName,
    expiresAt: row.expiresAt.toISOString(),
    theirs: presentSide(row.sides.find((s) => s.workspaceId === row.inviterId)),
  };
}

/** An admin of another workspace accepts a code: the two are connected, each with its own choices. */
export async function acceptConnection(actor: Actor, input: AcceptConnectionInput, address: string | null = null): Promise<WorkspaceConnectionView> {
  authorize(actor, "workspace_connection.manage", { workspaceId: actor.workspaceId });
  assertMayWrite(actor);
  const [{ id, inviterId }, committed] = await transaction(async (tx) => {
    const row = await usableInvite(tx, actor, input.code);
    const already = await tx.workspaceConnection.findFirst({
      where: connectedNow(row.inviterId, actor.workspaceId),
      select: { id: true },
    });
    if (already) throw new AppError("CONFLICT", `This workspace is already connected with ${row.inviter.name}`);
    // Taken only if still pending: two admins accepting at once, one wins.
    const { count } = await tx.workspaceConnection.updateMany({
      where: { id: row.id, status: "pending" },
      data: { status: "active", accepterId: actor.workspaceId, acceptedById: actor.participantId, acceptedAt: new Date() },
    });
    if (count !== 1) throw connectionInvalid();
    await assertOwnParticipants(tx, actor.workspaceId, input.side);
    await tx.workspaceConnectionSide.create({ data: { connectionId: row.id, workspaceId: actor.workspaceId, ...sideData(input.side) } });
    const names = await workspaceNames(tx, [row.inviterId, actor.workspaceId]);
    for (const workspaceId of [actor.workspaceId, row.inviterId]) {
      await recordAudit(tx, {
        workspaceId,
        actorId: actor.participantId,
        action: "workspace_connection.accepted",
        subjectType: "workspace_connection",
        subjectId: row.id,
        data: { inviter: names.get(row.inviterId), accepter: names.get(actor.workspaceId), byWorkspace: names.get(actor.workspaceId) },
        address: workspaceId === actor.workspaceId ? address : null,
      });
    }
    return { id: row.id, inviterId: row.inviterId };
  });
  announceConnection(committed, id, [inviterId, actor.workspaceId], "accepted");
  return connectionView(id, actor.workspaceId);
}

/** The inviting side's admin withdraws an invite nobody accepted yet. */
export async function revokeConnectionInvite(actor: Actor, connectionId: string, address: string | null = null): Promise<WorkspaceConnectionView> {
  const row = await loadFor(actor, connectionId);
  assertMayWrite(actor);
  if (row.inviterId !== actor.workspaceId || connectionStatus(row) !== "pending") {
    throw new AppError("CONFLICT", "Only an invite that waits can be withdrawn, by the workspace that made it");
  }
  const [, committed] = await transaction(async (tx) => {
    const { count } = await tx.workspaceConnection.updateMany({
      where: { id: row.id, status: "pending" },
      data: { status: "revoked", endedAt: new Date(), endedById: actor.participantId, endedByWorkspaceId: actor.workspaceId },
    });
    if (count !== 1) throw new AppError("CONFLICT", "This invite was accepted meanwhile: disconnect instead");
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "workspace_connection.revoked",
      subjectType: "workspace_connection",
      subjectId: row.id,
      address,
    });
  });
  announceConnection(committed, row.id, [actor.workspaceId], "revoked");
  return connectionView(row.id, actor.workspaceId);
}

/**
 * Either side's admin ends an active connection, at once: every room shared across it stops being
 * shared, the other side's people and agents leave this side's shared rooms (live, on every process),
 * and their next calls into them are refused. The owner of each room keeps it and its history; the
 * other side keeps nothing of it readable.
 */
export async function disconnect(actor: Actor, connectionId: string, address: string | null = null): Promise<WorkspaceConnectionView> {
  const row = await loadFor(actor, connectionId);
  assertMayWrite(actor);
  if (row.status !== "active") throw new AppError("CONFLICT", "This connection is not active");
  const [ended, committed] = await transaction(async (tx) => {
    const { count } = await tx.workspaceConnection.updateMany({
      where: { id: row.id, status: "active" },
      data: { status: "disconnected", endedAt: new Date(), endedById: actor.participantId, endedByWorkspaceId: actor.workspaceId },
    });
    if (count !== 1) throw new AppError("CONFLICT", "This connection was ended meanwhile");
    const removed = await endShares(tx, row.id, actor.participantId, row.inviterId, row.accepterId!);
    const names = await workspaceNames(tx, [row.inviterId, row.accepterId!]);
    for (const workspaceId of [row.inviterId, row.accepterId!]) {
      await recordAudit(tx, {
        workspaceId,
        actorId: actor.participantId,
        action: "workspace_connection.disconnected",
        subjectType: "workspace_connection",
        subjectId: row.id,
        data: { byWorkspace: names.get(actor.workspaceId), rooms: removed.length },
        address: workspaceId === actor.workspaceId ? address : null,
      });
    }
    return removed;
  });
  await announceSharesEnded(committed, ended);
  announceConnection(committed, row.id, [row.inviterId, row.accepterId!], "disconnected");
  return connectionView(row.id, actor.workspaceId);
}

/** The workspace's connections, newest first: invites made, connections active and ended. */
export async function listConnections(actor: Actor): Promise<WorkspaceConnectionView[]> {
  authorize(actor, "workspace_connection.manage", { workspaceId: actor.workspaceId });
  const rows = await getDb().workspaceConnection.findMany({
    where: { OR: [{ inviterId: actor.workspaceId }, { accepterId: actor.workspaceId }] },
    include: connectionInclude,
    orderBy: { createdAt: "desc" },
    take: 200,
  });
  return rows.map((row) => presentConnection(row, actor.workspaceId));
}

/** A connection one of whose sides the actor administers; to anyone else it does not exist. */
export async function loadFor(actor: Actor, connectionId: string) {
  authorize(actor, "workspace_connection.manage", { workspaceId: actor.workspaceId });
  const row = await getDb().workspaceConnection.findUnique({ where: { id: connectionId }, include: connectionInclude });
  if (!row || (row.inviterId !== actor.workspaceId && row.accepterId !== actor.workspaceId)) throw new AppError("NOT_FOUND", "No such connection");
  return row;
}

export async function connectionView(id: string, workspaceId: string): Promise<WorkspaceConnectionView> {
  return presentConnection(await getDb().workspaceConnection.findUniqueOrThrow({ where: { id }, include: connectionInclude }), workspaceId);
}

async function usableInvite(db: Tx, actor: Actor, code: string) {
  const row = await db.workspaceConnection.findUnique({
    where: { codeHash: sha256(code.trim()) },
    include: connectionInclude,
  });
  if (!row || connectionStatus(row) !== "pending") throw connectionInvalid();
  if (row.inviterId === actor.workspaceId) throw new AppError("CONFLICT", "This code was made by your own workspace: hand it to the other workspace's admin");
  const createdBy = await db.participant.findUnique({ where: { id: row.createdById }, select: { displayName: true } });
  return { ...row, createdByName: createdBy?.displayName ?? "An admin" };
}

async function workspaceNames(tx: Tx, ids: string[]): Promise<Map<string, string>> {
  const rows = await tx.workspace.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(rows.map((w) => [w.id, w.name]));
}

/** A side's choices as stored; absent ones take their defaults. */
const sideData = (side: ConnectionSideInput) => ({
  directory: side.directory ?? "agents",
  listedIds: side.listedIds ?? [],
  otherMay: side.otherMay ?? "post",
  approveRooms: side.approveRooms ?? true,
});

/** `listedIds` name participants of the side's own workspace only; anything else is refused, naming none. */
export async function assertOwnParticipants(tx: Tx, workspaceId: string, side: ConnectionSideInput): Promise<void> {
  const ids = [...new Set(side.listedIds ?? [])];
  if (ids.length === 0) return;
  const found = await tx.participant.count({ where: { id: { in: ids }, workspaceId } });
  if (found !== ids.length) throw new AppError("PARTICIPANT_NOT_FOUND", "Listed participants must be people or agents of your own workspace");
}
