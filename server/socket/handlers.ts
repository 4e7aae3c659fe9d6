// Socket events: validate, call one service, ack. No rules live here.
import type { Socket } from "socket.io";
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
  workStatusInput,
  deleteMessageInput,
  editMessageInput,
  markReadInput,
  receiptInput,
  sendMessageInput,
  setDeliveryModeInput,
  syncInput,
  typingInput,
  type Ack,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from "../../sdk/contract";
import { AppError, toErrorShape } from "../errors";
import type { Actor } from "../policies";
import * as messages from "../services/messages";
import * as connections from "../services/connections";
import * as delivery from "../services/delivery";
import * as directory from "../services/directory";
import * as rooms from "../services/rooms";
import { sendMessage } from "../services/sending";
import { announceTyping } from "../services/typing";
import { reportUsage } from "../services/usage";

type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

function invalid(error: z.ZodError): AppError {
  const first = error.issues[0];
  return new AppError("INVALID_PAYLOAD", first ? `${first.path.join(".") || "payload"}: ${first.message}` : "Invalid payload");
}

/** An acked request: validate the payload, run the service, answer { ok, data } or { ok, error }. */
function request<S extends z.ZodType, R>(
  socket: AppSocket,
  event: string,
  schema: S,
  run: (actor: Actor, input: z.output<S>) => Promise<R>,
) {
  return async (payload: unknown, ack?: unknown) => {
    const reply = (r: Ack<R>) => {
      if (typeof ack === "function") ack(r);
      else if (!r.ok) socket.emit("error", { ...r.error, event });
    };
    const parsed = schema.safeParse(payload);
    if (!parsed.success) return reply({ ok: false, error: invalid(parsed.error).toShape() });
    try {
      reply({ ok: true, data: await run(socket.data.actor as Actor, parsed.data) });
    } catch (error) {
      reply({ ok: false, error: toErrorShape(error) });
    }
  };
}

const noInput = z.union([z.strictObject({}), z.undefined()]);

export function registerHandlers(socket: AppSocket): void {
  // Socket.IO's typed `on` cannot express "any payload, validated later"; handlers take unknown.
  const on = socket.on.bind(socket) as (event: string, fn: (...args: unknown[]) => void) => void;
  // Sends are stored in arrival order per room (sending.ts), so one socket's sends may overlap.
  on("message:send", request(socket, "message:send", sendMessageInput, sendMessage));
  on("message:edit", request(socket, "message:edit", editMessageInput, messages.editMessage));
  on("message:delete", request(socket, "message:delete", deleteMessageInput, messages.deleteMessage));
  on("room:sync", request(socket, "room:sync", syncInput, messages.sync));
  on("room:read", request(socket, "room:read", markReadInput, messages.markRead));
  on("room:typing", request(socket, "room:typing", typingInput, announceTyping));
  on("room:list", request(socket, "room:list", noInput, (actor) => delivery.memberships(actor)));
  on("room:mode", request(socket, "room:mode", setDeliveryModeInput, delivery.setDeliveryMode));
  on("delivery:ack", request(socket, "delivery:ack", deliveryAckInput, delivery.ackDelivery));
  on("message:receipt", request(socket, "message:receipt", receiptInput, delivery.recordReceipt));
  on("directory:search", request(socket, "directory:search", findParticipantsInput, directory.findParticipants));
  on("me:status", request(socket, "me:status", workStatusInput, directory.setWorkStatus));
  on("connection:request", request(socket, "connection:request", requestConnectionInput, connections.requestConnection));
  on("connection:respond", request(socket, "connection:respond", respondToConnectionInput, connections.respondToConnection));
  on("connection:cancel", request(socket, "connection:cancel", connectionIdInput, connections.cancelConnection));
  on("connection:revoke", request(socket, "connection:revoke", connectionIdInput, connections.revokeConnection));
  on("connection:block", request(socket, "connection:block", blockInput, connections.blockParticipant));
  on("connection:list", request(socket, "connection:list", listConnectionsInput, connections.listConnections));
  on("room:create", request(socket, "room:create", createRoomInput, rooms.createChannel));
  on("room:invite", request(socket, "room:invite", inviteToRoomInput, (actor, i) => rooms.inviteToRoom(actor, i.roomId, i.participantIds)));
  on("usage:report", request(socket, "usage:report", usageReportInput, reportUsage));
  on("room:dm", request(socket, "room:dm", openDirectInput, (actor, i) => rooms.openDirect(actor, i.participantIds)));

  const known = new Set(socket.eventNames());
  socket.onAny((event: unknown, ...args: unknown[]) => {
    if (typeof event === "string" && known.has(event)) return;
    const error = new AppError("UNKNOWN_EVENT", `Unknown event: ${String(event).slice(0, 64)}`).toShape();
    const ack = args.at(-1);
    if (typeof ack === "function") ack({ ok: false, error });
    else socket.emit("error", { ...error, event: String(event).slice(0, 64) });
  });
}
