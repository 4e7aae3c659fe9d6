// Budgets per agent and per person (the agents they own), per day or month, in dollars or tokens.
// At 80% the owner and admins are told; at 100% the agents are suspended (the kill switch) and it is
// audited. Each transition happens once per period, however many reports race across it.
import type { BudgetView } from "../../sdk/contract";
import { getDb, type Prisma } from "../db";
import { AppError } from "../errors";
import { newId } from "../ids";
import { authorize, type Actor } from "../policies";
import { audience, publish } from "../realtime";
import { suspendForBudget } from "./agents";
import { recordAudit } from "./audit";

export const WARN_AT = 0.8;

type BudgetRow = Prisma.BudgetGetPayload<object>;

const periodKey = (period: string, now = new Date()) => (period === "day" ? now.toISOString().slice(0, 10) : now.toISOString().slice(0, 7));

async function spent(b: BudgetRow, key: string): Promise<number> {
  const where: Prisma.UsageRecordWhereInput = {
    workspaceId: b.workspaceId,
    ...(b.subjectType === "agent" ? { agentId: b.subjectId } : { ownerId: b.subjectId }),
    ...(b.period === "day" ? { day: key } : { month: key }),
  };
  const sum = await getDb().usageRecord.aggregate({ where, _sum: { costUsd: true, inputTokens: true, outputTokens: true } });
  return b.unit === "usd" ? (sum._sum.costUsd ?? 0) : (sum._sum.inputTokens ?? 0) + (sum._sum.outputTokens ?? 0);
}

function present(b: BudgetRow, spentNow: number): BudgetView {
  return {
    id: b.id,
    subjectType: b.subjectType as BudgetView["subjectType"],
    subjectId: b.subjectId,
    period: b.period as BudgetView["period"],
    unit: b.unit as BudgetView["unit"],
    amount: b.amount,
    spent: Math.round(spentNow * 1e6) / 1e6,
    state: b.state as BudgetView["state"],
  };
}

/** Who hears about a budget: the subject's owner (or the person), and the workspace's admins. */
async function notify(b: BudgetRow, view: BudgetView, transition: "warned" | "exceeded" | "ok"): Promise<void> {
  const db = getDb();
  const admins = await db.member.findMany({ where: { workspaceId: b.workspaceId, role: { in: ["owner", "admin"] } }, select: { participantId: true } });
  const to = new Set(admins.map((a) => a.participantId));
  if (b.subjectType === "person") to.add(b.subjectId);
  else {
    const agent = await db.participant.findUnique({ where: { id: b.subjectId }, select: { ownerId: true } });
    if (agent?.ownerId) to.add(agent.ownerId);
  }
  publish([...to].map(audience.participant), "budget:updated", { budget: view, transition });
}

/** Moves a budget to the state its spending calls for; returns the transition this call made, if any. */
async function settle(b: BudgetRow): Promise<void> {
  const db = getDb();
  const key = periodKey(b.period);
  if (b.periodKey !== key) {
    await db.budget.updateMany({ where: { id: b.id, periodKey: b.periodKey }, data: { periodKey: key, state: "ok", updatedAt: new Date() } });
  }
  const now = await spent(b, key);
  const target = now >= b.amount ? "exceeded" : now >= WARN_AT * b.amount ? "warned" : "ok";
  if (target === "ok") return;
  const from = target === "exceeded" ? ["ok", "warned"] : ["ok"];
  const { count } = await db.budget.updateMany({ where: { id: b.id, periodKey: key, state: { in: from } }, data: { state: target, updatedAt: new Date() } });
  if (count === 0) return; // another report made this transition
  const fresh = await db.budget.findUniqueOrThrow({ where: { id: b.id } });
  await db.$transaction((tx) =>
    recordAudit(tx, {
      workspaceId: b.workspaceId,
      actorId: null,
      action: target === "exceeded" ? "budget.exceeded" : "budget.warned",
      subjectType: b.subjectType === "agent" ? "participant" : "person",
      subjectId: b.subjectId,
      data: { budgetId: b.id, period: b.period, unit: b.unit, amount: b.amount, spent: now },
    }),
  );
  if (target === "exceeded") {
    const agents =
      b.subjectType === "agent"
        ? [b.subjectId]
        : (await db.participant.findMany({ where: { ownerId: b.subjectId, kind: "agent", status: "active" }, select: { id: true } })).map((a) => a.id);
    await suspendForBudget(b.workspaceId, agents, `${b.period === "day" ? "daily" : "monthly"} budget of ${b.amount} ${b.unit} reached`);
  }
  await notify(b, present(fresh, now), target);
}

