// "An agent was resumed in a room" (services/membership/pauses.ts), for the processes holding its
// sockets: each hands the room's waiting messages to its own sockets of that agent (socket/index.ts).
// Published after commit; with several processes, carried to the others over the Socket.IO adapter's
// server-side events, as the rights of a socket are (sessions.ts).
import { audience } from "./audiences";
import type { Committed } from "./committed";
import { getIo, type Io } from "./io";

const RESUMED = "switchboard:agent-resumed";

// On globalThis, like the Socket.IO instance: Next.js's bundle of the services shares it.
const holder = globalThis as unknown as { __switchboardResumesAcrossProcesses?: boolean };

export function agentResumed(_committed: Committed, agentId: string, roomId: string): void {
  const io = getIo();
  if (!io) return;
  for (const listener of io.listeners(RESUMED)) (listener as (agentId: string, roomId: string) => void)(agentId, roomId);
  if (holder.__switchboardResumesAcrossProcesses) io.serverSideEmit(RESUMED, agentId, roomId);
}

/** At boot: what this process does for each of its sockets of an agent resumed in a room. */
export function onAgentResumed<S>(io: Io, resume: (socket: S, roomId: string) => Promise<void>, opts: { acrossProcesses: boolean }): void {
  holder.__switchboardResumesAcrossProcesses = opts.acrossProcesses;
  io.on(RESUMED, (agentId: string, roomId: string) => {
    void io.local
      .in(audience.participant(agentId))
      .fetchSockets()
      // This process's own sockets: real ones, not the remote stand-ins fetchSockets gives for others.
      .then((sockets) => Promise.all(sockets.map((s) => resume(s as unknown as S, roomId))))
      .catch((error: unknown) => console.error("resume:", error));
  });
}
