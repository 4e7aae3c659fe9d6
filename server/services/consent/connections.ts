// Bilateral consent between participants. A participant asks another; the addressee decides (a person
// for themselves, a person for the agents they own, or the agent's consent policy automatically).
// Who may reach whom, given the connections written here, is access/reach.ts.
import type { ConnectionPage, ConnectionView, ConsentPolicy } from "@switchboard/sdk/contract";
import { getDb, type Prisma, type Tx } from "../../db";
import { AppError, isUniqueViolation } from "../../errors";
import { newId } from "../../ids";
import { authorize, connectionStanding, type Actor } from "../../policies";
import { connectionInclude, presentConnection } from "../../presenters/connection";
import { audience, publish, type Committed } from "../../realtime";
import { transaction } from "../../transaction";
import { gate } from "../approvals/approvals";
import { pairKey, pairsWith, partySelect, type Party } from "../access/reach";
import { recordAudit } from "../governance/audit";
import { linkedWorkspaces } from "../workspace-connections/links";

const DAY_MS = 24 * 60 * 60 * 1000;

type Row = Prisma.ConnectionGetPayload<{ include: typeof connectionInclude }>;

/**
 * Who sees a connection presented: its sides and their owners. Built from their rows for the
 * `can` flags (an agent is never more than a member; what it may do here depends on its side).
 */
async function viewersOf(ids: string[]): Promise<Actor[]> {
  const rows = await getDb().participant.findMany({
    where: { id: { in: [...new Set(ids)] } },
    select: { id: true, kind: true, handle: true, workspaceId: true, member: { select: { role: true } } },
  });
  return rows.map((p) => ({
    participantId: p.id,
    workspaceId: p.workspaceId,
    kind: p.kind,
    role: p.member?.role ?? "member",
    handle: p.handle,
  }));
}

/** Presents rows as `viewer` sees them, with one lookup for all their deciders' names. */
async function presentAll(rows: Row[], viewer: Actor): Promise<ConnectionView[]> {
  const deciders = await decidersOf(rows);
  return rows.map((row) => presentConnection(row, deciders, viewer));
}

async function decidersOf(rows: Row[]) {
  const ids = [...new Set(rows.flatMap((r) => (r.decidedById ? [r.decidedById] : [])))];
  const deciders = ids.length ? await getDb().participant.findMany({ where: { id: { in: ids } }, select: { id: true, displayName: true } }) : [];
  return new Map(deciders.map((d) => [d.id, d]));
}

const loadRow = (id: string) => getDb().connection.findUniqueOrThrow({ where: { id }, include: connectionInclude });

/**
 * Tells both sides (and the owners of agents involved) of `row`, each with what they may do about it,
 * and returns it as `actor` sees it.
 */
async function announce(committed: Committed, row: Row, event: "connection:request" | "connection:updated", actor: Actor): Promise<ConnectionView> {
  const owners = [row.requester.owner?.id, row.addressee.owner?.id].filter((id): id is string => !!id);
  const [viewers, deciders] = await Promise.all([viewersOf([row.requesterId, row.addresseeId, ...owners]), decidersOf([row])]);
  for (const viewer of viewers) {
    publish(committed, audience.participant(viewer.participantId), event, { connection: presentConnection(row, deciders, viewer) });
  }
  return presentConnection(row, deciders, actor);
}

/** The sides of a connection, as the connection rules take them. */
const sidesOf = (row: Row) => ({
  workspaceIds: [...new Set([row.requester.workspaceId, row.addressee.workspaceId])],
  requester: { id: row.requesterId, ownerId: row.requester.ownerId },
  addressee: { id: row.addresseeId, ownerId: row.addressee.ownerId },
});

/** Recorded in the actor's workspace, and in the other side's too when the connection crosses workspaces. */
async function audit(tx: Tx, actor: Actor, action: string, connectionId: string, data: Record<string, unknown>, workspaceIds: string[] = []) {
  for (const workspaceId of new Set([actor.workspaceId, ...workspaceIds])) {
    await recordAudit(tx, { workspaceId, actorId: actor.participantId, action, subjectType: "connection", subjectId: connectionId, data });
  }
}

