// Turns, watched live in their room (sdk/turns.ts has the shapes): an agent opens one on the message it
// answers (`turn:start`), reports its steps as they happen (`turn:steps`: the plan, tool calls, files,
// notes, and its tokens so far) and ends it (`turn:end`). Each change is published to the room as
// `turn:activity` with the turn and the steps that changed, after it committed. A person allowed to
// (the agent's owner, an admin, any member where the room says so) stops a running turn: the agent's
// sockets are told (`turn:interrupt`), and the agent ends the turn as stopped.
//
// Bounded: a step's text is cut and blanked of secrets here, whatever the agent sent; a turn keeps
// TURN_STEPS_MAX steps and TURN_BYTES_MAX bytes of them (the rest counted); a room keeps the steps of
// its latest ROOM_TURNS_WITH_STEPS turns.
import type { z } from "zod";
import {
  clipped,
  oneLine,
  redactSecrets,
  ROOM_TURNS_WITH_STEPS,
  STEP_DETAIL_MAX,
  STEP_TITLE_MAX,
  TURN_BYTES_MAX,
  TURN_STEPS_MAX,
  type endTurnInput,
  type roomStopSettingInput,
  type roomTurnsInput,
  type RoomTurns,
  type startTurnInput,
  type turnIdInput,
  type turnStepsInput,
  type TurnStepInput,
  type TurnStepView,
  type TurnView,
  type TurnWithSteps,
} from "@switchboard/sdk/turns";
import { getDb, type Prisma, type Tx } from "../../db";
import { AppError, isUniqueViolation } from "../../errors";
import { newId } from "../../ids";
import { authorize, can, type Actor } from "../../policies";
import { presentTurn, presentTurnStep, turnInclude } from "../../presenters/turn";
import { audience, publish, type Committed } from "../../realtime";
import { transaction } from "../../transaction";
import { loadMembershipFor, loadRoomFor, loadRoomOfMessage } from "../access/rooms";
import { recordAudit } from "../governance/audit";
import { recordReceipt } from "../messaging/delivery";

type TurnRow = NonNullable<Awaited<ReturnType<typeof findTurn>>>;

const findTurn = (id: string, db: Tx | ReturnType<typeof getDb> = getDb()) => db.turn.findUnique({ where: { id }, include: turnInclude });

/**
 * Opens the turn on `messageId` (a message of a room the agent is in), or, for a turn run again after
 * a crash, takes it up again: running, its steps kept.
 */
