// Runtime bindings: (agent, room, thread, runtime) → the agent framework's own session id (a Claude
// session, a Codex thread, a LangGraph thread), so that a message arriving after a crash, a restart
// or a week resumes that session with only what followed `lastSeq`.
//
// A turn claims its binding (making it on first use, or starting a new session on a closed one), which
// takes a lease: one turn per binding at a time, across processes. While it holds the lease it records
// its session id, that it resumed or could not, and at the end the last seq it handed the session; then
// it releases. Every update is conditional on the lease and the generation the turn claimed, so a
// binding closed (or taken over after its lease ran out) during a turn is not written by that turn.
// Each change is published as `binding:updated` to the room and to the agent and its owner.
import type { z } from "zod";
import type {
  BindingForViewer,
  BindingView,
  bindingIdInput,
  bindingKeyInput,
  claimBindingInput,
  listBindingsInput,
  updateBindingInput,
} from "@switchboard/sdk/bindings";
import { getDb } from "../../db";
import { AppError, isUniqueViolation } from "../../errors";
import { newId } from "../../ids";
import { authorize, can, type Actor } from "../../policies";
import { bindingInclude, presentBinding } from "../../presenters/binding";
import { audience, publish, type Committed } from "../../realtime";
import { transaction } from "../../transaction";
import { recordAudit } from "../governance/audit";
import { loadMembershipFor, loadRoomFor } from "../access/rooms";
import { roomViews, withMemberCount } from "../access/views";
import { checkThreadRoot } from "../messaging/threads";

type Row = NonNullable<Awaited<ReturnType<typeof findBinding>>>;

const findBinding = (id: string) => getDb().runtimeBinding.findUnique({ where: { id }, include: bindingInclude });

/** How long a busy binding's claimer is told to wait before it tries again, at most. */
const BUSY_RETRY_MS = 2_000;

const keyOf = (agentId: string, input: { roomId: string; threadRootId?: string; runtime: string }) => ({
  agentId,
  roomId: input.roomId,
  threadKey: input.threadRootId ?? "",
  runtime: input.runtime,
});

/**
 * Takes the binding for one turn. First use makes it; a closed one starts a new session (its
 * generation + 1, no external id). BINDING_BUSY (with retryAfterMs) while another holder's lease runs.
 */
export async function claimBinding(actor: Actor, input: z.output<typeof claimBindingInput>): Promise<BindingView> {
  authorize(actor, "binding.hold", { agent: { id: actor.participantId, ownerId: null } });
  await loadMembershipFor(actor, input.roomId); // NOT_A_MEMBER for a room the agent is not in
  if (input.threadRootId) await checkThreadRoot(input.roomId, input.threadRootId);
  const key = keyOf(actor.participantId, input);
  const where = { runner: input.runner, host: input.host, workdir: input.workdir, ...(input.config ? { config: input.config as object } : {}) };
  // A few rounds at most: each lost one means another claimer changed the row in between.
  for (let round = 0; round < 5; round++) {
    const now = new Date();
    const lease = { leaseHolder: input.holder, leaseUntil: new Date(now.getTime() + input.leaseMs), lastUsedAt: now };
    const found = await getDb().runtimeBinding.findUnique({ where: { agentId_roomId_threadKey_runtime: key } });
    if (!found) {
      try {
        const id = newId();
        const [, committed] = await transaction(async (tx) => {
          await tx.runtimeBinding.create({ data: { id, workspaceId: actor.workspaceId, ...key, ...where, ...lease, status: "active" } });
          await recordAudit(tx, {
            workspaceId: actor.workspaceId,
            actorId: actor.participantId,
            action: "binding.created",
            subjectType: "binding",
            subjectId: id,
            data: { roomId: key.roomId, threadRootId: input.threadRootId ?? null, runtime: key.runtime, generation: 1 },
          });
        });
        return announce(committed, id);
      } catch (error) {
        if (isUniqueViolation(error)) continue; // another claimer made it first: take it as found
        throw error;
      }
    }
    const heldByOther =
      found.leaseHolder !== null && found.leaseHolder !== input.holder && found.leaseUntil !== null && found.leaseUntil > now && found.status !== "closed";
    if (heldByOther) {
      const waitMs = Math.min(BUSY_RETRY_MS, Math.max(1, found.leaseUntil!.getTime() - now.getTime()));
      throw new AppError("BINDING_BUSY", "Another turn holds this binding; retry shortly", { retryAfterMs: waitMs });
    }
    if (found.status === "closed") {
      const generation = found.generation + 1;
      const [reopened, committed] = await transaction(async (tx) => {
        const { count } = await tx.runtimeBinding.updateMany({
          where: { id: found.id, generation: found.generation, status: "closed" },
          data: { ...where, ...lease, generation, status: "active", externalId: null, openTaskId: null, lastError: null, closedAt: null, closedById: null },
        });
        if (count === 1) {
          await recordAudit(tx, {
            workspaceId: actor.workspaceId,
            actorId: actor.participantId,
            action: "binding.created",
            subjectType: "binding",
            subjectId: found.id,
            data: { roomId: key.roomId, threadRootId: input.threadRootId ?? null, runtime: key.runtime, generation },
          });
        }
        return count === 1;
      });
      if (reopened) return announce(committed, found.id);
      continue;
    }
    // Free, ours already, or its lease ran out: take it, if nobody did in between.
    const [{ count }, committed] = await transaction((tx) =>
      tx.runtimeBinding.updateMany({
        where: {
          id: found.id,
          generation: found.generation,
          status: { not: "closed" },
          OR: [{ leaseHolder: null }, { leaseHolder: input.holder }, { leaseUntil: { lte: now } }],
        },
        data: { ...where, ...lease, status: "active" },
      }),
    );
    if (count === 1) return announce(committed, found.id);
  }
  throw new AppError("BINDING_BUSY", "This binding changed hands several times while claiming it; retry shortly", { retryAfterMs: 100 });
}

