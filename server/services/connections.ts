// Bilateral consent between participants. A participant asks another; the addressee decides (a person
// for themselves, a person for the agents they own, or the agent's consent policy automatically).
// Without an accepted, unexpired connection nobody can open a DM with, invite, or mention another;
// a person and their own agents, and (by workspace setting) people of one workspace, need none.
import type { ConnectionPage, ConnectionStatus, ConnectionView, ConsentPolicy } from "../../sdk/contract";
import { getDb, type Prisma, type Tx } from "../db";
import { AppError, isUniqueViolation } from "../errors";
import { newId } from "../ids";
import { authorize, type Actor } from "../policies";
import { connectionInclude, presentConnection } from "../presenters/connection";
import { audience, publish } from "../realtime";
import { recordAudit } from "./audit";

const DAY_MS = 24 * 60 * 60 * 1000;
const LIVE: ConnectionStatus[] = ["pending", "accepted", "blocked"];

const pairKey = (a: string, b: string) => [a, b].sort().join(":");

type Row = Prisma.ConnectionGetPayload<{ include: typeof connectionInclude }>;

interface Facts {
  id: string;
  kind: string;
  workspaceId: string;
  ownerId: string | null;
}

/** Presents rows with one lookup for all their deciders' names. */
async function presentAll(rows: Row[]): Promise<ConnectionView[]> {
  const ids = [...new Set(rows.flatMap((r) => (r.decidedById ? [r.decidedById] : [])))];
  const deciders = ids.length
    ? await getDb().participant.findMany({ where: { id: { in: ids } }, select: { id: true, displayName: true } })
    : [];
  const byId = new Map(deciders.map((d) => [d.id, d]));
  return rows.map((row) => presentConnection(row, byId));
}

async function present(row: Row): Promise<ConnectionView> {
  return (await presentAll([row]))[0];
}

async function facts(ids: string[]): Promise<Map<string, Facts>> {
  const rows = await getDb().participant.findMany({
    where: { id: { in: ids } },
    select: { id: true, kind: true, workspaceId: true, ownerId: true },
  });
  return new Map(rows.map((r) => [r.id, r]));
}

/** Pairs that need no request: oneself, an owner and their agent, and people when the workspace allows. */
async function implicit(a: Facts, b: Facts): Promise<boolean> {
  if (a.id === b.id || a.ownerId === b.id || b.ownerId === a.id) return true;
  if (a.kind === "human" && b.kind === "human" && a.workspaceId === b.workspaceId) {
    const ws = await getDb().workspace.findUnique({ where: { id: a.workspaceId }, select: { peopleTalkFreely: true } });
    return ws?.peopleTalkFreely ?? false;
  }
  return false;
}

async function liveEdge(a: string, b: string) {
  return getDb().connection.findUnique({ where: { liveKey: pairKey(a, b) }, include: connectionInclude });
}

const usable = (edge: { status: string; expiresAt: Date | null } | null) =>
  !!edge && edge.status === "accepted" && (!edge.expiresAt || edge.expiresAt > new Date());

/**
 * Throws NOT_CONNECTED unless `actorId` may reach every target: for a DM (`roomId` absent) or an
 * invitation into `roomId` (a connection scoped to rooms covers only those rooms).
 */
export async function assertCanReach(actor: Actor, targetIds: string[], roomId?: string): Promise<void> {
  const others = [...new Set(targetIds)].filter((id) => id !== actor.participantId);
  if (others.length === 0) return;
  const all = await facts([actor.participantId, ...others]);
  const me = all.get(actor.participantId)!;
  for (const id of others) {
    const other = all.get(id);
    if (!other) throw new AppError("PARTICIPANT_NOT_FOUND", "No such participant");
    if (await implicit(me, other)) continue;
    const edge = await liveEdge(me.id, id);
    const rooms = (edge?.scope as { roomIds?: string[] } | null)?.roomIds;
    const inScope = !rooms || (roomId !== undefined && rooms.includes(roomId));
    if (!usable(edge) || !inScope) {
      throw new AppError("NOT_CONNECTED", `You are not connected with @${await handleOf(id)}; ask to connect first`);
    }
  }
}

async function handleOf(id: string): Promise<string> {
  return (await getDb().participant.findUnique({ where: { id }, select: { handle: true } }))?.handle ?? "unknown";
}

