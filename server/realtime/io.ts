// The server's one Socket.IO instance, for everything in realtime/ that emits. Its own module so that
// fan-out (index.ts) and wake-ups (wakeups.ts), which index.ts calls, both read it without a cycle.
import type { Server } from "socket.io";
import type { ClientToServerEvents, ServerToClientEvents } from "@switchboard/sdk/contract";

export type Io = Server<ClientToServerEvents, ServerToClientEvents>;

// On globalThis: Next.js's bundle of the services shares the server's Socket.IO instance.
const holder = globalThis as unknown as { __switchboardIo?: Io | null };

export function bindRealtime(io: Io | null): void {
  holder.__switchboardIo = io;
}

export function getIo(): Io | null {
  return holder.__switchboardIo ?? null;
}

export type EventName = keyof ServerToClientEvents;
export type PayloadOf<E extends EventName> = Parameters<ServerToClientEvents[E]>[0];

/** Sends `event` to an audience on every process: what `publish` does once a change committed, and presence (never stored) does at once. */
export function emitTo<E extends EventName>(to: string | string[], event: E, payload: PayloadOf<E>): void {
  const server = getIo();
  if (!server) return;
  // Socket.IO's emit is typed per event; the generic form needs one cast.
  (server.to(to).emit as (e: E, p: PayloadOf<E>) => void)(event, payload);
}
