import {
  blockInput,
  connectionIdInput,
  findParticipantsInput,
  listConnectionsInput,
  requestConnectionInput,
  respondToConnectionInput,
} from "@switchboard/sdk/contract";
import { z } from "zod";
import * as connections from "../../services/consent/connections";
import * as directory from "../../services/consent/directory";
import { authedProcedure, router } from "../init";

/** tRPC's infinite queries add the page `direction`; pages only go forward, to older connections. */
const listConnectionsPageInput = listConnectionsInput.extend({ direction: z.literal("forward").optional() });

export const directoryRouter = router({
  search: authedProcedure.input(findParticipantsInput).query(({ ctx, input }) => directory.findParticipants(ctx.actor, input)),
});

export const connectionsRouter = router({
  list: authedProcedure
    .input(listConnectionsPageInput)
    .query(({ ctx, input: { direction: _forward, ...input } }) => connections.listConnections(ctx.actor, input)),
  request: authedProcedure.input(requestConnectionInput).mutation(({ ctx, input }) => connections.requestConnection(ctx.actor, input)),
  respond: authedProcedure.input(respondToConnectionInput).mutation(({ ctx, input }) => connections.respondToConnection(ctx.actor, input)),
  cancel: authedProcedure.input(connectionIdInput).mutation(({ ctx, input }) => connections.cancelConnection(ctx.actor, input)),
  revoke: authedProcedure.input(connectionIdInput).mutation(({ ctx, input }) => connections.revokeConnection(ctx.actor, input)),
  block: authedProcedure.input(blockInput).mutation(({ ctx, input }) => connections.blockParticipant(ctx.actor, input)),
});
