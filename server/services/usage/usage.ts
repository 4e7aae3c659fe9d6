// Usage and cost: agents report model calls; the server prices what they did not, attributes each call
// to the agent, its owner, the person who drove it (services/messaging/requesters.ts), the room, the message and
// the task, and aggregates in the database.
import type { UsageView } from "@switchboard/sdk/contract";
import type { SetPriceInput } from "@switchboard/sdk/usage";
import { getDb, type Prisma, type Tx } from "../../db";
import { AppError, isUniqueViolation } from "../../errors";
import { newId } from "../../ids";
import { authorize, type Actor } from "../../policies";
import { audience, publish, type Committed } from "../../realtime";
import { transaction } from "../../transaction";
import { spendGate } from "../approvals/approvals";
import { recordAudit } from "../governance/audit";
import { budgetPeriodStart, checkBudgets } from "./budgets";
import { presentPrice, presentUsage, priceSelect } from "../../presenters/usage";
import { processingRequester, requesterOf } from "../messaging/requesters";
import { loadRoomFor, loadRoomOfMessage } from "../access/rooms";
import { addToRollups, type RollupSource } from "./rollups";

export interface UsageReport {
  reportId: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  costUsd?: number;
  roomId?: string;
  messageId?: string;
  taskId?: string;
  occurredAt?: string;
}

/** A few current models, per million tokens (USD); admins edit the table in the browser. */
export const DEFAULT_PRICES = [
  { model: "claude-sonnet-4.5", inputPerMTok: 3, outputPerMTok: 15, cachedPerMTok: 0.3 },
  { model: "claude-opus-4.1", inputPerMTok: 15, outputPerMTok: 75, cachedPerMTok: 1.5 },
  { model: "claude-haiku-4.5", inputPerMTok: 1, outputPerMTok: 5, cachedPerMTok: 0.1 },
  { model: "gpt-5", inputPerMTok: 1.25, outputPerMTok: 10, cachedPerMTok: 0.125 },
  { model: "gpt-5-mini", inputPerMTok: 0.25, outputPerMTok: 2, cachedPerMTok: 0.025 },
  { model: "gemini-2.5-pro", inputPerMTok: 1.25, outputPerMTok: 10, cachedPerMTok: 0.31 },
];

export const dayOf = (d: Date) => d.toISOString().slice(0, 10);
export const monthOf = (d: Date) => d.toISOString().slice(0, 7);

async function price(workspaceId: string, report: UsageReport): Promise<{ costUsd: number; costSource: UsageView["costSource"] }> {
  if (report.costUsd !== undefined) return { costUsd: report.costUsd, costSource: "reported" };
  const row = await getDb().modelPrice.findUnique({ where: { workspaceId_model: { workspaceId, model: report.model } } });
  if (!row) return { costUsd: 0, costSource: "unpriced" };
  const uncached = Math.max(0, report.inputTokens - report.cachedTokens);
  const cost = (uncached * row.inputPerMTok + report.cachedTokens * row.cachedPerMTok + report.outputTokens * row.outputPerMTok) / 1_000_000;
  return { costUsd: Math.round(cost * 1e9) / 1e9, costSource: "priced" };
}

/** Clocks differ a little: a call may be reported as happening this far ahead of the server's clock. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * When a reported call happened: now, unless the agent says. Not from the future (beyond clock skew),
 * and not before the current period of a budget that applies to the agent, so a report cannot be
 * backdated out of what its budgets count. Without a budget, earlier days may be reported (history).
 */
async function occurredAt(actor: Actor, ownerId: string | null, reported: string | undefined): Promise<Date> {
  const now = new Date();
  if (!reported) return now;
  const at = new Date(reported);
  if (at.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    throw new AppError("INVALID_PAYLOAD", `occurredAt: at most ${CLOCK_SKEW_MS / 60_000} minutes ahead of the server's clock (${now.toISOString()})`);
  }
  const since = await budgetPeriodStart(actor.workspaceId, actor.participantId, ownerId, now);
  if (since && at < since) {
    throw new AppError(
      "INVALID_PAYLOAD",
      `occurredAt: not before ${since.toISOString()}, when the current period of a budget that applies to this agent began`,
    );
  }
  return at;
}

/** An agent reports one model call. Idempotent by (agent, reportId): a repeat returns the original. */
export async function reportUsage(actor: Actor, report: UsageReport): Promise<UsageView> {
  const usage = await recordUsage(actor, report);
  // Recorded whatever the owner says (the spend happened); past their daily threshold, the agent is
  // told to wait for their approval (services/approvals/approvals.ts).
  await spendGate(actor, usage.occurredAt.slice(0, 10));
  return usage;
}

