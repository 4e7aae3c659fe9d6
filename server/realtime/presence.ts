// Who is online, by connected sockets. Volatile by design: it is not stored, and a restart forgets it.
// Counted per process; with several processes the counts are merged through the adapter (fetchSockets).
import { audience } from "./audiences";
import { emitTo, getIo } from "./io";

const sockets = new Map<string, number>();

export function connected(participantId: string, workspaceId: string): void {
  const n = (sockets.get(participantId) ?? 0) + 1;
  sockets.set(participantId, n);
  if (n === 1) emitTo(audience.workspace(workspaceId), "presence:update", { participantId, online: true });
}

export function disconnected(participantId: string, workspaceId: string): void {
  const n = (sockets.get(participantId) ?? 1) - 1;
  if (n > 0) {
    sockets.set(participantId, n);
    return;
  }
  sockets.delete(participantId);
  emitTo(audience.workspace(workspaceId), "presence:update", { participantId, online: false });
}

/** Online participants among `ids`, across every server process. */
export async function onlineAmong(ids: string[]): Promise<Set<string>> {
  const io = getIo();
  if (!io || ids.length === 0) return new Set(ids.filter((id) => sockets.has(id)));
  const all = await io.in(ids.map(audience.participant)).fetchSockets();
  return new Set(all.map((s) => s.data.participantId as string));
}