/** After a usage report: the agent's budgets and its owner's. */
export async function checkBudgets(workspaceId: string, agentId: string, ownerId: string | null): Promise<void> {
  const budgets = await getDb().budget.findMany({
    where: {
      workspaceId,
      OR: [{ subjectType: "agent", subjectId: agentId }, ...(ownerId ? [{ subjectType: "person", subjectId: ownerId }] : [])],
    },
  });
  for (const b of budgets) await settle(b);
}

export async function listBudgets(actor: Actor, subjectId?: string): Promise<BudgetView[]> {
  authorize(actor, "workspace.read", { workspaceId: actor.workspaceId });
  const db = getDb();
  const mine = (await db.participant.findMany({ where: { ownerId: actor.participantId }, select: { id: true } })).map((a) => a.id);
  const visible: Prisma.BudgetWhereInput =
    actor.role === "owner" || actor.role === "admin" ? {} : { OR: [{ subjectId: actor.participantId }, { subjectId: { in: mine } }] };
  const rows = await db.budget.findMany({ where: { workspaceId: actor.workspaceId, ...(subjectId ? { subjectId } : {}), ...visible }, orderBy: { createdAt: "asc" } });
  return Promise.all(
    rows.map(async (b) => {
      const key = periodKey(b.period);
      const fresh = b.periodKey === key ? b : { ...b, state: "ok" };
      return present(fresh, await spent(b, key));
    }),
  );
}

/** Sets (or raises, or lowers) a budget. Raising it above what was spent clears its state. */
export async function setBudget(
  actor: Actor,
  input: { subjectType: "agent" | "person"; subjectId: string; period: "day" | "month"; unit: "usd" | "tokens"; amount: number },
): Promise<BudgetView> {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  const db = getDb();
  const subject = await db.participant.findUnique({ where: { id: input.subjectId }, select: { workspaceId: true, kind: true } });
  if (!subject || subject.workspaceId !== actor.workspaceId || subject.kind !== (input.subjectType === "agent" ? "agent" : "human")) {
    throw new AppError("PARTICIPANT_NOT_FOUND", `No such ${input.subjectType}`);
  }
  const key = { subjectType_subjectId_period_unit: { subjectType: input.subjectType, subjectId: input.subjectId, period: input.period, unit: input.unit } };
  const row = await db.$transaction(async (tx) => {
    const saved = await tx.budget.upsert({
      where: key,
      create: { id: newId(), workspaceId: actor.workspaceId, ...input, periodKey: periodKey(input.period) },
      update: { amount: input.amount, updatedAt: new Date() },
    });
    await recordAudit(tx, { workspaceId: actor.workspaceId, actorId: actor.participantId, action: "budget.changed", subjectType: input.subjectType === "agent" ? "participant" : "person", subjectId: input.subjectId, data: input });
    return saved;
  });
  // Re-evaluate from scratch: a raised budget starts over at ok, then settles to where spending is.
  await db.budget.update({ where: { id: row.id }, data: { state: "ok", periodKey: periodKey(row.period) } });
  const fresh = await db.budget.findUniqueOrThrow({ where: { id: row.id } });
  await settle(fresh);
  const final = await db.budget.findUniqueOrThrow({ where: { id: row.id } });
  const view = present(final, await spent(final, periodKey(final.period)));
  if (final.state === "ok") await notify(final, view, "ok");
  return view;
}
