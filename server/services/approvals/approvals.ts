// Actions an agent may take only with its owner's approval. The owner chooses them per agent
// (`approvalActions`, and a daily spend past which its usage reports wait: `spendGate`); when the
// agent tries one, the action is refused with APPROVAL_REQUIRED and a
// question (an approval, for the owner, in their direct conversation with the agent) asks the owner.
// Once the owner approves, the same action tried again goes through, once; declined or expired, it
// stays refused, and trying again asks again. The SDK waits and retries by itself.
//
// The action is decided where it always is (its service's own checks run first, and again when it
// is retried), so an approval never lets through what the rules would refuse.
import { GATED_ACTIONS, type GatedAction, type SetApprovalActionsInput } from "@switchboard/sdk/admin";
import { getDb } from "../../db";
import { AppError } from "../../errors";
import { newId, sha256 } from "../../ids";
import { authorize, type Actor } from "../../policies";
import { canonicalJson } from "../governance/audit";
import { askQuestion } from "../questions/questions";
import { openDirectRoom } from "../membership/direct";

export interface ApprovalSettings {
  actions: GatedAction[];
  spendUsdPerDay: number | null;
}

/** How long the owner has to decide before the approval expires (and the action stays refused). */
const APPROVAL_SECONDS = 24 * 3600;

/**
 * Lets `action` (with these arguments) through if the acting agent's owner does not require approval
 * for it, or approved exactly this; otherwise throws APPROVAL_REQUIRED with the question's id.
 * `reaches`: the participants the action reaches (an agent always reaches its owner freely);
 * `describe` words the action for the owner ("open a direct conversation with @bob").
 */
export async function gate(
  actor: Actor,
  action: GatedAction,
  args: { reaches: string[]; [more: string]: unknown },
  describe: () => Promise<string>,
): Promise<void> {
  if (actor.kind !== "agent") return;
  const db = getDb();
  const agent = await db.participant.findUnique({ where: { id: actor.participantId }, select: { ownerId: true, approvalActions: true } });
  if (!agent?.ownerId || !((agent.approvalActions as string[] | null) ?? []).includes(action)) return;
  if (args.reaches.every((id) => id === agent.ownerId)) return;
  const key = sha256(`${action} ${canonicalJson(args)}`);

  // An approval for exactly this, not used yet: this attempt uses it (once, even if two race).
  const approvals = await db.question.findMany({
    where: { askerId: actor.participantId, gateKey: key, status: { in: ["open", "answered"] }, gateUsedAt: null },
    orderBy: { createdAt: "asc" },
  });
  for (const q of approvals.filter((q) => q.status === "answered" && (q.answer as { approved?: boolean } | null)?.approved === true)) {
    const used = await db.question.updateMany({ where: { id: q.id, gateUsedAt: null }, data: { gateUsedAt: new Date() } });
    if (used.count === 1) return;
  }
  const pending = approvals.find((q) => q.status === "open");
  if (pending) throw approvalRequired(pending.id);

  throw approvalRequired(await askOwner(actor, agent.ownerId, `May I ${await describe()}?`, { action, key }));
}

/** An approval question to the agent's owner, in their direct conversation; returns its id. */
async function askOwner(actor: Actor, ownerId: string, prompt: string, gateOf: { action: string; key: string }): Promise<string> {
  const dm = await openDirectRoom(actor, [ownerId]);
  const asked = await askQuestion(
    actor,
    { roomId: dm.id, clientMsgId: `approval:${newId()}`, prompt, kind: "approval", audience: { type: "owner" }, expiresInSeconds: APPROVAL_SECONDS },
    { gate: gateOf },
  );
  return asked.id;
}

/**
 * Spending past the owner's daily threshold: once the agent's recorded cost for the report's UTC day
 * passes it, its usage reports (recorded all the same: the spend happened) are answered with
 * APPROVAL_REQUIRED until the owner decides. Approved, it holds for the rest of that day; declined
 * (or expired), every report of that day is answered APPROVAL_DECLINED, so the agent stops.
 */
export async function spendGate(actor: Actor, day: string): Promise<void> {
  if (actor.kind !== "agent") return;
  const db = getDb();
  const agent = await db.participant.findUnique({ where: { id: actor.participantId }, select: { ownerId: true, approvalSpendUsd: true } });
  if (!agent?.ownerId || agent.approvalSpendUsd === null) return;
  const spent = (await db.usageRecord.aggregate({ where: { agentId: actor.participantId, day }, _sum: { costUsd: true } }))._sum.costUsd ?? 0;
  if (spent <= agent.approvalSpendUsd) return;
  const key = sha256(`spend.day ${day}`);
  const asked = await db.question.findMany({
    where: { askerId: actor.participantId, gateKey: key },
    orderBy: { createdAt: "asc" },
    select: { id: true, status: true, answer: true },
  });
  if (asked.some((q) => q.status === "answered" && (q.answer as { approved?: boolean } | null)?.approved === true)) return;
  const decided = asked.find((q) => q.status === "answered" || q.status === "expired");
  if (decided)
    throw new AppError("APPROVAL_DECLINED", `Your owner did not approve spending more than $${agent.approvalSpendUsd} on ${day}`, { questionId: decided.id });
  const open = asked.find((q) => q.status === "open");
  const money = (usd: number) => `$${usd.toFixed(2)}`;
  throw approvalRequired(
    open?.id ??
      (await askOwner(actor, agent.ownerId, `May I spend more than ${money(agent.approvalSpendUsd)} today (${day})? I have spent ${money(spent)}.`, {
        action: "spend.day",
        key,
      })),
  );
}

/** "@a, @b": how a description names participants. */
export async function handlesOf(ids: string[]): Promise<string> {
  const rows = await getDb().participant.findMany({ where: { id: { in: ids } }, select: { handle: true }, orderBy: { handle: "asc" } });
  return rows.map((r) => `@${r.handle}`).join(", ");
}

function approvalRequired(questionId: string): AppError {
  return new AppError("APPROVAL_REQUIRED", "This action waits for your owner's approval; try it again once they approve", { questionId });
}

/** The owner (or an admin) chooses which actions of the agent wait for approval. */
export async function setApprovalActions(actor: Actor, input: SetApprovalActionsInput): Promise<ApprovalSettings> {
  const db = getDb();
  const agent = await db.participant.findUnique({ where: { id: input.agentId }, select: { workspaceId: true, ownerId: true, kind: true } });
  if (!agent || agent.kind !== "agent" || agent.workspaceId !== actor.workspaceId) throw new AppError("PARTICIPANT_NOT_FOUND", "No such agent");
  authorize(actor, "agent.manage", agent);
  const actions = GATED_ACTIONS.filter((a) => input.actions.includes(a));
  await db.participant.update({ where: { id: input.agentId }, data: { approvalActions: actions, approvalSpendUsd: input.spendUsdPerDay } });
  return { actions, spendUsdPerDay: input.spendUsdPerDay };
}

export async function approvalActionsOf(actor: Actor, agentId: string): Promise<ApprovalSettings> {
  const agent = await getDb().participant.findUnique({
    where: { id: agentId },
    select: { workspaceId: true, ownerId: true, kind: true, approvalActions: true, approvalSpendUsd: true },
  });
  if (!agent || agent.kind !== "agent" || agent.workspaceId !== actor.workspaceId) throw new AppError("PARTICIPANT_NOT_FOUND", "No such agent");
  authorize(actor, "agent.manage", agent);
  return { actions: ((agent.approvalActions as GatedAction[] | null) ?? []).filter((a) => GATED_ACTIONS.includes(a)), spendUsdPerDay: agent.approvalSpendUsd };
}