/** The subset of `ids` the author may address (mentions of anyone else are not delivered). */
export async function reachable(actor: Actor, ids: string[]): Promise<string[]> {
  const kept: string[] = [];
  for (const id of ids) {
    try {
      await assertCanReach(actor, [id]);
      kept.push(id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  return kept;
}

/** The viewer's standing with each participant, for the directory. */
export async function standings(actor: Actor, ids: string[]): Promise<Map<string, "self" | "connected" | "pending" | "blocked" | "none">> {
  const all = await facts([actor.participantId, ...ids]);
  const me = all.get(actor.participantId)!;
  const edges = await getDb().connection.findMany({
    where: { liveKey: { in: ids.map((id) => pairKey(me.id, id)) } },
    select: { liveKey: true, status: true, expiresAt: true },
  });
  const byKey = new Map(edges.map((e) => [e.liveKey!, e]));
  const result = new Map<string, "self" | "connected" | "pending" | "blocked" | "none">();
  for (const id of ids) {
    const other = all.get(id);
    if (id === me.id) result.set(id, "self");
    else if (other && (await implicit(me, other))) result.set(id, "connected");
    else {
      const edge = byKey.get(pairKey(me.id, id)) ?? null;
      result.set(id, usable(edge) ? "connected" : edge?.status === "pending" ? "pending" : edge?.status === "blocked" ? "blocked" : "none");
    }
  }
  return result;
}

function notify(view: ConnectionView, event: "connection:request" | "connection:updated"): void {
  const to = new Set<string>([view.requester.id, view.addressee.id]);
  if (view.requester.owner) to.add(view.requester.owner.id);
  if (view.addressee.owner) to.add(view.addressee.owner.id);
  publish([...to].map(audience.participant), event, { connection: view });
}

async function audit(tx: Tx, actor: Actor, action: string, connectionId: string, data: Record<string, unknown>) {
  await recordAudit(tx, { workspaceId: actor.workspaceId, actorId: actor.participantId, action, subjectType: "connection", subjectId: connectionId, data });
}

export async function requestConnection(
  actor: Actor,
  input: { participantId: string; message: string; scope?: { roomIds?: string[]; purposes?: string[] }; expiresInDays?: number },
): Promise<ConnectionView> {
  const db = getDb();
  const all = await facts([actor.participantId, input.participantId]);
  const me = all.get(actor.participantId)!;
  const target = all.get(input.participantId);
  if (!target || target.workspaceId !== actor.workspaceId) throw new AppError("PARTICIPANT_NOT_FOUND", "No such participant");
  if (target.id === me.id) throw new AppError("INVALID_PAYLOAD", "You cannot connect to yourself");
  if (await implicit(me, target)) throw new AppError("CONFLICT", "You can already talk to each other");

  const existing = await liveEdge(me.id, target.id);
  if (existing?.status === "blocked") throw new AppError("FORBIDDEN", "This connection is blocked");
  if (existing && (existing.status === "pending" || usable(existing))) return present(existing);

  const id = newId();
  const created = await db.$transaction(async (tx) => {
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
    await audit(tx, actor, "connection.requested", id, { requesterId: me.id, addresseeId: target.id, message: input.message, scope: input.scope ?? null });
    return id;
  });
  if (!created) return present((await liveEdge(me.id, target.id))!);

  const row = await db.connection.findUniqueOrThrow({ where: { id }, include: connectionInclude });
  const automatic = autoDecision(row.addressee.consentPolicy as ConsentPolicy, me, target);
  if (automatic) return decide(row, automatic, null);
  const view = await present(row);
  notify(view, "connection:request");
  return view;
}

/** What an agent's consent policy decides by itself, or null to ask its owner. */
function autoDecision(policy: ConsentPolicy, requester: Facts, addressee: Facts): "accept" | "decline" | null {
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

/** Moves a pending request to its decision; exactly one concurrent decision wins. */
async function decide(row: Row, decision: "accept" | "decline", decider: Actor | null): Promise<ConnectionView> {
  const now = new Date();
  const won = await getDb().$transaction(async (tx) => {
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
    await recordAudit(tx, {
      workspaceId: row.workspaceId,
      actorId: decider?.participantId ?? null,
      action: decision === "accept" ? "connection.accepted" : "connection.declined",
      subjectType: "connection",
      subjectId: row.id,
      data: { automatic: decider === null, policy: decider ? null : row.addressee.consentPolicy },
    });
    return true;
  });
  if (!won) throw new AppError("CONFLICT", "This request was already decided");
  const view = await present(await getDb().connection.findUniqueOrThrow({ where: { id: row.id }, include: connectionInclude }));
  notify(view, "connection:updated");
  return view;
}

async function load(connectionId: string, actor: Actor): Promise<Row> {
  const row = await getDb().connection.findUnique({ where: { id: connectionId }, include: connectionInclude });
  if (!row || row.workspaceId !== actor.workspaceId) throw new AppError("NOT_FOUND", "No such connection");
  return row;
}

export async function respondToConnection(actor: Actor, input: { connectionId: string; decision: "accept" | "decline" }) {
  const row = await load(input.connectionId, actor);
  authorize(actor, input.decision === "accept" ? "connection.accept" : "connection.decline", {
    addressee: { id: row.addresseeId, ownerId: row.addressee.ownerId },
    requester: { id: row.requesterId, ownerId: row.requester.ownerId },
  });
  if (row.status !== "pending") throw new AppError("CONFLICT", "This request was already decided");
  if (row.expiresAt && row.expiresAt <= new Date()) throw new AppError("CONFLICT", "This request has expired");
  return decide(row, input.decision, actor);
}

/** Ends a connection: the asker withdraws a pending request, or either side revokes an accepted one. */
async function end(actor: Actor, connectionId: string, from: ConnectionStatus, to: ConnectionStatus, action: "connection.cancel" | "connection.revoke") {
  const row = await load(connectionId, actor);
  authorize(actor, action, {
    addressee: { id: row.addresseeId, ownerId: row.addressee.ownerId },
    requester: { id: row.requesterId, ownerId: row.requester.ownerId },
  });
  const now = new Date();
  const ok = await getDb().$transaction(async (tx) => {
    const { count } = await tx.connection.updateMany({
      where: { id: row.id, status: from },
      data: { status: to, liveKey: null, endedById: actor.participantId, updatedAt: now },
    });
    if (count === 0) return false;
    await audit(tx, actor, to === "cancelled" ? "connection.cancelled" : "connection.revoked", row.id, {});
    return true;
  });
  if (!ok) throw new AppError("CONFLICT", `Only a ${from} connection can be ${to}`);
  const view = await present(await getDb().connection.findUniqueOrThrow({ where: { id: row.id }, include: connectionInclude }));
  notify(view, "connection:updated");
  return view;
}

export const cancelConnection = (actor: Actor, input: { connectionId: string }) => end(actor, input.connectionId, "pending", "cancelled", "connection.cancel");

export async function revokeConnection(actor: Actor, input: { connectionId: string }) {
  const row = await load(input.connectionId, actor);
  // A block is lifted by revoking it too.
  return end(actor, input.connectionId, row.status === "blocked" ? "blocked" : "accepted", "revoked", "connection.revoke");
}

/** Blocks a participant (for oneself, or for an agent one owns): ends any live edge and refuses new requests. */
export async function blockParticipant(actor: Actor, input: { participantId: string; onBehalfOf?: string }): Promise<ConnectionView> {
  const blockerId = input.onBehalfOf ?? actor.participantId;
  const all = await facts([blockerId, input.participantId]);
  const blocker = all.get(blockerId);
  const target = all.get(input.participantId);
  if (!blocker || !target || target.workspaceId !== actor.workspaceId || blocker.workspaceId !== actor.workspaceId) {
    throw new AppError("PARTICIPANT_NOT_FOUND", "No such participant");
  }
  authorize(actor, "connection.block", { blocker: { id: blocker.id, ownerId: blocker.ownerId } });
  const id = newId();
  const now = new Date();
  await getDb().$transaction(async (tx) => {
    await tx.connection.updateMany({ where: { liveKey: pairKey(blocker.id, target.id) }, data: { liveKey: null, status: "revoked", endedById: actor.participantId, updatedAt: now } });
    await tx.connection.create({
      data: { id, workspaceId: actor.workspaceId, requesterId: blocker.id, addresseeId: target.id, liveKey: pairKey(blocker.id, target.id), status: "blocked", decidedById: actor.participantId, decidedAt: now },
    });
    await audit(tx, actor, "connection.blocked", id, { blockerId: blocker.id, blockedId: target.id });
  });
  const view = await present(await getDb().connection.findUniqueOrThrow({ where: { id }, include: connectionInclude }));
  notify(view, "connection:updated");
  return view;
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
    where: { workspaceId: actor.workspaceId, AND: [{ OR: [{ requesterId: { in: mine } }, { addresseeId: { in: mine } }] }, older], ...status },
    include: connectionInclude,
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return { connections: await presentAll(page), nextCursor: rows.length > input.limit && last ? encodeCursor(last) : null };
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

export const isLive = (status: string) => LIVE.includes(status as ConnectionStatus);
