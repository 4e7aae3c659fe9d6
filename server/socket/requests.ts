// How a socket's requests are answered: one payload and an optional ack; a window of them awaiting
// their answer at once (OPENING_IN_FLIGHT, widening to MAX_IN_FLIGHT as requests are answered), of
// which at most MAX_ACTIVE run at a time (sends, and tool calls that wait, apart); only reads for a
// read-only actor; each event under its own limit, the payload validated, then one service call.
// Every request that asked for an ack gets one, whatever it sent, until the socket is closed for
// sending on after too many refusals (the flood guard).
import type { Socket } from "socket.io";
import type { z } from "zod";
import { READ_ONLY_EVENTS, type Ack, type ClientToServerEvents, type ServerToClientEvents } from "../../sdk/contract";
import { AppError, toErrorShape } from "../errors";
import { assertMayWrite, type Actor } from "../policies";
import type { Rule } from "../services/governance/limits";
import { countRequest, FLOOD_COOLDOWN_MS, FLOOD_REFUSALS, FLOOD_WINDOW_MS, IN_FLIGHT_RETRY_MS, markFlooded, MAX_ACTIVE, MAX_IN_FLIGHT, OPENING_IN_FLIGHT } from "../services/governance/request-limits";

export type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

/** Events that only read (or move the sender's own cursors); every other one writes. */
const READS = new Set<string>(READ_ONLY_EVENTS);

function invalid(error: z.ZodError): AppError {
  const first = error.issues[0];
  return new AppError("INVALID_PAYLOAD", first ? `${first.path.join(".") || "payload"}: ${first.message}` : "Invalid payload");
}

/** Registers acked requests on one socket; the returned function adds one event. */
export function requestsOf(socket: AppSocket) {
  // Socket.IO's typed `on` cannot express "any arguments, validated later"; handlers take unknown.
  const on = socket.on.bind(socket) as (event: string, fn: (...args: unknown[]) => void) => void;
  let inFlight = 0;
  let window = OPENING_IN_FLIGHT;
  const guard = floodGuard(socket);
  const slots = semaphore(MAX_ACTIVE);
  const closed = new AbortController();
  on("disconnect", () => closed.abort());

  /**
   * `opts.limit`: the event's own limit per participant. `opts.queued`: the service orders the event's
   * work in a queue of its own (sends, per room), so it does not take one of the socket's slots; or,
   * as a function of the payload, the requests that mostly wait (a tool waiting for an answer), which
   * would otherwise keep the socket's other requests waiting behind them.
   */
  function request<S extends z.ZodType, R>(event: string, schema: S, run: (actor: Actor, input: z.output<S>) => Promise<R>, opts: { limit?: Rule; queued?: boolean | ((payload: unknown) => boolean) } = {}) {
    // Never rejects: every failure becomes the ack's error.
    on(event, (...args: unknown[]) => void answer(args));
    async function answer(args: unknown[]): Promise<void> {
      if (guard.closed) return; // closed for flooding: what it sent after that is dropped unread
      // The ack, when asked for, is the last argument; there may be no payload before it
      // (`421["room:list"]`, python-socketio's `call(event)`), or more than one.
      const ack = typeof args.at(-1) === "function" ? (args.pop() as (reply: Ack<R>) => void) : null;
      const reply = (r: Ack<R>) => {
        if (!r.ok && r.error.code === "RATE_LIMITED") guard.refused();
        else if (window < MAX_IN_FLIGHT) window++;
        if (guard.closed) return;
        if (ack) ack(r);
        else if (!r.ok) socket.emit("error", { ...r.error, event });
      };
      if (inFlight >= window) {
        const busy = new AppError("RATE_LIMITED", `At most ${window} requests may await their answer on this connection now`, { retryAfterMs: IN_FLIGHT_RETRY_MS });
        return reply({ ok: false, error: busy.toShape() });
      }
      inFlight++;
      let result: Ack<R>;
      const queued = typeof opts.queued === "function" ? opts.queued(args[0]) : opts.queued;
      const slot = queued ? null : await slots.acquire();
      try {
        // Its work starts in a turn of the event loop of its own: requests read together (a burst
        // arrives in one read) would otherwise run back to back, the database calls of SQLite
        // included, before any other socket is read.
        await nextTurn();
        // Gone while it waited its turn (closed for flooding, or disconnected): its answer could not
        // be delivered, so its work is not done either (the client retries what it needs).
        if (guard.closed || socket.disconnected) throw new AppError("UNAVAILABLE", "The connection closed before this request's turn");
        if (args.length > 1) throw new AppError("INVALID_PAYLOAD", `${event} takes one payload (then the ack), not ${args.length}`);
        const actor = socket.data.actor as Actor;
        if (!READS.has(event)) assertMayWrite(actor);
        // Counted before validation: every request costs the server something.
        if (opts.limit) await countRequest(opts.limit, actor, event);
        const parsed = schema.safeParse(args[0]);
        if (!parsed.success) throw invalid(parsed.error);
        result = { ok: true, data: await run(actor, parsed.data) };
      } catch (error) {
        result = { ok: false, error: toErrorShape(error) };
      } finally {
        slot?.release();
        inFlight--;
      }
      reply(result);
    }
  }
  /** Aborted when the socket disconnects: work that waits (a tool waiting for an answer) stops then. */
  request.signal = closed.signal;
  return request;
}

export type Requests = ReturnType<typeof requestsOf>;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Counts a socket's refused requests in a fixed window; past FLOOD_REFUSALS it closes the socket. */
function floodGuard(socket: AppSocket) {
  let windowStart = 0;
  let refusals = 0;
  const state = {
    closed: false,
    refused() {
      const now = Date.now();
      if (now - windowStart > FLOOD_WINDOW_MS) {
        windowStart = now;
        refusals = 0;
      }
      if (++refusals <= FLOOD_REFUSALS || state.closed) return;
      state.closed = true;
      const actor = socket.data.actor as Actor;
      const error = new AppError("RATE_LIMITED", `Closed: over ${FLOOD_REFUSALS} requests refused within ${FLOOD_WINDOW_MS / 1000} s; wait for retryAfterMs before reconnecting`, {
        retryAfterMs: FLOOD_COOLDOWN_MS,
      });
      socket.emit("error", { ...error.toShape(), event: "flood" });
      socket.disconnect(true);
      void markFlooded(actor.participantId, (socket.data.fingerprint as string | undefined) ?? null).catch(() => {});
    },
  };
  return state;
}

/**
 * At most `n` holders at once; the others wait in arrival order. One socket's requests thus take at
 * most `n` of the database's connections at a time, and a burst from one client waits behind itself
 * rather than in front of everyone else's.
 */
function semaphore(n: number) {
  let free = n;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return {
    async acquire(): Promise<{ release(): void }> {
      if (free > 0) free--;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      return { release };
    },
  };
}
