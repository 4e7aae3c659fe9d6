// "A room has new messages", for listeners inside the server that are not sockets: the MCP bridge's
// waits, resource subscriptions and channel pushes. Published where new messages are fanned out (after
// commit); with several processes, carried to the others over the Socket.IO adapter's server-side
// events. A wake-up carries no message: the listener reads what it may see from the store.
import { EventEmitter } from "node:events";
import type { Committed } from "./committed";
import { getIo, type Io } from "./io";

const ROOM_WAKE = "switchboard:room-wake";
const ROOM_CHANGE = "switchboard:room-change";
const changeKey = (roomId: string) => `change:${roomId}`;

// On globalThis, like the Socket.IO instance: Next.js's bundle of the services shares it.
const holder = globalThis as unknown as { __switchboardWakeups?: { local: EventEmitter; acrossProcesses: boolean } };
const state = (holder.__switchboardWakeups ??= { local: new EventEmitter().setMaxListeners(0), acrossProcesses: false });

/** New messages up to `seq` were committed in `roomId`. */
export function roomWoke(_committed: Committed, roomId: string, seq: number): void {
  state.local.emit(roomId, seq);
  if (state.acrossProcesses) getIo()?.serverSideEmit(ROOM_WAKE, roomId, seq);
}

/**
 * Something other than new messages changed in `roomId`: an agent's receipt, an edited message. For
 * listeners that read a state back from the store (the A2A bridge's tasks); message listeners ignore it.
 */
export function roomChanged(_committed: Committed, roomId: string): void {
  state.local.emit(changeKey(roomId));
  if (state.acrossProcesses) getIo()?.serverSideEmit(ROOM_CHANGE, roomId);
}

/** Calls `listener` on each new message or other change in `roomId`; returns the unsubscribe. */
export function onRoomActivity(roomId: string, listener: () => void): () => void {
  state.local.on(roomId, listener);
  state.local.on(changeKey(roomId), listener);
  return () => {
    state.local.off(roomId, listener);
    state.local.off(changeKey(roomId), listener);
  };
}

/** Calls `listener` on each wake-up of any of `roomIds`; returns the unsubscribe. */
export function onRoomWake(roomIds: Iterable<string>, listener: (roomId: string, seq: number) => void): () => void {
  const subscribed = new Map<string, (seq: number) => void>();
  for (const roomId of roomIds) {
    const fn = (seq: number) => listener(roomId, seq);
    subscribed.set(roomId, fn);
    state.local.on(roomId, fn);
  }
  return () => {
    for (const [roomId, fn] of subscribed) state.local.off(roomId, fn);
  };
}

/** At boot: wake-ups from the other processes reach this one's listeners. */
export function receiveWakeups(io: Io, opts: { acrossProcesses: boolean }): void {
  state.acrossProcesses = opts.acrossProcesses;
  io.on(ROOM_WAKE, (roomId: string, seq: number) => void state.local.emit(roomId, seq));
  io.on(ROOM_CHANGE, (roomId: string) => void state.local.emit(changeKey(roomId)));
}

/**
 * Resolves at the first wake-up of any of `roomIds`, after `ms`, or on `signal`, whichever comes
 * first (listening starts at once: call it before reading the store, then await `done`).
 */
export function untilWake(roomIds: Iterable<string>, ms: number, signal?: AbortSignal): { done: Promise<void>; cancel(): void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const timer = setTimeout(() => cancel(), ms);
  const stop = onRoomWake(roomIds, () => cancel());
  const onAbort = () => cancel();
  signal?.addEventListener("abort", onAbort, { once: true });
  function cancel() {
    clearTimeout(timer);
    stop();
    signal?.removeEventListener("abort", onAbort);
    finish();
  }
  return { done, cancel };
}
