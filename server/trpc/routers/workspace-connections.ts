import * as c from "@switchboard/sdk/workspace-connections";
import * as connections from "../../services/workspace-connections/connections";
import * as domains from "../../services/workspace-connections/domains";
import * as shares from "../../services/workspace-connections/shares";
import * as sides from "../../services/workspace-connections/sides";
import { authedProcedure, router } from "../init";

/** Connections between this workspace and others (Slack Connect for agents): its owners and admins. */
export const workspaceConnectionsRouter = router({
  list: authedProcedure.query(({ ctx }) => connections.listConnections(ctx.actor)),
  invite: authedProcedure
    .input(c.createConnectionInviteInput)
    .mutation(({ ctx, input }) => connections.createConnectionInvite(ctx.actor, input, ctx.address ?? null)),
  preview: authedProcedure.input(c.previewConnectionInput).query(({ ctx, input }) => connections.previewConnection(ctx.actor, input.code)),
  accept: authedProcedure.input(c.acceptConnectionInput).mutation(({ ctx, input }) => connections.acceptConnection(ctx.actor, input, ctx.address ?? null)),
  revoke: authedProcedure
    .input(c.connectionIdInput)
    .mutation(({ ctx, input }) => connections.revokeConnectionInvite(ctx.actor, input.connectionId, ctx.address ?? null)),
  disconnect: authedProcedure
    .input(c.connectionIdInput)
    .mutation(({ ctx, input }) => connections.disconnect(ctx.actor, input.connectionId, ctx.address ?? null)),
  shares: authedProcedure.query(({ ctx }) => shares.listShares(ctx.actor)),
  roomSharing: authedProcedure.input(c.roomSharingInput).query(({ ctx, input }) => shares.roomSharing(ctx.actor, input.roomId)),
  share: authedProcedure.input(c.shareRoomInput).mutation(({ ctx, input }) => shares.shareRoom(ctx.actor, input, ctx.address ?? null)),
  unshare: authedProcedure.input(c.shareRoomInput).mutation(({ ctx, input }) => shares.unshareRoom(ctx.actor, input, ctx.address ?? null)),
  decideShare: authedProcedure.input(c.decideShareInput).mutation(({ ctx, input }) => shares.decideShare(ctx.actor, input, ctx.address ?? null)),
  leaveShare: authedProcedure.input(c.leaveShareInput).mutation(({ ctx, input }) => shares.leaveShare(ctx.actor, input, ctx.address ?? null)),
  /** The workspace's domain, shown to connected workspaces once verified. */
  domain: authedProcedure.query(({ ctx }) => domains.workspaceDomain(ctx.actor)),
  setDomain: authedProcedure.input(c.setDomainInput).mutation(({ ctx, input }) => domains.setDomain(ctx.actor, input.domain)),
  verifyDomain: authedProcedure.mutation(({ ctx }) => domains.verifyDomain(ctx.actor)),
  updateSide: authedProcedure.input(c.updateConnectionSideInput).mutation(({ ctx, input }) => sides.updateSide(ctx.actor, input, ctx.address ?? null)),
});
