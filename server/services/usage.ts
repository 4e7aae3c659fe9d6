// Usage and cost: agents report model calls; the server prices what they did not, attributes each call
// to the agent, its owner, the room, the message and the task, and aggregates in the database.
import type { UsageView } from "../../sdk/contract";
import { getDb, type Db, type Prisma, type Tx } from "../db";
import { AppError, isUniqueViolation } from "../errors";
import { newId } from "../ids";
import { authorize, type Actor } from "../policies";
import { audience, publish } from "../realtime";
import { recordAudit } from "./audit";
import { checkBudgets } from "./budgets";
import { messageInclude, presentMessage } from "../presenters/message";
import { loadRoomFor } from "./room-access";
import { addToRollups, type RollupSource } from "./usage-rollups";

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

export function presentUsage(r: Prisma.UsageRecordGetPayload<object>): UsageView {
  return {
    id: r.id,
    reportId: r.reportId,
    agentId: r.agentId,
    ownerId: r.ownerId,
    roomId: r.roomId,
    messageId: r.messageId,
    taskId: r.taskId,
    model: r.model,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    cachedTokens: r.cachedTokens,
    costUsd: r.costUsd,
    costSource: r.costSource as UsageView["costSource"],
    occurredAt: r.occurredAt.toISOString(),
  };
}

async function price(workspaceId: string, report: UsageReport): Promise<{ costUsd: number; costSource: UsageView["costSource"] }> {
  if (report.costUsd !== undefined) return { costUsd: report.costUsd, costSource: "reported" };
  const row = await getDb().modelPrice.findUnique({ where: { workspaceId_model: { workspaceId, model: report.model } } });
  if (!row) return { costUsd: 0, costSource: "unpriced" };
  const uncached = Math.max(0, report.inputTokens - report.cachedTokens);
  const cost = (uncached * row.inputPerMTok + report.cachedTokens * row.cachedPerMTok + report.outputTokens * row.outputPerMTok) / 1_000_000;
  return { costUsd: Math.round(cost * 1e9) / 1e9, costSource: "priced" };
}

/** An agent reports one model call. Idempotent by (agent, reportId): a repeat returns the original. */
export async function reportUsage(actor: Actor, report: UsageReport): Promise<UsageView> {
  authorize(actor, "usage.report", undefined);
  const db = getDb();
  const existing = await db.usageRecord.findUnique({ where: { agentId_reportId: { agentId: actor.participantId, reportId: report.reportId } } });
  if (existing) return presentUsage(existing);

  let roomId = report.roomId ?? null;
  let message: { id: string; roomId: string; authorId: string; data: Prisma.JsonValue } | null = null;
  if (report.messageId) {
    message = await db.message.findUnique({ where: { id: report.messageId }, select: { id: true, roomId: true, authorId: true, data: true } });
    if (!message) throw new AppError("MESSAGE_NOT_FOUND", "No such message");
    if (roomId && roomId !== message.roomId) throw new AppError("INVALID_PAYLOAD", "The message is not in that room");
    roomId = message.roomId;
  }
  if (roomId) authorize(actor, "room.cursor", await loadRoomFor(actor, roomId));

  const agent = await db.participant.findUniqueOrThrow({ where: { id: actor.participantId }, select: { ownerId: true } });
  const occurredAt = report.occurredAt ? new Date(report.occurredAt) : new Date();
  const { costUsd, costSource } = await price(actor.workspaceId, report);
  let row;
  try {
    row = await storeUsageRecord(db, {
      id: newId(),
      workspaceId: actor.workspaceId,
      agentId: actor.participantId,
      reportId: report.reportId,
      ownerId: agent.ownerId,
      roomId,
      messageId: message?.id ?? null,
      taskId: report.taskId ?? null,
      model: report.model,
      inputTokens: report.inputTokens,
      outputTokens: report.outputTokens,
      cachedTokens: report.cachedTokens,
      costUsd,
      costSource,
      occurredAt,
      day: dayOf(occurredAt),
      month: monthOf(occurredAt),
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return presentUsage((await db.usageRecord.findUniqueOrThrow({ where: { agentId_reportId: { agentId: actor.participantId, reportId: report.reportId } } }))!);
  }
  const usage = presentUsage(row);
  if (message && message.authorId === actor.participantId) await attachToMessage(message.id, usage);
  await announceUsage(actor.workspaceId, usage);
  // After the answer: the report is stored either way, and a budget that this report exhausts
  // suspends the agent (closing its socket) only once the agent has its acknowledgement.
  setImmediate(() => {
    checkBudgets(actor.workspaceId, actor.participantId, agent.ownerId).catch((error: unknown) => console.error("budgets:", error));
  });
  return usage;
}

/**
 * Inserts a record and adds it to the usage rollups in one transaction: a duplicate report id fails
 * on the record's unique key and rolls its rollup increments back with it, so rollups stay exact.
 */
export async function storeUsageRecord(db: Db, data: Prisma.UsageRecordUncheckedCreateInput & RollupSource) {
  return db.$transaction(async (tx) => {
    const row = await tx.usageRecord.create({ data });
    await addToRollups(tx, data);
    return row;
  });
}

/** The agent said this call produced its message: the message carries the usage, live. */
async function attachToMessage(messageId: string, usage: UsageView): Promise<void> {
  const db = getDb();
  const current = await db.message.findUniqueOrThrow({ where: { id: messageId }, select: { data: true } });
  const data = (current.data && typeof current.data === "object" && !Array.isArray(current.data) ? current.data : {}) as Record<string, unknown>;
  const prior = (data.usage as { inputTokens: number; outputTokens: number; costUsd: number } | undefined) ?? { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const next = {
    inputTokens: prior.inputTokens + usage.inputTokens,
    outputTokens: prior.outputTokens + usage.outputTokens,
    costUsd: Math.round((prior.costUsd + usage.costUsd) * 1e9) / 1e9,
  };
  const row = await db.message.update({ where: { id: messageId }, data: { data: { ...data, usage: next } }, include: messageInclude });
  const view = presentMessage(row);
  publish(audience.room(view.roomId), "message:updated", { roomId: view.roomId, seq: view.seq, message: view });
}

/** Usage goes live to the agent's owner and to the workspace's admins. */
async function announceUsage(workspaceId: string, usage: UsageView): Promise<void> {
  const admins = await getDb().member.findMany({ where: { workspaceId, role: { in: ["owner", "admin"] } }, select: { participantId: true } });
  const to = new Set(admins.map((a) => a.participantId));
  if (usage.ownerId) to.add(usage.ownerId);
  publish([...to].map(audience.participant), "usage:recorded", { usage });
}

// ---- prices ----

export async function listPrices(actor: Actor) {
  return getDb().modelPrice.findMany({
    where: { workspaceId: actor.workspaceId },
    orderBy: { model: "asc" },
    select: { model: true, inputPerMTok: true, outputPerMTok: true, cachedPerMTok: true, updatedAt: true },
  });
}

export async function setPrice(actor: Actor, input: { model: string; inputPerMTok: number; outputPerMTok: number; cachedPerMTok: number }) {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  await getDb().$transaction(async (tx) => {
    await tx.modelPrice.upsert({
      where: { workspaceId_model: { workspaceId: actor.workspaceId, model: input.model } },
      create: { id: newId(), workspaceId: actor.workspaceId, ...input },
      update: { ...input, updatedAt: new Date() },
    });
    await recordAudit(tx, { workspaceId: actor.workspaceId, actorId: actor.participantId, action: "price.changed", subjectType: "model", subjectId: input.model, data: input });
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
