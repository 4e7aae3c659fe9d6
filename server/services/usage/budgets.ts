// Budgets per agent and per person (the agents they own), per day or month, in dollars or tokens.
// At 80% the owner and admins are told; at 100% the agents are suspended (the kill switch) and it is
// audited. Each transition happens once per period, however many reports race across it. What was
// spent comes from the daily usage rollups, so checking a budget reads at most a month of rows.
import type { BudgetView } from "@switchboard/sdk/contract";
import type { SetBudgetInput } from "@switchboard/sdk/usage";
import { presentBudget } from "../../presenters/budget";
import { getDb, type Prisma } from "../../db";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { authorize, can, type Actor } from "../../policies";
import { audience, publish, type Committed } from "../../realtime";
import { transaction } from "../../transaction";
import { setAgentStatus } from "../governance/suspension";
import { recordAudit } from "../governance/audit";
import { lastDayOf, sumRollups } from "./rollups";

export const WARN_AT = 0.8;

type BudgetRow = Prisma.BudgetGetPayload<object>;

const periodKey = (period: string, now = new Date()) => (period === "day" ? now.toISOString().slice(0, 10) : now.toISOString().slice(0, 7));

/** The budget as it stands in the current period: a state from an earlier period no longer holds. */
const current = (b: BudgetRow): BudgetRow => (b.periodKey === periodKey(b.period) ? b : { ...b, state: "ok" });

async function spent(b: BudgetRow, key: string): Promise<number> {
  // A person's budget covers the agents they own: their usage is attributed to them as owner.
  const filters = b.subjectType === "agent" ? { agentId: b.subjectId } : { ownerId: b.subjectId };
  const range = b.period === "day" ? { from: key, to: key } : { from: `${key}-01`, to: lastDayOf(key) };
  const [sum] = await sumRollups({ workspaceId: b.workspaceId, ...range, filters });
  return b.unit === "usd" ? sum.costUsd : sum.inputTokens + sum.outputTokens;
}

/** Who hears about a budget: the subject's owner (or the person), and the workspace's admins. */
async function notify(committed: Committed, b: BudgetRow, view: BudgetView, transition: "warned" | "exceeded" | "ok"): Promise<void> {
  const db = getDb();
  const admins = await db.member.findMany({ where: { workspaceId: b.workspaceId, role: { in: ["owner", "admin"] } }, select: { participantId: true } });
  const to = new Set(admins.map((a) => a.participantId));
  if (b.subjectType === "person") to.add(b.subjectId);
  else {
    const agent = await db.participant.findUnique({ where: { id: b.subjectId }, select: { ownerId: true } });
    if (agent?.ownerId) to.add(agent.ownerId);
  }
  publish(committed, [...to].map(audience.participant), "budget:updated", { budget: view, transition });
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
  const from: BudgetView["state"][] = target === "exceeded" ? ["ok", "warned"] : ["ok"];
  const { count } = await db.budget.updateMany({ where: { id: b.id, periodKey: key, state: { in: from } }, data: { state: target, updatedAt: new Date() } });
  if (count === 0) return; // another report made this transition
  const fresh = await db.budget.findUniqueOrThrow({ where: { id: b.id } });
  const [, committed] = await transaction((tx) =>
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
    const reason = `${b.period === "day" ? "daily" : "monthly"} budget of ${b.amount} ${b.unit} reached`;
    for (const agentId of agents)
      await setAgentStatus({ workspaceId: b.workspaceId, agentId, status: "suspended", actorId: null, data: { reason, by: "budget" } });
  }
  await notify(committed, b, presentBudget(fresh, now), target);
}

/** The budgets that count an agent's usage: its own, and its owner's (a person's budget covers their agents). */
const applyingTo = (workspaceId: string, agentId: string, ownerId: string | null): Prisma.BudgetWhereInput => ({
  workspaceId,
  OR: [{ subjectType: "agent", subjectId: agentId }, ...(ownerId ? [{ subjectType: "person" as const, subjectId: ownerId }] : [])],
});

/** After a usage report: the agent's budgets and its owner's. */
export async function checkBudgets(workspaceId: string, agentId: string, ownerId: string | null): Promise<void> {
  const budgets = await getDb().budget.findMany({ where: applyingTo(workspaceId, agentId, ownerId) });
  for (const b of budgets) await settle(b);
}

/**
 * When the current period of the budgets that apply to an agent began (the latest start: a day
 * budget's today, else a month budget's first day), or null without a budget. Usage reported as
 * happening before it would escape them.
 */
export async function budgetPeriodStart(workspaceId: string, agentId: string, ownerId: string | null, now = new Date()): Promise<Date | null> {
  const budgets = await getDb().budget.findMany({ where: applyingTo(workspaceId, agentId, ownerId), select: { period: true } });
  if (budgets.length === 0) return null;
  const key = periodKey(budgets.some((b) => b.period === "day") ? "day" : "month", now);
  return new Date(key.length === 7 ? `${key}-01T00:00:00.000Z` : `${key}T00:00:00.000Z`);
}

/** The budgets the actor may see: the policy decides on each subject (a person, or an agent and its owner). */
async function readableBy(actor: Actor, budgets: BudgetRow[]): Promise<BudgetRow[]> {
  const subjects = await getDb().participant.findMany({
    where: { id: { in: [...new Set(budgets.map((b) => b.subjectId))] } },
    select: { id: true, ownerId: true },
  });
  const owners = new Map(subjects.map((p) => [p.id, p.ownerId]));
  return budgets.filter((b) =>
    can(actor, "budget.read", { workspaceId: b.workspaceId, subject: { id: b.subjectId, ownerId: owners.get(b.subjectId) ?? null } }),
  );
}

