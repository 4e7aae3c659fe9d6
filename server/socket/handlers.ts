// Socket events: validate, call one service, ack. No rules live here (requests.ts answers them).
import { z } from "zod";
import {
  blockInput,
  connectionIdInput,
  createRoomInput,
  deliveryAckInput,
  findParticipantsInput,
  inviteToRoomInput,
  listConnectionsInput,
  openDirectInput,
  usageReportInput,
  requestConnectionInput,
  respondToConnectionInput,
  roomIdInput,
  updateRoomInput,
  workStatusInput,
  deleteMessageInput,
  editMessageInput,
  markReadInput,
  receiptInput,
  sendMessageInput,
  setDeliveryModeInput,
  syncInput,
  typingInput,
} from "@switchboard/sdk/contract";
import { bindingIdInput, bindingKeyInput, claimBindingInput, listBindingsInput, updateBindingInput } from "@switchboard/sdk/bindings";
import { answerQuestionInput, askQuestionInput, listQuestionsInput, questionIdInput } from "@switchboard/sdk/questions";
import { AppError } from "../errors";
import * as bindings from "../services/work/bindings";
import * as work from "../services/work/work";
import * as workStatus from "../services/work/status";
import { linkWorkInput, reportFilesInput, reportTasksInput, setWorkStatusInput } from "@switchboard/sdk/work";
import { endTurnInput, startTurnInput, turnStepsInput } from "@switchboard/sdk/turns";
import * as turns from "../services/work/turns";
import { searchMessagesInput } from "@switchboard/sdk/search";
import { fileIdInput, uploadFileInput } from "@switchboard/sdk/files";
import * as files from "../services/files/files";
import { markUnreadInput, pinInput, pinnedInput, reactInput } from "@switchboard/sdk/reactions";
import * as reactions from "../services/messaging/reactions";
import { react } from "../services/questions/reaction-answers";
import * as search from "../services/search/search";
import * as messages from "../services/messaging/messages";
import * as connections from "../services/consent/connections";
import * as delivery from "../services/messaging/delivery";
import { setDeliveryMode } from "../services/membership/members";
import * as directory from "../services/consent/directory";
import { EVENT_LIMITS } from "../services/governance/request-limits";
import * as questions from "../services/questions/questions";
import * as rooms from "../services/rooms/rooms";
import { updateRoom } from "../services/rooms/settings";
import { setProfileStatusInput } from "@switchboard/sdk/profiles";
import { setProfileStatus } from "../services/identity/profiles";
import { sendMessage } from "../services/messaging/sending";
import { announceTyping } from "../services/messaging/typing";
import { reportUsage } from "../services/usage/usage";
import { requestsOf, type AppSocket } from "./requests";
import { registerToolCalls } from "./tool-calls";

/** Events that take no input: nothing, or `{}`. */
const noInput = z.union([z.strictObject({}), z.undefined()]);