export async function startTurn(actor: Actor, input: z.output<typeof startTurnInput>): Promise<TurnView> {
  authorize(actor, "turn.run", { agentId: actor.participantId });
  const message = await getDb().message.findUnique({ where: { id: input.messageId }, select: { roomId: true, threadRootId: true } });
  if (!message) throw new AppError("MESSAGE_NOT_FOUND", "No such message");
  await loadRoomOfMessage(actor, message.roomId); // a room it may not read: as if no such message
  await loadMembershipFor(actor, message.roomId); // NOT_A_MEMBER
  const now = new Date();
  const reopen = { state: "running", error: null, endedAt: null, stopRequestedAt: null, stopRequestedById: null, updatedAt: now };
  const existing = await getDb().turn.findUnique({ where: { agentId_messageId: { agentId: actor.participantId, messageId: input.messageId } } });
  let id = existing?.id ?? newId();
  let committed: Committed;
  try {
    [, committed] = await transaction(async (tx) => {
      if (existing) {
        await tx.turn.update({ where: { id }, data: { ...reopen, ...(input.runtime ? { runtime: input.runtime } : {}) } });
        return;
      }
      await tx.turn.create({
        data: {
          id,
          workspaceId: actor.workspaceId,
          roomId: message.roomId,
          agentId: actor.participantId,
          messageId: input.messageId,
          threadRootId: message.threadRootId,
          runtime: input.runtime ?? "",
          startedAt: now,
          updatedAt: now,
        },
      });
      await pruneRoomSteps(tx, message.roomId);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Started twice at once (a retried request): the first one stands.
    id = (await getDb().turn.findUnique({ where: { agentId_messageId: { agentId: actor.participantId, messageId: input.messageId } } }))!.id;
    [, committed] = await transaction(async (tx) => void (await tx.turn.update({ where: { id }, data: reopen })));
  }
  return announce(committed, id, []);
}

/** Records steps (new by key, or updates of steps with that key) and the turn's tokens so far. */
export async function reportSteps(actor: Actor, input: z.output<typeof turnStepsInput>): Promise<TurnView> {
  const turn = await ownTurn(actor, input.turnId);
  if (turn.state !== "running") throw new AppError("CONFLICT", `This turn has ended (${turn.state})`);
  const now = new Date();
  // Streamed many times a second while a turn runs: a few statements, and what is published is built
  // from what was written (the turn as read above, with its new counters), not read back.
  const [{ counters, steps }, committed] = await transaction(async (tx) => {
    const written = await writeSteps(tx, turn, input.steps, now);
    await tx.turn.update({ where: { id: turn.id }, data: { ...written.counters, updatedAt: now, ...usageFields(input.usage) } });
    return written;
  });
  const view = presentTurn({ ...turn, ...counters, updatedAt: now, ...usageFields(input.usage) });
  publish(committed, audience.room(turn.roomId), "turn:activity", { turn: view, steps });
  return view;
}

/** Ends the turn: done, failed (with its error) or stopped. Ending an ended turn changes nothing. */
export async function endTurn(actor: Actor, input: z.output<typeof endTurnInput>): Promise<TurnView> {
  const turn = await ownTurn(actor, input.turnId);
  if (turn.state !== "running") return presentTurn(turn);
  const now = new Date();
  // Steps still running when the turn ends did not finish.
  const unfinished = (await getDb().turnStep.findMany({ where: { turnId: turn.id, status: "running" }, select: { key: true } })).map((s) => s.key);
  const [, committed] = await transaction(async (tx) => {
    if (unfinished.length)
      await tx.turnStep.updateMany({ where: { turnId: turn.id, key: { in: unfinished } }, data: { status: input.state === "done" ? "done" : "failed" } });
    await tx.turn.update({
      where: { id: turn.id },
      data: {
        state: input.state,
        error: input.error ? oneLine(redactSecrets(input.error), 500) : null,
        endedAt: now,
        updatedAt: now,
        ...usageFields(input.usage),
      },
    });
  });
  return announce(committed, turn.id, unfinished);
}

/** A turn as a host that holds no socket is told of it: as it stands, and who stopped it, if someone did. */
export interface ReportedTurn {
  turn: TurnView;
  stoppedBy: { id: string; handle: string } | null;
}

/**
 * A turn told in one call, for hosts that hold no socket to be interrupted on (an MCP host, through
 * `report_activity`): opened on the message unless it runs, its steps and tokens recorded, ended when
 * `end` says. A Stop asked for meanwhile is honoured here (see `honourStop`), and `stoppedBy` tells the
 * host to stop; a stopped turn stays stopped.
 */
export async function reportTurn(
  actor: Actor,
  input: {
    messageId: string;
    runtime?: string;
    steps: TurnStepInput[];
    usage?: z.output<typeof turnStepsInput>["usage"];
    end?: Omit<z.output<typeof endTurnInput>, "turnId">;
  },
): Promise<ReportedTurn> {
  const existing = await getDb().turn.findUnique({
    where: { agentId_messageId: { agentId: actor.participantId, messageId: input.messageId } },
    include: turnInclude,
  });
  if (existing?.state === "stopped") return { turn: presentTurn(existing), stoppedBy: presentTurn(existing).stoppedBy };
  if (existing?.state === "running" && existing.stopRequestedAt) return honourStop(actor, existing);
  const turnId = existing?.state === "running" ? existing.id : (await startTurn(actor, { messageId: input.messageId, runtime: input.runtime })).id;
  return { turn: await recordSteps(actor, turnId, input), stoppedBy: null };
}

/**
 * For Claude Code's hooks, which say what a session does but not which message it answers: a step of
 * the agent's running turn (its latest, opened by `report_activity`), or its end. Null when none runs.
 */
export async function reportRunningTurn(
  actor: Actor,
  input: { steps: TurnStepInput[]; end?: Omit<z.output<typeof endTurnInput>, "turnId"> },
): Promise<ReportedTurn | null> {
  const running = await getDb().turn.findFirst({
    where: { agentId: actor.participantId, state: "running" },
    orderBy: { updatedAt: "desc" },
    include: turnInclude,
  });
  if (!running) return null;
  if (running.stopRequestedAt) return honourStop(actor, running);
  return { turn: await recordSteps(actor, running.id, input), stoppedBy: null };
}

async function recordSteps(
  actor: Actor,
  turnId: string,
  input: { steps: TurnStepInput[]; usage?: z.output<typeof turnStepsInput>["usage"]; end?: Omit<z.output<typeof endTurnInput>, "turnId"> },
): Promise<TurnView> {
  let turn: TurnView | null = null;
  if (input.steps.length > 0 || input.usage) turn = await reportSteps(actor, { turnId, steps: input.steps, usage: input.usage });
  if (input.end) turn = await endTurn(actor, { turnId, ...input.end });
  return turn ?? presentTurn((await findTurn(turnId))!);
}

/**
 * What an SDK agent does on `turn:interrupt`, done for a host that was told by a call's answer: the
 * turn ends `stopped` and the message's receipt is failed, "stopped by @dana".
 */
async function honourStop(actor: Actor, running: TurnRow): Promise<ReportedTurn> {
  const turn = await endTurn(actor, { turnId: running.id, state: "stopped" });
  const by = turn.stoppedBy ?? { id: "", handle: "" };
  await recordReceipt(actor, { messageId: running.messageId, state: "failed", reason: `stopped by @${by.handle}` });
  return { turn, stoppedBy: by };
}

/** A room's latest turns with their steps, for whoever may read the room. */
export async function roomTurns(actor: Actor, input: z.output<typeof roomTurnsInput>): Promise<RoomTurns> {
  const subject = await loadRoomFor(actor, input.roomId);
  authorize(actor, "room.read", subject);
  const rows = await getDb().turn.findMany({
    where: { roomId: input.roomId },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: input.limit,
    include: { ...turnInclude, steps: { orderBy: { position: "asc" } } },
  });
  const turns: TurnWithSteps[] = rows.reverse().map((row) => ({ ...presentTurn(row), steps: row.steps.map(presentTurnStep) }));
  const membersMayStopTurns = subject.room.membersMayStopTurns;
  const members = await getDb().roomMember.findMany({
    where: { roomId: input.roomId, participant: { kind: "agent" } },
    include: { participant: { select: { id: true, handle: true, displayName: true, ownerId: true } } },
    orderBy: { joinedAt: "asc" },
  });
  const pausers = new Map(
    (
      await getDb().participant.findMany({
        where: { id: { in: members.map((m) => m.pausedById).filter((x): x is string => x !== null) } },
        select: { id: true, handle: true },
      })
    ).map((p) => [p.id, p]),
  );
  const agents = members.map((m) => ({
    ...m.participant,
    paused: m.pausedAt ? { at: m.pausedAt.toISOString(), by: (m.pausedById && pausers.get(m.pausedById)) || null } : null,
  }));
  return {
    turns,
    agents,
    membersMayStopTurns,
    // Any agent's: the steering rule for an agent the viewer does not own.
    canStopAll: can(actor, "agent.steer", {
      agent: { id: "", ownerId: null },
      membersMayStop: membersMayStopTurns,
      member: subject.membership !== null,
      roomWorkspaceId: subject.room.workspaceId,
    }),
    canChangeStopping: can(actor, "room.configure", subject),
  };
}

/**
 * Stops a running turn: recorded, audited, and the agent's sockets told (`turn:interrupt`); the agent
 * ends it as stopped. Asking again while it winds down changes nothing; an ended turn is a CONFLICT.
 */
export async function stopTurn(actor: Actor, input: z.output<typeof turnIdInput>): Promise<TurnView> {
  const turn = await findTurn(input.turnId);
  if (!turn || turn.workspaceId !== actor.workspaceId) throw new AppError("NOT_FOUND", "No such turn");
  const subject = await loadRoomFor(actor, turn.roomId);
  authorize(actor, "room.read", subject);
  authorize(actor, "agent.steer", {
    agent: { id: turn.agentId, ownerId: turn.agent.ownerId },
    membersMayStop: subject.room.membersMayStopTurns,
    member: subject.membership !== null,
    roomWorkspaceId: subject.room.workspaceId,
  });
  if (turn.state !== "running") throw new AppError("CONFLICT", `This turn has already ended (${turn.state})`);
  if (turn.stopRequestedAt) return presentTurn(turn);
  const now = new Date();
  const [, committed] = await transaction(async (tx) => {
    await tx.turn.update({ where: { id: turn.id }, data: { stopRequestedAt: now, stopRequestedById: actor.participantId, updatedAt: now } });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "turn.stopped",
      subjectType: "participant",
      subjectId: turn.agentId,
      data: { turnId: turn.id, roomId: turn.roomId, messageId: turn.messageId },
    });
  });
  const view = await announce(committed, turn.id, []);
  publish(committed, audience.participant(turn.agentId), "turn:interrupt", {
    turnId: turn.id,
    roomId: turn.roomId,
    messageId: turn.messageId,
    by: { id: actor.participantId, handle: view.stoppedBy?.handle ?? "" },
  });
  return view;
}

