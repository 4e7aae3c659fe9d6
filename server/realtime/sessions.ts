// Acting on live connections, on every server process (through the adapter when there are several).
import { audience, getIo } from "./index";

/** Closes the participant's sockets that authenticated with a key no longer in `activeKeyIds`. */
export function disconnectKeysOf(participantId: string, activeKeyIds: Set<string>): void {
  const io = getIo();
  if (!io) return;
  void io
    .in(audience.participant(participantId))
    .fetchSockets()
    .then((sockets) => {
      for (const socket of sockets) {
        const keyId = socket.data.keyId as string | undefined;
        if (keyId && !activeKeyIds.has(keyId)) socket.disconnect(true);
      }
    })
    .catch(() => {});
}

/** Disconnects every socket of a participant on every process (the kill switch). */
export function disconnectParticipant(participantId: string): void {
  getIo()?.in(audience.participant(participantId)).disconnectSockets(true);
}
