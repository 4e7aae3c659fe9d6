import { TRPCError } from "@trpc/server";
import * as w from "@switchboard/sdk/workspaces";
import { AppError } from "../../errors";
import { countAccountRequest, MUTATIONS } from "../../services/governance/request-limits";
import * as joins from "../../services/identity/workspace-joins";
import { publicProcedure, router } from "../init";
import { trpcErrorOf } from "../errors";

/**
 * The signed-in account itself, whichever workspace the request acts in, or none: joining or creating a
 * workspace is done before the account has a person there. An access token acts in its own workspace
 * alone, so it cannot.
 */
const accountProcedure = publicProcedure
  .use(({ ctx, next }) => {
    if (ctx.accountId) return next({ ctx: { ...ctx, accountId: ctx.accountId } });
    if (ctx.actor) throw trpcErrorOf(new AppError("FORBIDDEN", "An access token acts in its own workspace only: sign in to join or create another"));
    throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first" });
  })
  .use(async ({ ctx, type, next }) => {
    if (type === "mutation") await countAccountRequest(MUTATIONS, ctx.accountId, "tRPC mutations");
    return next();
  });

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