async function recordUsage(actor: Actor, report: UsageReport): Promise<UsageView> {
  authorize(actor, "usage.report", undefined);
  const db = getDb();
  const existing = await db.usageRecord.findUnique({ where: { agentId_reportId: { agentId: actor.participantId, reportId: report.reportId } } });
  if (existing) return presentUsage(existing);

  let roomId = report.roomId ?? null;
  let message: { id: string; roomId: string; requesterId: string | null; authorId: string; author: { kind: "human" | "agent" } } | null = null;
  if (report.messageId) {
    message = await db.message.findUnique({
      where: { id: report.messageId },
      select: { id: true, roomId: true, requesterId: true, authorId: true, author: { select: { kind: true } } },
    });
    if (!message) throw new AppError("MESSAGE_NOT_FOUND", "No such message");
    // A message in a room the agent may not read is no message, whatever room the report names.
    await loadRoomOfMessage(actor, message.roomId);
    if (roomId && roomId !== message.roomId) throw new AppError("INVALID_PAYLOAD", "The message is not in that room");
    roomId = message.roomId;
  }
  if (roomId) authorize(actor, "room.cursor", await loadRoomFor(actor, roomId));

  const agent = await db.participant.findUniqueOrThrow({ where: { id: actor.participantId }, select: { ownerId: true } });
  const at = await occurredAt(actor, agent.ownerId, report.occurredAt);
  const { costUsd, costSource } = await price(actor.workspaceId, report);
  const requesterId = message ? requesterOf(message) : await processingRequester(actor.participantId);
  let stored;
  try {
    stored = await storeUsageRecord({
      id: newId(),
      workspaceId: actor.workspaceId,
      agentId: actor.participantId,
      reportId: report.reportId,
      ownerId: agent.ownerId,
      requesterId,
      roomId,
      messageId: message?.id ?? null,
      taskId: report.taskId ?? null,
      model: report.model,
      inputTokens: report.inputTokens,
      outputTokens: report.outputTokens,
      cachedTokens: report.cachedTokens,
      costUsd,
      costSource,
      occurredAt: at,
      day: dayOf(at),
      month: monthOf(at),
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return presentUsage(
      (await db.usageRecord.findUniqueOrThrow({ where: { agentId_reportId: { agentId: actor.participantId, reportId: report.reportId } } }))!,
    );
  }
  const [row, committed] = stored;
  const usage = presentUsage(row);
  // After the answer: a budget this report exhausts suspends the agent (closing its socket) only once
  // the agent has its acknowledgement. Then the news: whoever watches usage hears of a report once its
  // check is done, after what the check changed (budget:updated).
  setImmediate(() => void settle(committed, actor, agent.ownerId, usage));
  return usage;
}

/** A stored report's budget check, then its announcement. Never rejects. */
async function settle(committed: Committed, actor: Actor, ownerId: string | null, usage: UsageView): Promise<void> {
  await checkBudgets(actor.workspaceId, actor.participantId, ownerId).catch((error: unknown) => console.error("budgets:", error));
  await announceUsage(committed, actor.workspaceId, usage).catch((error: unknown) => console.error("usage:recorded:", error));
}

/**
 * Inserts a record and adds it to the usage rollups in one transaction: a duplicate report id fails
 * on the record's unique key and rolls its rollup increments back with it, so rollups stay exact.
 */
export async function storeUsageRecord(data: Prisma.UsageRecordUncheckedCreateInput & RollupSource) {
  return transaction(async (tx) => {
    const row = await tx.usageRecord.create({ data });
    await addToRollups(tx, data);
    return row;
  });
}

/**
 * Usage goes live to those who may see it: the agent's owner and the workspace's admins (`usage.read`),
 * and the person who requested it (their requests are theirs to read: `usageScope`); the agent has it
 * in its acknowledgement. A call attributed to a message stays off the message itself: messages reach
 * the whole room, and what a call cost is not the room's to see.
 */
async function announceUsage(committed: Committed, workspaceId: string, usage: UsageView): Promise<void> {
  const admins = await getDb().member.findMany({ where: { workspaceId, role: { in: ["owner", "admin"] } }, select: { participantId: true } });
  const to = new Set(admins.map((a) => a.participantId));
  if (usage.ownerId) to.add(usage.ownerId);
  if (usage.requesterId) to.add(usage.requesterId);
  publish(committed, [...to].map(audience.participant), "usage:recorded", { usage });
}

// ---- prices ----

/** The workspace's price table (everyone in it may read it: the dashboard prices with it). */
export async function listPrices(actor: Actor) {
  const rows = await getDb().modelPrice.findMany({ where: { workspaceId: actor.workspaceId }, orderBy: { model: "asc" }, select: priceSelect });
  return rows.map(presentPrice);
}

export async function setPrice(actor: Actor, input: SetPriceInput) {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  await getDb().$transaction(async (tx) => {
    await tx.modelPrice.upsert({
      where: { workspaceId_model: { workspaceId: actor.workspaceId, model: input.model } },
      create: { id: newId(), workspaceId: actor.workspaceId, ...input },
      update: { ...input, updatedAt: new Date() },
    });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "price.changed",
      subjectType: "model",
      subjectId: input.model,
      data: input,
    });
  });
  return listPrices(actor);
}

export async function deletePrice(actor: Actor, model: string) {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  await getDb().$transaction(async (tx) => {
    await tx.modelPrice.deleteMany({ where: { workspaceId: actor.workspaceId, model } });
    await recordAudit(tx, { workspaceId: actor.workspaceId, actorId: actor.participantId, action: "price.deleted", subjectType: "model", subjectId: model });
  });
  return listPrices(actor);
}

/** Seeds a new workspace's price table. */
export async function seedPrices(tx: Tx, workspaceId: string): Promise<void> {
  await tx.modelPrice.createMany({ data: DEFAULT_PRICES.map((p) => ({ id: newId(), workspaceId, ...p })) });
}
