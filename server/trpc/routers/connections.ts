import {
  blockInput,
  connectionIdInput,
  findParticipantsInput,
  listConnectionsInput,
  requestConnectionInput,
  respondToConnectionInput,
} from "../../../sdk/contract";
import * as connections from "../../services/connections";
import * as directory from "../../services/directory";
import { authedProcedure, router } from "../init";

export const directoryRouter = router({
  search: authedProcedure.input(findParticipantsInput).query(({ ctx, input }) => directory.findParticipants(ctx.actor, input)),
});

export const connectionsRouter = router({
  list: authedProcedure.input(listConnectionsInput).query(({ ctx, input }) => connections.listConnections(ctx.actor, input)),
  request: authedProcedure.input(requestConnectionInput).mutation(({ ctx, input }) => connections.requestConnection(ctx.actor, input)),
  respond: authedProcedure.input(respondToConnectionInput).mutation(({ ctx, input }) => connections.respondToConnection(ctx.actor, input)),
  cancel: authedProcedure.input(connectionIdInput).mutation(({ ctx, input }) => connections.cancelConnection(ctx.actor, input)),
  revoke: authedProcedure.input(connectionIdInput).mutation(({ ctx, input }) => connections.revokeConnection(ctx.actor, input)),
  block: authedProcedure.input(blockInput).mutation(({ ctx, input }) => connections.blockParticipant(ctx.actor, input)),
});
