// The kill switch, in one place for everyone who pulls it: an admin or owner (identity/agents.ts) and
// a budget that ran out (usage/budgets.ts). Suspension commits first; then every socket of the agent,
// on every server process, is disconnected, and its keys are refused from then on. Sends racing the
// suspension are decided by the participant row, which a send's transaction updates
// (messaging/sending.ts): the send commits first and the suspension waits for it, or the suspension
// commits first and the send is refused.
import type { AgentView } from "@switchboard/sdk/contract";
import { getDb, type Tx } from "../../db";
import { agentInclude, presentAgent } from "../../presenters/agent";
import { audience, publish } from "../../realtime";
import { disconnectParticipant } from "../../realtime/sessions";
import { transaction, type Committed } from "../../transaction";
import { recordAudit } from "./audit";

export interface StatusChange {
  workspaceId: string;
  agentId: string;
  status: "active" | "suspended";
  /** Who changed it; null when no person acted (a budget). */
  actorId: string | null;
  /** Recorded with the audit entry: the reason, what pulled the switch. */
  data?: Record<string, unknown>;
}

/**
 * Sets the agent's status, audited as `agent.suspended` or `agent.resumed`, and tells the workspace.
 * Returns the agent as presented, or null when it already had that status (nothing is recorded then).
 */
export async function setAgentStatus(change: StatusChange): Promise<AgentView | null> {
  const [changed, committed] = await transaction((tx) => writeAgentStatus(tx, change));
  return changed ? announceAgentStatus(committed, change) : null;
}

/**
 * The status change's writes, in the caller's transaction (with other writes of its own: removing a
 * remote A2A agent): true if the status changed. Once it commits, `announceAgentStatus` must follow.
 */
export async function writeAgentStatus(tx: Tx, change: StatusChange): Promise<boolean> {
  const { workspaceId, agentId, status, actorId, data } = change;
  const { count } = await tx.participant.updateMany({ where: { id: agentId, status: { not: status } }, data: { status } });
  if (count)
    await recordAudit(tx, {
      workspaceId,
      actorId,
      action: status === "suspended" ? "agent.suspended" : "agent.resumed",
      subjectType: "participant",
      subjectId: agentId,
      data,
    });
  return count > 0;
}

/** After a status change committed: a suspended agent's sockets are closed, and the workspace is told. */
export async function announceAgentStatus(committed: Committed, change: StatusChange): Promise<AgentView> {
  const { workspaceId, agentId, status } = change;
  if (status === "suspended") disconnectParticipant(agentId);
  const agent = presentAgent(await getDb().participant.findUniqueOrThrow({ where: { id: agentId }, include: agentInclude }));
  const { owner: _owner, keys: _keys, lastSeenAt: _seen, consentPolicy: _policy, ...participant } = agent;
  publish(committed, audience.workspace(workspaceId), "participant:updated", { participant });
  return agent;
}
