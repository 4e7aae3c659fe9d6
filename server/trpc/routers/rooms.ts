import { createChannelInput, inviteToRoomInput, openDirectInput, roomIdInput, updateRoomInput } from "@switchboard/sdk/contract";
import * as rooms from "../../services/rooms/rooms";
import { updateRoom } from "../../services/rooms/settings";
import { authedProcedure, router } from "../init";

export const roomsRouter = router({
  mine: authedProcedure.query(({ ctx }) => rooms.listMine(ctx.actor)),
  browse: authedProcedure.query(({ ctx }) => rooms.browseChannels(ctx.actor)),
  get: authedProcedure.input(roomIdInput).query(({ ctx, input }) => rooms.getRoom(ctx.actor, input.roomId)),
  members: authedProcedure.input(roomIdInput).query(({ ctx, input }) => rooms.listMembers(ctx.actor, input.roomId)),
  createChannel: authedProcedure.input(createChannelInput).mutation(({ ctx, input }) => rooms.createChannel(ctx.actor, input)),
  join: authedProcedure.input(roomIdInput).mutation(({ ctx, input }) => rooms.joinRoom(ctx.actor, input.roomId)),
  /** Renames a channel, sets its topic, archives or unarchives it. */
  update: authedProcedure.input(updateRoomInput).mutation(({ ctx, input }) => updateRoom(ctx.actor, input)),
  leave: authedProcedure.input(roomIdInput).mutation(({ ctx, input }) => rooms.leaveRoom(ctx.actor, input.roomId)),
  invite: authedProcedure.input(inviteToRoomInput).mutation(({ ctx, input }) => rooms.inviteToRoom(ctx.actor, input.roomId, input.participantIds)),
  openDirect: authedProcedure.input(openDirectInput).mutation(({ ctx, input }) => rooms.openDirect(ctx.actor, input.participantIds)),
});