/** Whether any member of the room may stop agents' turns there (else their owners and admins only). */
export async function setMembersMayStop(actor: Actor, input: z.output<typeof roomStopSettingInput>): Promise<RoomTurns["membersMayStopTurns"]> {
  const subject = await loadRoomFor(actor, input.roomId);
  authorize(actor, "room.configure", subject);
  await transaction(async (tx) => {
    await tx.room.update({ where: { id: input.roomId }, data: { membersMayStopTurns: input.membersMayStopTurns } });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "room.turn_stopping_changed",
      subjectType: "room",
      subjectId: input.roomId,
      data: { membersMayStopTurns: input.membersMayStopTurns },
    });
  });
  return input.membersMayStopTurns;
}

/** The actor's own turn (an agent ends and reports only its own). */
async function ownTurn(actor: Actor, turnId: string): Promise<TurnRow> {
  const turn = await findTurn(turnId);
  if (!turn || turn.workspaceId !== actor.workspaceId) throw new AppError("NOT_FOUND", "No such turn");
  authorize(actor, "turn.run", { agentId: turn.agentId });
  return turn;
}

const usageFields = (usage: z.output<typeof turnStepsInput>["usage"]) =>
  usage
    ? {
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        ...(usage.costUsd !== undefined ? { costMicros: Math.round(usage.costUsd * 1e6) } : {}),
      }
    : {};