/** Records what the turn holding the binding did; CONFLICT if it no longer holds it (closed, or taken over). */
export async function updateBinding(actor: Actor, input: z.output<typeof updateBindingInput>): Promise<BindingView> {
  const row = await visibleBinding(actor, input.bindingId);
  authorize(actor, "binding.hold", { agent: row.agent });
  if (row.generation !== input.generation || row.status === "closed") {
    throw new AppError("CONFLICT", "This binding was closed during the turn: its next turn starts a new session");
  }
  if (row.leaseHolder !== input.holder) throw new AppError("CONFLICT", "This turn no longer holds the binding (its lease ran out and another turn took it)");
  const now = new Date();
  const data = {
    ...(input.externalId !== undefined ? { externalId: input.externalId } : {}),
    ...(input.resumed ? { resumes: { increment: 1 } } : {}),
    // The session is gone: the turn goes on in a new one, whose id it records next.
    ...(input.resumeFailed
      ? { resumeFailures: { increment: 1 }, lastError: input.resumeFailed, ...(input.externalId === undefined ? { externalId: null } : {}) }
      : {}),
    ...(input.lastSeq !== undefined ? { lastSeq: Math.max(row.lastSeq, input.lastSeq) } : {}),
    ...(input.status ? { status: input.status } : {}),
    ...(input.openTaskId !== undefined ? { openTaskId: input.openTaskId } : {}),
    ...(input.config ? { config: input.config as object } : {}),
    ...(input.error !== undefined ? { lastError: input.error } : {}),
    ...(input.leaseMs && !input.release ? { leaseUntil: new Date(now.getTime() + input.leaseMs) } : {}),
    // A finished turn says how far it got (`lastSeq`); a release without it (a failed turn, one with nothing to do) is not counted.
    ...(input.release
      ? { leaseHolder: null, leaseUntil: null, status: input.status ?? "idle", ...(input.lastSeq !== undefined ? { turns: { increment: 1 } } : {}) }
      : {}),
    lastUsedAt: now,
  };
  const [{ count }, committed] = await transaction((tx) =>
    tx.runtimeBinding.updateMany({ where: { id: row.id, generation: input.generation, leaseHolder: input.holder, status: { not: "closed" } }, data }),
  );
  if (count === 0)
    throw new AppError("CONFLICT", "This binding changed during the turn (closed, or taken over): its next turn starts again from what is stored");
  return announce(committed, row.id);
}

/** Closes a binding: its session is let go, and the next message to the agent there starts a new one. */
export async function closeBinding(actor: Actor, input: z.output<typeof bindingIdInput>): Promise<BindingView> {
  const row = await visibleBinding(actor, input.bindingId);
  authorize(actor, "binding.close", { agent: row.agent });
  if (row.status === "closed") return presentBinding(row);
  const [closed, committed] = await transaction(async (tx) => {
    const { count } = await tx.runtimeBinding.updateMany({
      where: { id: row.id, status: { not: "closed" } },
      data: { status: "closed", closedAt: new Date(), closedById: actor.participantId, leaseHolder: null, leaseUntil: null },
    });
    if (count === 1) {
      await recordAudit(tx, {
        workspaceId: row.workspaceId,
        actorId: actor.participantId,
        action: "binding.closed",
        subjectType: "binding",
        subjectId: row.id,
        data: { roomId: row.roomId, agentId: row.agentId, runtime: row.runtime, externalId: row.externalId, generation: row.generation },
      });
    }
    return count === 1;
  });
  return closed ? announce(committed, row.id) : presentBinding((await findBinding(row.id))!);
}

/** The agent's own binding for a key, or null. */
export async function getBinding(actor: Actor, input: z.output<typeof bindingKeyInput>): Promise<BindingView | null> {
  authorize(actor, "binding.hold", { agent: { id: actor.participantId, ownerId: null } });
  const row = await getDb().runtimeBinding.findUnique({
    where: { agentId_roomId_threadKey_runtime: keyOf(actor.participantId, input) },
    include: bindingInclude,
  });
  return row ? presentBinding(row) : null;
}

