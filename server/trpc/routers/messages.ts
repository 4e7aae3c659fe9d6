import { deleteMessageInput, editMessageInput, historyInput, markReadInput, sendMessageInput, syncInput, threadInput } from "@switchboard/sdk/contract";
import { markUnreadInput, pinInput, pinnedInput, reactInput } from "@switchboard/sdk/reactions";
import * as messages from "../../services/messaging/messages";
import * as reactions from "../../services/messaging/reactions";
import { react } from "../../services/questions/reaction-answers";
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
  markUnread: authedProcedure.input(markUnreadInput).mutation(({ ctx, input }) => reactions.markUnread(ctx.actor, input)),
  react: authedProcedure.input(reactInput).mutation(({ ctx, input }) => react(ctx.actor, input)),
  pin: authedProcedure.input(pinInput).mutation(({ ctx, input }) => reactions.pinMessage(ctx.actor, input)),
  pinned: authedProcedure.input(pinnedInput).query(({ ctx, input }) => reactions.pinnedMessages(ctx.actor, input)),
});