/**
 * Writes the steps: an update of a kept step in place, new ones at the end while the turn's bounds
 * allow (else counted). Returns the steps written, as the room sees them, and the turn's new counters
 * (the caller stores them).
 */
async function writeSteps(
  tx: Tx,
  turn: TurnRow,
  steps: z.output<typeof turnStepsInput>["steps"],
  now: Date,
): Promise<{ counters: { stepCount: number; bytes: number; droppedSteps: number }; steps: TurnStepView[] }> {
  // The last report of a key wins within one batch.
  const latest = new Map(steps.map((s) => [s.key, s]));
  const [kept, current] = await Promise.all([
    latest.size ? tx.turnStep.findMany({ where: { turnId: turn.id, key: { in: [...latest.keys()] } } }) : Promise.resolve([]),
    tx.turn.findUniqueOrThrow({ where: { id: turn.id }, select: { stepCount: true, bytes: true, droppedSteps: true } }),
  ]);
  const known = new Map(kept.map((s) => [s.key, s]));
  let { stepCount, bytes, droppedSteps } = current;
  const created: Prisma.TurnStepCreateManyInput[] = [];
  const views: TurnStepView[] = [];
  for (const step of latest.values()) {
    const title = oneLine(redactSecrets(step.title), STEP_TITLE_MAX);
    const detail = step.detail === undefined ? undefined : clipped(redactSecrets(step.detail), STEP_DETAIL_MAX);
    const items = step.items?.map((i) => ({ title: oneLine(redactSecrets(i.title), STEP_TITLE_MAX), status: i.status }));
    const previous = known.get(step.key);
    const size = title.length + (detail?.length ?? previous?.detail.length ?? 0) + JSON.stringify(items ?? "").length;
    const fields = { kind: step.kind, title, status: step.status ?? "done", at: now, ...(detail !== undefined ? { detail } : {}), ...(items ? { items } : {}) };
    if (previous) {
      bytes += size - previous.title.length - previous.detail.length;
      await tx.turnStep.update({ where: { turnId_key: { turnId: turn.id, key: step.key } }, data: fields });
      views.push(presentTurnStep({ ...previous, ...fields, items: items ?? previous.items }));
    } else if (stepCount >= TURN_STEPS_MAX || bytes + size > TURN_BYTES_MAX) {
      droppedSteps += 1;
    } else {
      bytes += size;
      const row = { turnId: turn.id, key: step.key, position: stepCount++, detail: "", ...fields };
      created.push(row);
      views.push(presentTurnStep({ ...row, items: items ?? null }));
    }
  }
  if (created.length) await tx.turnStep.createMany({ data: created });
  return { counters: { stepCount, bytes, droppedSteps }, steps: views.sort((a, b) => a.position - b.position) };
}

/** Keeps the steps of the room's latest ROOM_TURNS_WITH_STEPS turns; older turns keep their summary. */
async function pruneRoomSteps(tx: Tx, roomId: string): Promise<void> {
  const older = await tx.turn.findMany({
    where: { roomId, stepCount: { gt: 0 } },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    skip: ROOM_TURNS_WITH_STEPS,
    select: { id: true },
  });
  if (older.length === 0) return;
  const ids = older.map((t) => t.id);
  await tx.turnStep.deleteMany({ where: { turnId: { in: ids } } });
  await tx.turn.updateMany({ where: { id: { in: ids } }, data: { stepCount: 0, bytes: 0 } });
}

/** Publishes the turn as stored now, with the steps `changedKeys` names, to its room; returns it. */
async function announce(committed: Committed, id: string, changedKeys: string[]): Promise<TurnView> {
  const row = (await findTurn(id))!;
  const turn = presentTurn(row);
  const steps =
    changedKeys.length === 0
      ? []
      : (await getDb().turnStep.findMany({ where: { turnId: id, key: { in: changedKeys } }, orderBy: { position: "asc" } })).map(presentTurnStep);
  publish(committed, audience.room(row.roomId), "turn:activity", { turn, steps });
  return turn;
}
