import { deleteMessageInput, editMessageInput, historyInput, markReadInput, sendMessageInput, syncInput, threadInput } from "@switchboard/sdk/contract";
import * as messages from "../../services/messaging/messages";
import { sendMessage } from "../../services/messaging/sending";
import { authedProcedure, router } from "../init";

export const messagesRouter = router({
  send: authedProcedure.input(sendMessageInput).mutation(({ ctx, input }) => sendMessage(ctx.actor, input)),
  edit: authedProcedure.input(editMessageInput).mutation(({ ctx, input }) => messages.editMessage(ctx.actor, input)),
  delete: authedProcedure.input(deleteMessageInput).mutation(({ ctx, input }) => messages.deleteMessage(ctx.actor, input)),
  history: authedProcedure.input(historyInput).query(({ ctx, input }) => messages.history(ctx.actor, input)),
  thread: authedProcedure.input(threadInput).query(({ ctx, input }) => messages.thread(ctx.actor, input)),
  sync: authedProcedure.input(syncInput).query(({ ctx, input }) => messages.sync(ctx.actor, input)),
  markRead: authedProcedure.input(markReadInput).mutation(({ ctx, input }) => messages.markRead(ctx.actor, input)),
});