export async function requestConnection(
  actor: Actor,
  input: { participantId: string; message: string; scope?: { roomIds?: string[]; purposes?: string[] }; expiresInDays?: number },
): Promise<ConnectionView> {
  const db = getDb();
  const { me, pairs } = await pairsWith(actor, [input.participantId]);
  const pair = pairs.get(input.participantId);
  if (!pair) throw new AppError("PARTICIPANT_NOT_FOUND", "No such participant");
  authorize(actor, "connection.request", pair);
  const target = pair.other;

  const existing = pair.edge ? await db.connection.findUnique({ where: { liveKey: pairKey(me.id, target.id) }, include: connectionInclude }) : null;
  const standing = connectionStanding(pair);
  if (existing && (standing === "pending" || standing === "connected")) return (await presentAll([existing], actor))[0];
  await gate(
    actor,
    "connection.request",
    { reaches: [target.id], message: input.message, scope: input.scope ?? null },
    async () => `ask @${target.handle} to connect${input.message ? ` ("${input.message}")` : ""}`,
  );

  const id = newId();
  const [created, committed] = await transaction(async (tx) => {
    // An expired connection is replaced by the new request.
    if (existing) await tx.connection.update({ where: { id: existing.id }, data: { liveKey: null, status: "revoked", updatedAt: new Date() } });
    try {
      await tx.connection.create({
        data: {
          id,
          workspaceId: actor.workspaceId,
          requesterId: me.id,
          addresseeId: target.id,
          liveKey: pairKey(me.id, target.id),
          status: "pending",
          message: input.message,
          scope: input.scope ?? undefined,
          expiresAt: input.expiresInDays ? new Date(Date.now() + input.expiresInDays * DAY_MS) : null,
        },
      });
    } catch (error) {
      if (isUniqueViolation(error)) return null; // a concurrent request for the same pair won
      throw error;
    }
    await audit(tx, actor, "connection.requested", id, { requesterId: me.id, addresseeId: target.id, message: input.message, scope: input.scope ?? null }, [
      target.workspaceId,
    ]);
    return id;
  });
  if (!created) {
    const winner = await db.connection.findUniqueOrThrow({ where: { liveKey: pairKey(me.id, target.id) }, include: connectionInclude });
    return (await presentAll([winner], actor))[0];
  }

  const row = await loadRow(id);
  const automatic = autoDecision(row.addressee.consentPolicy, me, target);
  if (automatic) return decide(row, automatic, null, actor);
  return announce(committed, row, "connection:request", actor);
}

/** A connection within one workspace, or across two that are still connected. */
async function stillLinked(row: Row): Promise<boolean> {
  if (row.requester.workspaceId === row.addressee.workspaceId) return true;
  return (await linkedWorkspaces(row.addressee.workspaceId)).has(row.requester.workspaceId);
}

/** What an agent's consent policy decides by itself, or null to ask its owner. */
function autoDecision(policy: ConsentPolicy, requester: Party, addressee: Party): "accept" | "decline" | null {
  if (addressee.kind !== "agent") return null;
  switch (policy) {
    case "refuse":
      return "decline";
    case "workspace":
      return requester.workspaceId === addressee.workspaceId ? "accept" : null;
    case "own":
      return requester.ownerId !== null && requester.ownerId === addressee.ownerId ? "accept" : null;
    default:
      return null;
  }
}

/**
 * Moves a pending request to its decision (by `decider`, or by the agent's consent policy when null);
 * exactly one concurrent decision wins. Returns it as `viewer` sees it.
 */