export function registerHandlers(socket: AppSocket): void {
  const on = requestsOf(socket);
  // Sends are stored in arrival order per room (sending.ts), so one socket's sends may overlap.
  on("message:send", sendMessageInput, sendMessage, { queued: true });
  on("message:edit", editMessageInput, messages.editMessage);
  on("message:delete", deleteMessageInput, messages.deleteMessage);
  on("room:sync", syncInput, messages.sync, { limit: EVENT_LIMITS["room:sync"] });
  on("room:read", markReadInput, messages.markRead);
  on("room:unread", markUnreadInput, reactions.markUnread);
  on("message:react", reactInput, react, { limit: EVENT_LIMITS["message:react"] });
  on("message:pin", pinInput, reactions.pinMessage, { limit: EVENT_LIMITS["message:pin"] });
  on("room:pins", pinnedInput, reactions.pinnedMessages);
  on("room:typing", typingInput, announceTyping, { limit: EVENT_LIMITS["room:typing"] });
  on("room:list", noInput, (actor) => delivery.memberships(actor));
  on("room:mode", setDeliveryModeInput, setDeliveryMode);
  on("room:browse", noInput, (actor) => rooms.browseChannels(actor));
  on("room:join", roomIdInput, (actor, i) => rooms.joinRoom(actor, i.roomId));
  on("room:leave", roomIdInput, async (actor, i) => {
    await rooms.leaveRoom(actor, i.roomId);
    return { roomId: i.roomId };
  });
  on("delivery:ack", deliveryAckInput, delivery.ackDelivery);
  on("message:receipt", receiptInput, delivery.recordReceipt);
  on("directory:search", findParticipantsInput, directory.findParticipants, { limit: EVENT_LIMITS["directory:search"] });
  on("search:messages", searchMessagesInput, search.searchMessages, { limit: EVENT_LIMITS["search:messages"] });
  on("file:upload", uploadFileInput, files.uploadSmallFile, { limit: EVENT_LIMITS["file:upload"] });
  on("file:get", fileIdInput, files.fileWithContent, { limit: EVENT_LIMITS["file:get"] });
  on("me:status", workStatusInput, directory.setWorkStatus);
  on("me:profile", setProfileStatusInput, setProfileStatus, { limit: EVENT_LIMITS["me:profile"] });
  on("connection:request", requestConnectionInput, connections.requestConnection, { limit: EVENT_LIMITS["connection:request"] });
  on("connection:respond", respondToConnectionInput, connections.respondToConnection);
  on("connection:cancel", connectionIdInput, connections.cancelConnection);
  on("connection:revoke", connectionIdInput, connections.revokeConnection);
  on("connection:block", blockInput, connections.blockParticipant);
  on("connection:list", listConnectionsInput, connections.listConnections);
  on("room:create", createRoomInput, rooms.createChannel);
  on("room:invite", inviteToRoomInput, (actor, i) => rooms.inviteToRoom(actor, i.roomId, i.participantIds));
  on("room:update", updateRoomInput, updateRoom);
  on("usage:report", usageReportInput, reportUsage, { limit: EVENT_LIMITS["usage:report"] });
  on("room:dm", openDirectInput, (actor, i) => rooms.openDirect(actor, i.participantIds));
  registerToolCalls(on);
  on("question:ask", askQuestionInput, questions.askQuestion, { limit: EVENT_LIMITS["question:ask"] });
  on("question:answer", answerQuestionInput, questions.answerQuestion);
  on("question:get", questionIdInput, questions.getQuestion);
  on("question:cancel", questionIdInput, questions.cancelQuestion);
  on("question:list", listQuestionsInput, questions.listQuestions);
  on("binding:claim", claimBindingInput, bindings.claimBinding);
  on("binding:update", updateBindingInput, bindings.updateBinding);
  on("binding:get", bindingKeyInput, bindings.getBinding);
  on("binding:list", listBindingsInput, bindings.listMyBindings);
  on("binding:close", bindingIdInput, bindings.closeBinding);
  on("work:status", setWorkStatusInput, workStatus.setStatus, { limit: EVENT_LIMITS["work:status"] });
  on("work:tasks", reportTasksInput, work.reportTasks, { limit: EVENT_LIMITS["work:tasks"] });
  on("work:files", reportFilesInput, work.reportFiles, { limit: EVENT_LIMITS["work:files"] });
  on("work:link", linkWorkInput, work.linkWork, { limit: EVENT_LIMITS["work:link"] });
  on("turn:start", startTurnInput, turns.startTurn, { limit: EVENT_LIMITS["turn:start"] });
  on("turn:steps", turnStepsInput, turns.reportSteps, { limit: EVENT_LIMITS["turn:steps"] });
  on("turn:end", endTurnInput, turns.endTurn);

  const known = new Set(socket.eventNames());
  socket.onAny((event: unknown, ...args: unknown[]) => {
    if (typeof event === "string" && known.has(event)) return;
    const error = new AppError("UNKNOWN_EVENT", `Unknown event: ${String(event).slice(0, 64)}`).toShape();
    const ack = args.at(-1);
    if (typeof ack === "function") ack({ ok: false, error });
    else socket.emit("error", { ...error, event: String(event).slice(0, 64) });
  });
}
