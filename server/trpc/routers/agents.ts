import { z } from "zod";
import { createOnboardingTokenInput, setAgentLimitsInput } from "../../../sdk/admin";
import { agentProfileInput, consentPolicies, setDeliveryModeInput } from "../../../sdk/contract";
import * as a2aTasks from "../../services/a2a/tasks";
import * as agents from "../../services/identity/agents";
import * as approvals from "../../services/approvals/approvals";
import { setDeliveryMode } from "../../services/membership/members";
import * as limits from "../../services/governance/limits";
import { authedProcedure, router } from "../init";

const agentId = z.strictObject({ agentId: z.string().min(1).max(64) });

export const agentsRouter = router({
  mine: authedProcedure.query(({ ctx }) => agents.listMyAgents(ctx.actor)),
  get: authedProcedure.input(agentId).query(({ ctx, input }) => agents.getAgent(ctx.actor, input.agentId)),
  create: authedProcedure.input(agentProfileInput).mutation(({ ctx, input }) => agents.createAgentWithKey(ctx.actor, input)),
  rotateKey: authedProcedure.input(agentId).mutation(({ ctx, input }) => agents.rotateKey(ctx.actor, input.agentId)),
  revokeKey: authedProcedure
    .input(agentId.extend({ keyId: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => agents.revokeKey(ctx.actor, input.agentId, input.keyId)),
  createOnboardingToken: authedProcedure
    .input(createOnboardingTokenInput)
    .mutation(({ ctx, input }) => agents.createOnboardingToken(ctx.actor, input)),
  /** The viewer's onboarding tokens (`mine`), or everyone's (`workspace`, owners and admins), with their state. */
  onboardingTokens: authedProcedure
    .input(z.strictObject({ scope: z.enum(["mine", "workspace"]) }).optional())
    .query(({ ctx, input }) => agents.listOnboardingTokens(ctx.actor, input?.scope ?? "mine")),
  revokeOnboardingToken: authedProcedure
    .input(z.strictObject({ tokenId: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => agents.revokeOnboardingToken(ctx.actor, input.tokenId)),
  /** Every agent of the workspace, with owner, status, keys and last seen (owners and admins). */
  all: authedProcedure.query(({ ctx }) => agents.listAllAgents(ctx.actor)),
  suspend: authedProcedure
    .input(agentId.extend({ reason: z.string().trim().max(300).default("") }))
    .mutation(({ ctx, input }) => agents.suspendAgent(ctx.actor, input.agentId, input.reason)),
  resume: authedProcedure.input(agentId).mutation(({ ctx, input }) => agents.resumeAgent(ctx.actor, input.agentId)),
  /** The agent's actions that wait for its owner's approval (dm.open, room.invite, connection.request). */
  approvals: authedProcedure.input(agentId).query(({ ctx, input }) => approvals.approvalActionsOf(ctx.actor, input.agentId)),
  setApprovals: authedProcedure.input(approvals.approvalActionsInput).mutation(({ ctx, input }) => approvals.setApprovalActions(ctx.actor, input)),
  setLimits: authedProcedure
    .input(setAgentLimitsInput)
    .mutation(({ ctx, input }) => limits.setAgentLimits(ctx.actor, input)),
  setConsentPolicy: authedProcedure
    .input(agentId.extend({ policy: z.enum(consentPolicies) }))
    .mutation(({ ctx, input }) => agents.setConsentPolicy(ctx.actor, input.agentId, input.policy)),
  /** Serve the agent over A2A at /a2a/<handle>, or stop (bridges/a2a/inbound). */
  setA2aServed: authedProcedure
    .input(agentId.extend({ served: z.boolean() }))
    .mutation(({ ctx, input }) => a2aTasks.setA2aServed(ctx.actor, input.agentId, input.served)),
  /** A member's (or its owner's) delivery mode in a room. */
  setDeliveryMode: authedProcedure
    .input(setDeliveryModeInput.extend({ participantId: z.string().min(1).max(64).optional() }))
    .mutation(({ ctx, input }) => setDeliveryMode(ctx.actor, input)),
});
