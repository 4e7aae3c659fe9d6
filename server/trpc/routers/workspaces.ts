import { TRPCError } from "@trpc/server";
import * as w from "@switchboard/sdk/workspaces";
import * as joins from "../../services/identity/workspace-joins";
import { accountProcedure, publicProcedure, router } from "../init";

/** The workspaces a person belongs to, and joining or creating another. */
export const workspacesRouter = router({
  /** The account's workspaces in the order it joined them, with unread counts; with an access token, the token's workspace alone. */
  mine: publicProcedure.query(({ ctx }) => {
    if (ctx.accountId) return joins.workspacesOf(ctx.accountId);
    if (ctx.actor) return joins.workspaceOfActor(ctx.actor);
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first" });
  }),
  /** An invite link as the signed-in account sees it: where it leads, and whether the account is there already. */
  invite: accountProcedure.input(w.inviteForAccountInput).query(({ ctx, input }) => joins.inviteForAccount(ctx.accountId, input.token)),
  create: accountProcedure.input(w.createWorkspaceInput).mutation(({ ctx, input }) => joins.createAnotherWorkspace(ctx.accountId, input, ctx.address ?? null)),
  joinByInvite: accountProcedure.input(w.joinByInviteInput).mutation(({ ctx, input }) => joins.joinByInvite(ctx.accountId, input, ctx.address ?? null)),
});
