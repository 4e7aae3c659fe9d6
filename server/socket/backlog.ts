// A connection's requests waiting for a place in its in-flight window (requests.ts), in arrival order.
// Bounded in count and in payload bytes (SOCKET_BUFFER_REQUESTS, SOCKET_BUFFER_BYTES): a burst is slowed
// to the pace at which the server answers it instead of refused, and holds at most that much memory. A
// request that does not fit is refused; a connection that keeps sending into a full buffer is cut off.
import { CUT_OFF_REFUSALS, CUT_OFF_WINDOW_MS } from "../services/governance/request-limits";

export interface BufferLimits {
  /** How many requests may wait at once. */
  requests: number;
  /** How many bytes of payload (as JSON) they may hold together. */
  bytes: number;
}

interface Held {
  start: () => void;
  bytes: number;
}

export type Backlog = ReturnType<typeof backlog>;

export function backlog(limits: BufferLimits) {
  let held: Held[] = [];
  let head = 0; // held[head] is the oldest: taking from the front costs nothing
  let bytes = 0;
  let windowStart = 0;
  let refusals = 0;
  const size = () => held.length - head;
  return {
    get size() {
      return size();
    },
    get bytes() {
      return bytes;
    },
    /** Holds `start` (the request that sent `payload`) for its turn; false, holding nothing, if it does not fit. */
    hold(start: () => void, payload: unknown[]): boolean {
      if (size() >= limits.requests) return false;
      const cost = payloadBytes(payload);
      if (bytes + cost > limits.bytes) return false;
      held.push({ start, bytes: cost });
      bytes += cost;
      return true;
    },
    /** The oldest request held, removed; undefined when none waits. */
    take(): (() => void) | undefined {
      if (size() === 0) return undefined;
      const next = held[head++];
      bytes -= next.bytes;
      if (head === held.length) {
        held = [];
        head = 0;
      } else if (head >= 1024 && head * 2 >= held.length) {
        held = held.slice(head);
        head = 0;
      }
      return next.start;
    },
    /** Forgets every request held: their connection went away before their turn. */
    clear(): void {
      held = [];
      head = 0;
      bytes = 0;
    },
    /**
     * Counts a request refused because the buffer was full; true when that makes more than
     * CUT_OFF_REFUSALS within CUT_OFF_WINDOW_MS (a fixed window, opened by the first refusal).
     */
    refused(now = Date.now()): boolean {
      if (now - windowStart > CUT_OFF_WINDOW_MS) {
        windowStart = now;
        refusals = 0;
      }
      return ++refusals > CUT_OFF_REFUSALS;
    },
  };
}

/** A payload's size, near enough to what it took on the wire: its JSON's UTF-8 bytes. */
export function payloadBytes(payload: unknown[]): number {
  try {
    return Buffer.byteLength(JSON.stringify(payload) ?? "");
  } catch {
    return Number.POSITIVE_INFINITY; // not JSON (a decoded packet always is): never held
  }
}
