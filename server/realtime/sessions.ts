// Acting on live connections, on every server process (through the adapter when there are several).
import { isHumanAdmin, type Actor } from "../policies/actor";
import { audience } from "./audiences";
import { getIo, type Io } from "./io";

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

/** Closes the sockets, on every process, that a person opened with this access token (revoked). */
export function disconnectAccessToken(participantId: string, tokenId: string): void {
  const io = getIo();
  if (!io) return;
  void io
    .in(audience.participant(participantId))
    .fetchSockets()
    .then((sockets) => {
      for (const socket of sockets) if (socket.data.tokenId === tokenId) socket.disconnect(true);
    })
    .catch(() => {});
}

/** Disconnects every socket of a participant on every process (the kill switch). */
export function disconnectParticipant(participantId: string): void {
  getIo()?.in(audience.participant(participantId)).disconnectSockets(true);
}

const RIGHTS_CHANGED = "switchboard:rights-changed";
type Reauthenticate = (actor: Actor) => Promise<Actor>;

// On globalThis, like the Socket.IO instance: Next.js's bundle of the services shares it.
const holder = globalThis as unknown as { __switchboardRightsAcrossProcesses?: boolean };

/**
 * A socket's rights are read at its handshake. When they change (a role, or an agent's owner's
 * role), every process reads them again for these participants' open sockets, at once; a socket
 * whose participant may no longer connect is closed. A handshake that read the old role and joins
 * its audiences just after this ran keeps the old rights until it reconnects (a window of a few ms).
 */
export function rightsChanged(participantIds: string[]): void {
  const io = getIo();
  if (!io || participantIds.length === 0) return;
  for (const listener of io.listeners(RIGHTS_CHANGED)) (listener as (ids: string[]) => void)(participantIds);
  if (holder.__switchboardRightsAcrossProcesses) io.serverSideEmit(RIGHTS_CHANGED, participantIds);
}

/** At boot: how this process reads a socket's rights again (the handshake's own way). */
export function onRightsChanged(io: Io, reauthenticate: Reauthenticate, opts: { acrossProcesses: boolean }): void {
  holder.__switchboardRightsAcrossProcesses = opts.acrossProcesses;
  io.on(RIGHTS_CHANGED, (participantIds: string[]) => {
    void io.local
      .in(participantIds.map(audience.participant))
      .fetchSockets()
      .then((sockets) =>
        Promise.all(
          sockets.map(async (socket) => {
            try {
              const actor = await reauthenticate(socket.data.actor as Actor);
              socket.data.actor = actor;
              // A role changed: an admin's audience follows it.
              if (isHumanAdmin(actor)) socket.join(audience.admins(actor.workspaceId));
              else socket.leave(audience.admins(actor.workspaceId));
            } catch {
              socket.disconnect(true); // gone, suspended, or unreadable: no stale rights stay open
            }
          }),
        ),
      )
      .catch((error: unknown) => console.error("rights refresh:", error));
  });
}
