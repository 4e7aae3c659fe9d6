// What a participant is doing now: idle, working, waiting (for whom) or blocked, with a short text.
// An agent's state holds for a TTL unless it says it again (the SDK's heartbeat), so that a crashed
// agent's "working" clears itself: it reads as idle once past `workUntil` (presenters/work.ts), and the
// sweeper here stores that and tells everyone (`status:updated`) within a few seconds on any process.
// People's statuses hold until they change them.
import type { z } from "zod";
import type { setWorkStatusInput, WorkState, WorkStatusView } from "@switchboard/sdk/work";
import { getDb } from "../../db";
import { AppError } from "../../errors";
import { authorize, type Actor } from "../../policies";
import { presentWorkStatus, workStatusSelect } from "../../presenters/work";
import { audience, publish, type Committed } from "../../realtime";
import { transaction } from "../../transaction";
import { sweepEvery } from "../../sweeper";

/** Sets the actor's own status (a heartbeat when nothing changed: `since` stays, `until` moves). */
export async function setStatus(actor: Actor, input: z.output<typeof setWorkStatusInput>): Promise<WorkStatusView> {
  if (input.waitingFor && input.state !== "waiting") throw new AppError("INVALID_PAYLOAD", "waitingFor: only a waiting state waits for someone");
  if (input.waitingFor) {
    const whom = await getDb().participant.findUnique({ where: { id: input.waitingFor }, select: { workspaceId: true } });
    if (!whom || whom.workspaceId !== actor.workspaceId) throw new AppError("PARTICIPANT_NOT_FOUND", "waitingFor: no such participant");
  }
  const db = getDb();
  const now = new Date();
  const current = await db.participant.findUniqueOrThrow({
    where: { id: actor.participantId },
    select: { workState: true, waitingForId: true, workStateAt: true, workUntil: true },
  });
  const live = current.workUntil === null || current.workUntil > now;
  const waitingForId = input.waitingFor ?? null;
  const same = live && current.workState === input.state && current.waitingForId === waitingForId;
  const until = input.state === "idle" || actor.kind === "human" ? null : new Date(now.getTime() + input.ttlSec * 1000);
  const [row, committed] = await transaction((tx) =>
    tx.participant.update({
      where: { id: actor.participantId },
      data: { workState: input.state, workStatus: input.text, waitingForId, workStateAt: same ? current.workStateAt : now, workUntil: until },
      select: { ...workStatusSelect, workspaceId: true },
    }),
  );
  return announce(committed, row);
}

type StatusInput = z.output<typeof setWorkStatusInput>;

/**
 * A runtime that reports only at turn events and tool ends (Claude Code's hooks), not by heartbeats:
 * how long each state it sets holds, and what each event does to the status.
 */
export const TURN_EVENT_TTL_SEC = { working: 30 * 60, waiting: 4 * 60 * 60 } as const;

/** A session or a turn began: working. */
export function turnStarted(actor: Actor, text: string): Promise<WorkStatusView> {
  return setStatus(actor, { state: "working", text, ttlSec: TURN_EVENT_TTL_SEC.working });
}

/** The runtime waits for input (a permission prompt, an idle prompt): waiting for the agent's owner. */
export async function waitingForOwner(actor: Actor, text: string): Promise<WorkStatusView> {
  const owner = await ownerOf(actor.participantId);
  return setStatus(actor, { state: "waiting", text, waitingFor: owner ?? undefined, ttlSec: TURN_EVENT_TTL_SEC.waiting });
}

/** A turn ended: a working agent is idle; one blocked or waiting (as it said itself) stays so. Null: unchanged. */
export function turnEnded(actor: Actor): Promise<WorkStatusView | null> {
  return setStatusFrom(actor, ["working"], { state: "idle", text: "", ttlSec: TURN_EVENT_TTL_SEC.working });
}

/** The session ended: idle, whatever it was. */
export function sessionEnded(actor: Actor): Promise<WorkStatusView> {
  return setStatus(actor, { state: "idle", text: "", ttlSec: TURN_EVENT_TTL_SEC.working });
}

