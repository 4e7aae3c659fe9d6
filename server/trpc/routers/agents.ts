import * as a from "@switchboard/sdk/admin";
import { agentProfileInput } from "@switchboard/sdk/contract";
import * as a2aTasks from "../../services/a2a/tasks";
import * as agents from "../../services/identity/agents";
import { renameAgent } from "../../services/identity/profiles";
import * as approvals from "../../services/approvals/approvals";
import { setDeliveryMode } from "../../services/membership/members";
import * as limits from "../../services/governance/limits";
import { servedPackages } from "../../packages";
import { authedProcedure, router } from "../init";

export const agentsRouter = router({
  mine: authedProcedure.query(({ ctx }) => agents.listMyAgents(ctx.actor)),
  get: authedProcedure.input(a.agentIdInput).query(({ ctx, input }) => agents.getAgent(ctx.actor, input.agentId)),
  create: authedProcedure.input(agentProfileInput).mutation(({ ctx, input }) => agents.createAgentWithKey(ctx.actor, input)),
  rotateKey: authedProcedure.input(a.agentIdInput).mutation(({ ctx, input }) => agents.rotateKey(ctx.actor, input.agentId)),
  revokeKey: authedProcedure.input(a.revokeKeyInput).mutation(({ ctx, input }) => agents.revokeKey(ctx.actor, input.agentId, input.keyId)),
  createOnboardingToken: authedProcedure.input(a.createOnboardingTokenInput).mutation(({ ctx, input }) => agents.createOnboardingToken(ctx.actor, input)),
  /** The CLI and the SDK this server hands out (GET /install), for the commands people paste. */
  clientPackages: authedProcedure.query(() => servedPackages()),
  /** The viewer's onboarding tokens (`mine`), or everyone's (`workspace`, owners and admins), with their state. */
  onboardingTokens: authedProcedure.input(a.listOnboardingTokensInput).query(({ ctx, input }) => agents.listOnboardingTokens(ctx.actor, input.scope)),
  revokeOnboardingToken: authedProcedure
    .input(a.revokeOnboardingTokenInput)
    .mutation(({ ctx, input }) => agents.revokeOnboardingToken(ctx.actor, input.tokenId)),
  /** Every agent of the workspace, with owner, status, keys and last seen (owners and admins). */
  all: authedProcedure.query(({ ctx }) => agents.listAllAgents(ctx.actor)),
  /** The agent's display name (its owner, admins); its handle stays. */
  rename: authedProcedure.input(a.renameAgentInput).mutation(({ ctx, input }) => renameAgent(ctx.actor, input)),
  suspend: authedProcedure.input(a.suspendAgentInput).mutation(({ ctx, input }) => agents.suspendAgent(ctx.actor, input.agentId, input.reason)),
  resume: authedProcedure.input(a.agentIdInput).mutation(({ ctx, input }) => agents.resumeAgent(ctx.actor, input.agentId)),
  /** The agent's actions that wait for its owner's approval (dm.open, room.invite, connection.request). */
  approvals: authedProcedure.input(a.agentIdInput).query(({ ctx, input }) => approvals.approvalActionsOf(ctx.actor, input.agentId)),
  setApprovals: authedProcedure.input(a.setApprovalActionsInput).mutation(({ ctx, input }) => approvals.setApprovalActions(ctx.actor, input)),
  setLimits: authedProcedure.input(a.setAgentLimitsInput).mutation(({ ctx, input }) => limits.setAgentLimits(ctx.actor, input)),
  setConsentPolicy: authedProcedure
    .input(a.setConsentPolicyInput)
    .mutation(({ ctx, input }) => agents.setConsentPolicy(ctx.actor, input.agentId, input.policy)),
  /** Serve the agent over A2A at /a2a/<handle>, or stop (bridges/a2a/inbound). */
  setA2aServed: authedProcedure.input(a.setA2aServedInput).mutation(({ ctx, input }) => a2aTasks.setA2aServed(ctx.actor, input.agentId, input.served)),
  /** A member's (or its owner's) delivery mode in a room. */
  setDeliveryMode: authedProcedure.input(a.setMemberDeliveryModeInput).mutation(({ ctx, input }) => setDeliveryMode(ctx.actor, input)),
});
