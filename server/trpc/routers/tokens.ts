import { accessTokenIdInput, createAccessTokenInput } from "@switchboard/sdk/contract";
import * as accessTokens from "../../services/identity/access-tokens";
import { authedProcedure, router } from "../init";

/** The viewer's own personal access tokens. */
export const tokensRouter = router({
  list: authedProcedure.query(({ ctx }) => accessTokens.listAccessTokens(ctx.actor)),
  /** `{ token, accessToken }`: the token is in this answer and nowhere else. */
  create: authedProcedure.input(createAccessTokenInput).mutation(({ ctx, input }) => accessTokens.createAccessToken(ctx.actor, input, ctx.address ?? null)),
  revoke: authedProcedure.input(accessTokenIdInput).mutation(({ ctx, input }) => accessTokens.revokeAccessToken(ctx.actor, input.tokenId, ctx.address ?? null)),
});