const withSpending = (b: BudgetRow): Promise<BudgetView> => spent(b, periodKey(b.period)).then((now) => presentBudget(current(b), now));

export async function listBudgets(actor: Actor, subjectId?: string): Promise<BudgetView[]> {
  const rows = await getDb().budget.findMany({ where: { workspaceId: actor.workspaceId, ...(subjectId ? { subjectId } : {}) }, orderBy: { createdAt: "asc" } });
  return Promise.all((await readableBy(actor, rows)).map(withSpending));
}

/** Where a participant stands against the budget closest to its limit among those that apply to it. */
export interface BudgetState {
  participantId: string;
  budget: BudgetView;
  /** spent / amount; above 1 once over the limit. */
  used: number;
  /** warned from 80%, exceeded from 100% (or once the budget suspended its agents this period). */
  level: BudgetView["state"];
  /** How many budgets apply: an agent's own and its owner's. */
  count: number;
}

const LEVELS: BudgetView["state"][] = ["ok", "warned", "exceeded"];

function standing(participantId: string, budget: BudgetView, count: number): BudgetState {
  const used = budget.amount > 0 ? budget.spent / budget.amount : budget.spent > 0 ? 1 : 0;
  const byUse = used >= 1 ? "exceeded" : used >= WARN_AT ? "warned" : "ok";
  const level = LEVELS[Math.max(LEVELS.indexOf(budget.state), LEVELS.indexOf(byUse))];
  return { participantId, budget, used: Math.round(used * 1e4) / 1e4, level, count };
}

/**
 * Budget states for the participants shown on a page (an agent list, a room's members). An agent is
 * limited by its own budgets and by its owner's; a person by their own. Participants whose budgets
 * the actor may not see (budget.read) are left out, as are those without a budget.
 */
export async function budgetStates(actor: Actor, participantIds: string[]): Promise<BudgetState[]> {
  const db = getDb();
  const participants = await db.participant.findMany({
    where: { workspaceId: actor.workspaceId, id: { in: [...new Set(participantIds)] } },
    select: { id: true, kind: true, ownerId: true },
  });
  const shown = participants.filter((p) => can(actor, "budget.read", { workspaceId: actor.workspaceId, subject: p }));
  if (shown.length === 0) return [];
  const agents = shown.filter((p) => p.kind === "agent");
  const people = new Set([...shown.filter((p) => p.kind === "human").map((p) => p.id), ...agents.flatMap((a) => (a.ownerId ? [a.ownerId] : []))]);
  const budgets = await db.budget.findMany({
    where: {
      workspaceId: actor.workspaceId,
      OR: [
        { subjectType: "agent", subjectId: { in: agents.map((a) => a.id) } },
        { subjectType: "person", subjectId: { in: [...people] } },
      ],
    },
  });
  const views = new Map(await Promise.all(budgets.map(async (b) => [b.id, await withSpending(b)] as const)));
  return shown.flatMap((p) => {
    const applying = budgets.filter((b) =>
      p.kind === "agent"
        ? (b.subjectType === "agent" && b.subjectId === p.id) || (b.subjectType === "person" && b.subjectId === p.ownerId)
        : b.subjectType === "person" && b.subjectId === p.id,
    );
    const states = applying.map((b) => standing(p.id, views.get(b.id)!, applying.length));
    states.sort((a, b) => LEVELS.indexOf(b.level) - LEVELS.indexOf(a.level) || b.used - a.used);
    return states.slice(0, 1);
  });
}

/**
 * Removes a budget (owners and admins, like setting one), audited. Agents it suspended stay
 * suspended until someone resumes them. Listeners hear `budget:updated` with transition "ok": the
 * budget no longer limits anyone, so its banners go and its lists and pills refetch.
 */
export async function deleteBudget(actor: Actor, budgetId: string): Promise<{ id: string }> {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  const db = getDb();
  const b = await db.budget.findUnique({ where: { id: budgetId } });
  if (!b || b.workspaceId !== actor.workspaceId) throw new AppError("NOT_FOUND", "No such budget");
  const [, committed] = await transaction(async (tx) => {
    const { count } = await tx.budget.deleteMany({ where: { id: b.id } });
    if (count === 0) throw new AppError("NOT_FOUND", "No such budget"); // deleted meanwhile
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "budget.deleted",
      subjectType: b.subjectType === "agent" ? "participant" : "person",
      subjectId: b.subjectId,
      data: { budgetId: b.id, period: b.period, unit: b.unit, amount: b.amount },
    });
  });
  await notify(committed, b, await withSpending(b), "ok");
  return { id: b.id };
}

/** Sets (or raises, or lowers) a budget. Raising it above what was spent clears its state. */
export async function setBudget(actor: Actor, input: SetBudgetInput): Promise<BudgetView> {
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
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "budget.changed",
      subjectType: input.subjectType === "agent" ? "participant" : "person",
      subjectId: input.subjectId,
      data: input,
    });
    return saved;
  });
  // Re-evaluate from scratch: a raised budget starts over at ok, then settles to where spending is.
  const [, committed] = await transaction((tx) => tx.budget.update({ where: { id: row.id }, data: { state: "ok", periodKey: periodKey(row.period) } }));
  const fresh = await db.budget.findUniqueOrThrow({ where: { id: row.id } });
  await settle(fresh);
  const final = await db.budget.findUniqueOrThrow({ where: { id: row.id } });
  const view = await withSpending(final);
  if (final.state === "ok") await notify(committed, final, view, "ok");
  return view;
}