/** The agent's own bindings, most recently used first. */
export async function listMyBindings(actor: Actor, input: z.output<typeof listBindingsInput>): Promise<BindingView[]> {
  const rows = await getDb().runtimeBinding.findMany({
    where: { agentId: actor.participantId, ...(input.roomId ? { roomId: input.roomId } : {}), ...(input.includeClosed ? {} : { status: { not: "closed" } }) },
    include: bindingInclude,
    orderBy: [{ lastUsedAt: { sort: "desc", nulls: "last" } }, { createdAt: "desc" }],
    take: input.limit,
  });
  return rows.map((r) => presentBinding(r));
}

/** A room's bindings, for whoever may read the room (the room header). */
export async function roomBindings(actor: Actor, input: { roomId: string; includeClosed: boolean }): Promise<BindingForViewer[]> {
  const subject = await loadRoomFor(actor, input.roomId);
  authorize(actor, "room.read", subject);
  const rows = await getDb().runtimeBinding.findMany({
    where: { roomId: input.roomId, ...(input.includeClosed ? {} : { status: { not: "closed" } }) },
    include: bindingInclude,
    orderBy: [{ lastUsedAt: { sort: "desc", nulls: "last" } }, { createdAt: "desc" }],
    take: 200,
  });
  const rooms = await roomsAsSeenBy(actor, rows.length ? [input.roomId] : [], new Set([input.roomId]));
  return rows.map((r) => forViewer(actor, r, rooms.get(r.roomId)!));
}

/**
 * An agent's bindings, for its page: all of them to the agent, its owner and admins; to anyone else,
 * those in rooms they may read.
 */
export async function agentBindings(actor: Actor, input: { agentId: string; includeClosed: boolean }): Promise<BindingForViewer[]> {
  const agent = await getDb().participant.findUnique({ where: { id: input.agentId }, select: { id: true, ownerId: true, workspaceId: true, kind: true } });
  if (!agent || agent.workspaceId !== actor.workspaceId || agent.kind !== "agent") throw new AppError("PARTICIPANT_NOT_FOUND", "No such agent");
  const rows = await getDb().runtimeBinding.findMany({
    where: { agentId: agent.id, ...(input.includeClosed ? {} : { status: { not: "closed" } }) },
    include: { ...bindingInclude, room: { select: { id: true, workspaceId: true, kind: true, visibility: true, archivedAt: true } } },
    orderBy: [{ lastUsedAt: { sort: "desc", nulls: "last" } }, { createdAt: "desc" }],
    take: 500,
  });
  const memberOf = new Set(
    (
      await getDb().roomMember.findMany({
        where: { participantId: actor.participantId, roomId: { in: [...new Set(rows.map((r) => r.roomId))] } },
        select: { roomId: true },
      })
    ).map((m) => m.roomId),
  );
  const readable = new Set(
    rows.filter((r) => can(actor, "room.read", { room: r.room, membership: memberOf.has(r.roomId) ? { role: "member" } : null })).map((r) => r.roomId),
  );
  const visible = rows.filter((r) => can(actor, "binding.read", { workspaceId: r.workspaceId, agent: r.agent, roomReadable: readable.has(r.roomId) }));
  const rooms = await roomsAsSeenBy(actor, [...new Set(visible.map((r) => r.roomId))], readable);
  return visible.map((r) => forViewer(actor, r, rooms.get(r.roomId)!));
}

/** A binding as `actor` sees it: with its room's title for them, and whether they may close it. */
function forViewer(actor: Actor, row: Row, room: BindingForViewer["room"]): BindingForViewer {
  return { ...presentBinding(row), room, can: { close: can(actor, "binding.close", { agent: row.agent }) } };
}

/** Rooms by id, titled as `actor` sees them (a direct conversation's title is the other members' names). */
async function roomsAsSeenBy(actor: Actor, roomIds: string[], readable: Set<string>): Promise<Map<string, BindingForViewer["room"]>> {
  if (roomIds.length === 0) return new Map();
  const rows = await getDb().room.findMany({ where: { id: { in: roomIds } }, include: withMemberCount });
  const views = await roomViews(rows, actor.participantId);
  return new Map(views.map((v) => [v.id, { id: v.id, title: v.title, kind: v.kind, readable: readable.has(v.id) }]));
}

/** A binding the actor may see (NOT_FOUND otherwise), with its agent's owner for the rules. */
async function visibleBinding(actor: Actor, bindingId: string): Promise<Row> {
  const row = await findBinding(bindingId);
  if (!row || row.workspaceId !== actor.workspaceId) throw new AppError("NOT_FOUND", "No such binding");
  const subject = await loadRoomFor(actor, row.roomId).catch(() => null);
  const roomReadable = subject !== null && can(actor, "room.read", subject);
  authorize(actor, "binding.read", { workspaceId: row.workspaceId, agent: row.agent, roomReadable });
  return row;
}

/** Publishes the binding as stored now, to its room and to its agent and the agent's owner; returns it. */
async function announce(committed: Committed, id: string): Promise<BindingView> {
  const row = (await findBinding(id))!;
  const view = presentBinding(row);
  const to = [audience.room(row.roomId), audience.participant(row.agentId), ...(row.agent.ownerId ? [audience.participant(row.agent.ownerId)] : [])];
  publish(committed, to, "binding:updated", { binding: view });
  return view;
}