/** A tool ran during a turn: still working (renewed once half its hold is gone). */
export function stillWorking(actor: Actor): Promise<WorkStatusView | null> {
  return renewStatus(actor, "working", TURN_EVENT_TTL_SEC.working);
}

/**
 * A runtime's signal rather than the agent's own report (a Claude Code hook): sets the status only
 * when the current one, as everyone sees it, is one of `from` (a turn that ends clears "working", not
 * a "blocked" the agent set itself), keeping its text when none is given. Null: left as it was.
 */
async function setStatusFrom(actor: Actor, from: readonly WorkState[], input: Omit<StatusInput, "text"> & { text?: string }): Promise<WorkStatusView | null> {
  const current = await statusOf(actor.participantId);
  if (!current || !from.includes(current.state)) return null;
  return setStatus(actor, { ...input, text: input.text ?? current.text });
}

/**
 * A heartbeat from activity (a tool call): renews a live `state` for `ttlSec` once less than half of
 * that is left, so that busy work is not announced on every call. Null: not renewed.
 */
async function renewStatus(actor: Actor, state: WorkState, ttlSec: number): Promise<WorkStatusView | null> {
  const current = await statusOf(actor.participantId);
  if (!current || current.state !== state || current.until === null) return null;
  if (Date.parse(current.until) - Date.now() > (ttlSec * 1000) / 2) return null;
  return setStatus(actor, { state, text: current.text, waitingFor: current.waitingFor?.id, ttlSec });
}

/** The person an agent answers to (who it waits for when its runtime asks for input); null: none. */
async function ownerOf(participantId: string): Promise<string | null> {
  const row = await getDb().participant.findUnique({ where: { id: participantId }, select: { ownerId: true } });
  return row?.ownerId ?? null;
}

/** A participant's status as everyone sees it. */
export async function statusOf(participantId: string): Promise<WorkStatusView | null> {
  const row = await getDb().participant.findUnique({ where: { id: participantId }, select: workStatusSelect });
  return row ? presentWorkStatus(row) : null;
}

/** Every participant of the workspace that is not idle (member lists, the sidebar, pickers): idle is the default. */
export async function workspaceStatuses(actor: Actor, now = new Date()): Promise<WorkStatusView[]> {
  const { workspaceId } = actor;
  authorize(actor, "work.read_workspace", { workspaceId });
  const rows = await getDb().participant.findMany({
    where: { workspaceId, NOT: { workState: "idle" }, OR: [{ workUntil: null }, { workUntil: { gt: now } }] },
    select: workStatusSelect,
    take: 2000,
  });
  return rows.map((r) => presentWorkStatus(r, now));
}

/** Statuses are the workspace's to see, like presence. */
function announce(committed: Committed, row: Parameters<typeof presentWorkStatus>[0] & { workspaceId: string }): WorkStatusView {
  const view = presentWorkStatus(row);
  publish(committed, audience.workspace(row.workspaceId), "status:updated", { status: view });
  return view;
}

/**
 * Stores as idle every status whose TTL ran out, each on condition that it was not renewed meanwhile
 * (any process may sweep; the first to get there announces it). Returns how many it cleared.
 */
export async function expireStatuses(now = new Date(), limit = 500): Promise<number> {
  const db = getDb();
  const due = await db.participant.findMany({
    where: { workUntil: { lte: now }, NOT: { workState: "idle" } },
    select: { id: true, workUntil: true },
    take: limit,
  });
  let cleared = 0;
  for (const p of due) {
    const [{ count }, committed] = await transaction((tx) =>
      tx.participant.updateMany({
        where: { id: p.id, workUntil: p.workUntil },
        data: { workState: "idle", workStatus: "", waitingForId: null, workStateAt: p.workUntil, workUntil: null },
      }),
    );
    if (count !== 1) continue;
    cleared++;
    const row = await db.participant.findUnique({ where: { id: p.id }, select: { ...workStatusSelect, workspaceId: true } });
    if (row) announce(committed, row);
  }
  return cleared;
}

/** Sweeps expired statuses every `everyMs` until stopped; each process may run one. */
export function startStatusSweeper(everyMs: number): () => void {
  return sweepEvery(everyMs, "status expiry", () => expireStatuses());
}
