// Fan-out. Publishing takes the proof that what it announces committed (realtime/committed.ts: only a
// commit hands one out), so nothing is delivered that was not stored. With REDIS_URL the Socket.IO
// Redis adapter carries these to every process.
import type { MessageView } from "@switchboard/sdk/contract";
import { audience } from "./audiences";
import type { Committed } from "./committed";
import { emitTo, getIo, type EventName, type PayloadOf } from "./io";
import { roomWoke } from "./wakeups";
import { holdWrites } from "./write-hold";

export { audience } from "./audiences";
export { bindRealtime, getIo, type Io } from "./io";

export type { Committed } from "./committed";

/** Sends `event` to an audience, once the change it announces committed (`_committed`: the proof). */
export function publish<E extends EventName>(_committed: Committed, to: string | string[], event: E, payload: PayloadOf<E>): void {
  emitTo(to, event, payload);
}

/**
 * A room's new messages, committed together, in seq order: one `message:batch` event to the sockets
 * that take batches, and one `message:new` per message to the others. A single message is a
 * `message:new` to everyone.
 */
export function publishNewMessages(committed: Committed, roomId: string, messages: MessageView[]): void {
  const server = getIo();
  if (!server || messages.length === 0) return;
  roomWoke(committed, roomId, messages[messages.length - 1].seq);
  const room = audience.room(roomId);
  const single = (message: MessageView) => ({ roomId, seq: message.seq, message });
  if (messages.length === 1) return void server.to(room).emit("message:new", single(messages[0]));
  holdWrites(() => {
    server
      .to(room)
      .except(audience.singleReceivers)
      .emit("message:batch", { roomId, seq: messages[messages.length - 1].seq, messages });
    const others = server.to(room).except(audience.batchReceivers);
    for (const message of messages) others.emit("message:new", single(message));
  });
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
