import * as a from "@switchboard/sdk/admin";
import * as accounts from "../../services/identity/accounts";
import * as invites from "../../services/identity/invites";
import * as limits from "../../services/governance/limits";
import * as workspaces from "../../services/identity/workspaces";
import { authedProcedure, publicProcedure, router } from "../init";

export const workspaceRouter = router({
  /** Who the session is: null when signed out (the pages redirect to sign-in). */
  me: publicProcedure.query(({ ctx }) => (ctx.actor ? workspaces.describeWorkspace(ctx.actor) : null)),
  firstRun: publicProcedure.query(() => accounts.isFirstRun()),
  /** Whether signing up without an invite creates a workspace (the first run, or WORKSPACE_SIGNUP=open), and whether it is the first. */
  signUpOptions: publicProcedure.query(() => accounts.signUpOptions()),
  limits: authedProcedure.query(({ ctx }) => limits.workspaceLimits(ctx.actor)),
  setLimits: authedProcedure.input(a.setWorkspaceLimitsInput).mutation(({ ctx, input }) => limits.setWorkspaceLimits(ctx.actor, input)),
  /** Whether I send without a message rate (the owner, having said so), and whether I may change it. */
  rateExemption: authedProcedure.query(({ ctx }) => limits.rateExemption(ctx.actor)),
  setRateExemption: authedProcedure.input(a.setRateExemptionInput).mutation(({ ctx, input }) => limits.setRateExemption(ctx.actor, input.exempt)),
  updateSettings: authedProcedure.input(a.updateSettingsInput).mutation(({ ctx, input }) => workspaces.updateSettings(ctx.actor, input)),
  signUp: publicProcedure.input(a.signUpInput).mutation(async ({ ctx, input }) => {
    const { workspaceId } = await accounts.signUp(input, ctx.address ?? null);
    return { workspaceId };
  }),
  participants: authedProcedure.input(a.listParticipantsInput).query(({ ctx, input }) => workspaces.listParticipants(ctx.actor, input)),
  createInvite: authedProcedure.input(a.createInviteInput).mutation(({ ctx, input }) => invites.createInvite(ctx.actor, input)),
  /** The workspace's invite links with their state (owners and admins). */
  invites: authedProcedure.query(({ ctx }) => invites.listInvites(ctx.actor)),
  revokeInvite: authedProcedure.input(a.revokeInviteInput).mutation(({ ctx, input }) => invites.revokeInvite(ctx.actor, input.inviteId)),
  invite: publicProcedure.input(a.describeInviteInput).query(({ input }) => invites.describeInvite(input.token)),
});