async function decide(row: Row, decision: "accept" | "decline", decider: Actor | null, viewer: Actor): Promise<ConnectionView> {
  const now = new Date();
  const [won, committed] = await transaction(async (tx) => {
    const { count } = await tx.connection.updateMany({
      where: { id: row.id, status: "pending" },
      data: {
        status: decision === "accept" ? "accepted" : "declined",
        liveKey: decision === "accept" ? pairKey(row.requesterId, row.addresseeId) : null,
        decidedById: decider?.participantId ?? null,
        decidedAt: now,
        updatedAt: now,
      },
    });
    if (count === 0) return false;
    for (const workspaceId of sidesOf(row).workspaceIds) {
      await recordAudit(tx, {
        workspaceId,
        actorId: decider?.participantId ?? null,
        action: decision === "accept" ? "connection.accepted" : "connection.declined",
        subjectType: "connection",
        subjectId: row.id,
        data: { automatic: decider === null, policy: decider ? null : row.addressee.consentPolicy },
      });
    }
    return true;
  });
  if (!won) throw new AppError("CONFLICT", "This request was already decided");
  return announce(committed, await loadRow(row.id), "connection:updated", viewer);
}

/** A connection one of whose sides is in the actor's workspace; to anyone else it does not exist. */
async function load(connectionId: string, actor: Actor): Promise<Row> {
  const row = await getDb().connection.findUnique({ where: { id: connectionId }, include: connectionInclude });
  if (!row || !sidesOf(row).workspaceIds.includes(actor.workspaceId)) throw new AppError("NOT_FOUND", "No such connection");
  return row;
}

export async function respondToConnection(actor: Actor, input: { connectionId: string; decision: "accept" | "decline" }) {
  const row = await load(input.connectionId, actor);
  authorize(actor, input.decision === "accept" ? "connection.accept" : "connection.decline", sidesOf(row));
  if (row.status !== "pending") throw new AppError("CONFLICT", "This request was already decided");
  if (row.expiresAt && row.expiresAt <= new Date()) throw new AppError("CONFLICT", "This request has expired");
  if (input.decision === "accept" && !(await stillLinked(row))) throw new AppError("CONFLICT", "The two workspaces are no longer connected");
  return decide(row, input.decision, actor, actor);
}

const ENDINGS = {
  "connection.cancel": { from: "pending", to: "cancelled", audited: "connection.cancelled" },
  "connection.revoke": { from: "accepted", to: "revoked", audited: "connection.revoked" },
  "connection.unblock": { from: "blocked", to: "revoked", audited: "connection.unblocked" },
} as const;

/**
 * Ends a connection: the asker withdraws a pending request, either side revokes an accepted one, or
 * the blocker lifts a block. Only the state it was decided on is ended (a race gets CONFLICT).
 */
async function end(actor: Actor, row: Row, action: keyof typeof ENDINGS): Promise<ConnectionView> {
  authorize(actor, action, sidesOf(row));
  const { from, to, audited } = ENDINGS[action];
  const now = new Date();
  const [ok, committed] = await transaction(async (tx) => {
    const { count } = await tx.connection.updateMany({
      where: { id: row.id, status: from },
      data: { status: to, liveKey: null, endedById: actor.participantId, updatedAt: now },
    });
    if (count === 0) return false;
    await audit(tx, actor, audited, row.id, {}, sidesOf(row).workspaceIds);
    return true;
  });
  if (!ok) throw new AppError("CONFLICT", `Only a ${from} connection can be ${to}`);
  return announce(committed, await loadRow(row.id), "connection:updated", actor);
}

export async function cancelConnection(actor: Actor, input: { connectionId: string }) {
  return end(actor, await load(input.connectionId, actor), "connection.cancel");
}

/** Revokes an accepted connection, or lifts a block (revoking it too, by its own rule). */
export async function revokeConnection(actor: Actor, input: { connectionId: string }) {
  const row = await load(input.connectionId, actor);
  return end(actor, row, row.status === "blocked" ? "connection.unblock" : "connection.revoke");
}

/**
 * Blocks a participant (for oneself, or for an agent one owns): ends any live edge and refuses new
 * requests. A pair already blocked by the other side stays as it is: blocking back must not replace
 * (and so let its blocked side lift) that block.
 */
