// Fan-out. Services call `publish` only after their transaction committed, so nothing is delivered
// that was not stored. With REDIS_URL the Socket.IO Redis adapter carries these to every process.
import type { MessageView, ServerToClientEvents } from "../../sdk/contract";
import { audience } from "./audiences";
import { getIo } from "./io";
import { roomWoke } from "./wakeups";

export { audience } from "./audiences";
export { bindRealtime, getIo, type Io } from "./io";

type EventName = keyof ServerToClientEvents;
type PayloadOf<E extends EventName> = Parameters<ServerToClientEvents[E]>[0];

export function publish<E extends EventName>(to: string | string[], event: E, payload: PayloadOf<E>): void {
  const server = getIo();
  if (!server) return;
  // Socket.IO's emit is typed per event; the generic form needs one cast.
  (server.to(to).emit as (e: E, p: PayloadOf<E>) => void)(event, payload);
}

/**
 * A room's new messages, committed together, in seq order: one `message:batch` event to the sockets
 * that take batches, and one `message:new` per message to the others. A single message is a
 * `message:new` to everyone.
 */
export function publishNewMessages(roomId: string, messages: MessageView[]): void {
  const server = getIo();
  if (!server || messages.length === 0) return;
  roomWoke(roomId, messages[messages.length - 1].seq);
  const room = audience.room(roomId);
  const single = (message: MessageView) => ({ roomId, seq: message.seq, message });
  if (messages.length === 1) return void server.to(room).emit("message:new", single(messages[0]));
  server.to(room).except(audience.singleReceivers).emit("message:batch", { roomId, seq: messages[messages.length - 1].seq, messages });
  const others = server.to(room).except(audience.batchReceivers);
  for (const message of messages) others.emit("message:new", single(message));
}

/** For what may be dropped under load (typing): never for room history. */
export function publishVolatile<E extends EventName>(to: string, event: E, payload: PayloadOf<E>): void {
  const server = getIo();
  if (!server) return;
  (server.to(to).volatile.emit as (e: E, p: PayloadOf<E>) => void)(event, payload);
}

/** Subscribe every connected socket of these participants to a room's events (all processes). */
export function subscribeToRoom(participantIds: string[], roomId: string): void {
  const server = getIo();
  if (!server || participantIds.length === 0) return;
  server.in(participantIds.map(audience.participant)).socketsJoin(audience.room(roomId));
}

export function unsubscribeFromRoom(participantIds: string[], roomId: string): void {
  const server = getIo();
  if (!server || participantIds.length === 0) return;
  server.in(participantIds.map(audience.participant)).socketsLeave(audience.room(roomId));
}
