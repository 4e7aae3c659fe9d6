import { z } from "zod";
import { createInviteInput, setWorkspaceLimitsInput } from "../../../sdk/admin";
import { handleSchema } from "../../../sdk/contract";
import * as accounts from "../../services/identity/accounts";
import * as invites from "../../services/identity/invites";
import * as limits from "../../services/governance/limits";
import * as workspaces from "../../services/identity/workspaces";
import { authedProcedure, publicProcedure, router } from "../init";

export const signUpInput = z.strictObject({
  email: z.string().trim().email().max(254),
  password: z.string().min(8, "at least 8 characters").max(200),
  displayName: z.string().trim().min(1).max(80),
  handle: handleSchema,
  workspaceName: z.string().trim().min(1).max(80).optional(),
  inviteToken: z.string().min(1).max(200).optional(),
});

export const workspaceRouter = router({
  /** Who the session is: null when signed out (the pages redirect to sign-in). */
  me: publicProcedure.query(({ ctx }) => (ctx.actor ? workspaces.describeWorkspace(ctx.actor) : null)),
  firstRun: publicProcedure.query(() => accounts.isFirstRun()),
  limits: authedProcedure.query(({ ctx }) => limits.workspaceLimits(ctx.actor)),
  setLimits: authedProcedure
    .input(setWorkspaceLimitsInput)
    .mutation(({ ctx, input }) => limits.setWorkspaceLimits(ctx.actor, input)),
  /** Whether I send without a message rate (the owner, having said so), and whether I may change it. */
  rateExemption: authedProcedure.query(({ ctx }) => limits.rateExemption(ctx.actor)),
  setRateExemption: authedProcedure
    .input(z.strictObject({ exempt: z.boolean() }))
    .mutation(({ ctx, input }) => limits.setRateExemption(ctx.actor, input.exempt)),
  updateSettings: authedProcedure
    .input(z.strictObject({ name: z.string().trim().min(1).max(80).optional(), peopleTalkFreely: z.boolean().optional() }))
    .mutation(({ ctx, input }) => workspaces.updateSettings(ctx.actor, input)),
  signUp: publicProcedure.input(signUpInput).mutation(async ({ ctx, input }) => {
    const { workspaceId } = await accounts.signUp(input, ctx.address ?? null);
    return { workspaceId };
  }),
  participants: authedProcedure
    .input(z.strictObject({ query: z.string().max(100).optional(), limit: z.number().int().min(1).max(200).optional() }).optional())
    .query(({ ctx, input }) => workspaces.listParticipants(ctx.actor, input)),
  createInvite: authedProcedure
    .input(createInviteInput)
    .mutation(({ ctx, input }) => invites.createInvite(ctx.actor, input)),
  /** The workspace's invite links with their state (owners and admins). */
  invites: authedProcedure.query(({ ctx }) => invites.listInvites(ctx.actor)),
  revokeInvite: authedProcedure
    .input(z.strictObject({ inviteId: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => invites.revokeInvite(ctx.actor, input.inviteId)),
  invite: publicProcedure
    .input(z.strictObject({ token: z.string().min(1).max(200) }))
    .query(({ input }) => invites.describeInvite(input.token)),
});