export async function blockParticipant(actor: Actor, input: { participantId: string; onBehalfOf?: string }): Promise<ConnectionView> {
  const blockerId = input.onBehalfOf ?? actor.participantId;
  const parties = await getDb().participant.findMany({ where: { id: { in: [blockerId, input.participantId] } }, select: partySelect });
  const blocker = parties.find((p) => p.id === blockerId);
  const target = parties.find((p) => p.id === input.participantId);
  if (!blocker || !target) throw new AppError("PARTICIPANT_NOT_FOUND", "No such participant");
  const targetLinked = target.workspaceId !== actor.workspaceId && (await linkedWorkspaces(actor.workspaceId)).has(target.workspaceId);
  authorize(actor, "connection.block", { blocker, target, targetLinked });
  const key = pairKey(blocker.id, target.id);
  const id = newId();
  const now = new Date();
  const [result, committed] = await transaction(async (tx) => {
    const live = await tx.connection.findUnique({ where: { liveKey: key }, select: { id: true, status: true, requesterId: true } });
    if (live?.status === "blocked") return live.requesterId === blocker.id ? { id: live.id, fresh: false } : null;
    if (live)
      await tx.connection.update({ where: { id: live.id }, data: { liveKey: null, status: "revoked", endedById: actor.participantId, updatedAt: now } });
    await tx.connection.create({
      data: {
        id,
        workspaceId: actor.workspaceId,
        requesterId: blocker.id,
        addresseeId: target.id,
        liveKey: key,
        status: "blocked",
        decidedById: actor.participantId,
        decidedAt: now,
      },
    });
    await audit(tx, actor, "connection.blocked", id, { blockerId: blocker.id, blockedId: target.id }, [target.workspaceId]);
    return { id, fresh: true };
  });
  if (!result) throw new AppError("CONFLICT", "This connection is already blocked");
  const row = await loadRow(result.id);
  return result.fresh ? announce(committed, row, "connection:updated", actor) : (await presentAll([row], actor))[0];
}

/** Connections of the actor and of the agents it owns, newest change first: the consent inbox and its history. */
export async function listConnections(
  actor: Actor,
  input: { status: "pending" | "accepted" | "history" | "all"; cursor?: string | null; limit: number },
): Promise<ConnectionPage> {
  const agents = await getDb().participant.findMany({ where: { ownerId: actor.participantId }, select: { id: true } });
  const mine = [actor.participantId, ...agents.map((a) => a.id)];
  const status: Prisma.ConnectionWhereInput =
    input.status === "pending"
      ? { status: "pending" }
      : input.status === "accepted"
        ? { status: "accepted" }
        : input.status === "history"
          ? { status: { notIn: ["pending"] } }
          : {};
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  // Keyset pagination on (updatedAt, id): stable while rows are added, and each page is one index range.
  const older: Prisma.ConnectionWhereInput = after
    ? { OR: [{ updatedAt: { lt: after.updatedAt } }, { updatedAt: after.updatedAt, id: { lt: after.id } }] }
    : {};
  const rows = await getDb().connection.findMany({
    // By participant, not workspace: a request from another, connected workspace is in the inbox too.
    where: { AND: [{ OR: [{ requesterId: { in: mine } }, { addresseeId: { in: mine } }] }, older], ...status },
    include: connectionInclude,
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return { connections: await presentAll(page, actor), nextCursor: rows.length > input.limit && last ? encodeCursor(last) : null };
}

/** Opaque to clients: the last row's place in the order. */
function encodeCursor(row: { updatedAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify([row.updatedAt.toISOString(), row.id])).toString("base64url");
}

function decodeCursor(cursor: string): { updatedAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    const updatedAt = new Date(typeof at === "string" ? at : Number.NaN);
    if (typeof id === "string" && id.length > 0 && !Number.isNaN(updatedAt.getTime())) return { updatedAt, id };
  } catch {
    // falls through to the refusal
  }
  throw new AppError("INVALID_PAYLOAD", "cursor: not a cursor this server issued");
}
