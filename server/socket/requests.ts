// How a socket's requests are answered: one payload and an optional ack; a window of them awaiting
// their answer at once (OPENING_IN_FLIGHT, widening to MAX_IN_FLIGHT as requests are answered), of
// which at most MAX_ACTIVE run at a time (sends, and tool calls that wait, apart); past the window,
// requests wait their turn in the connection's bounded buffer (backlog.ts), in arrival order; a
// connection refused over and over within a second is not read for a second (READ_PAUSE_MS); only
// reads for a read-only actor; each event under its own limit, the payload validated, then one
// service call. Every request that asked for an ack gets one, whatever it sent, until the connection
// is cut off for sending on into a full buffer: what still waits in its buffer and what it sends after
// are dropped, neither run nor answered; what is in flight is run and answered, and then the
// connection is closed (so every request unanswered at the close was not run).
import type { Socket } from "socket.io";
import type { z } from "zod";
import { READ_ONLY_EVENTS, type Ack, type ClientToServerEvents, type ServerToClientEvents } from "@switchboard/sdk/contract";
import { env } from "../env";
import { AppError, toErrorShape } from "../errors";
import { assertMayWrite, type Actor } from "../policies";
import type { Rule } from "../services/governance/limits";
import {
  BUFFER_FULL_RETRY_MS,
  countRequest,
  CUT_OFFS_WINDOW_MS,
  FLOOD_COOLDOWN_MS,
  MAX_ACTIVE,
  MAX_ACTIVE_BACKLOGGED,
  MAX_IN_FLIGHT,
  OPENING_IN_FLIGHT,
  READ_PAUSE_MS,
  recordCutOff,
  REFUSALS_BEFORE_PAUSE,
  REFUSALS_WINDOW_MS,
} from "../services/governance/request-limits";
import { backlog, type Backlog, type BufferLimits } from "./backlog";
import { pauseReading } from "./batched-writes";

export type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

/** The events a client sends, each typed in the contract with its payload and its ack. */
export type RequestEvent = keyof ClientToServerEvents;

/**
 * What event `E`'s ack carries when it succeeds (`T` of its `Ack<T>`), as the contract types it; an
 * event without an ack (`room:typing`) answers only errors, so its result may be anything.
 */
export type AckData<E extends RequestEvent> = NonNullable<Parameters<ClientToServerEvents[E]>[1]> extends (r: Ack<infer T>) => void ? T : unknown;

/** Events that only read (or move the sender's own cursors); every other one writes. */
const READS = new Set<string>(READ_ONLY_EVENTS);

/** The longest a connection cut off stays open for its requests in flight to be answered; the rest run unanswered. */
export const CUT_OFF_DRAIN_MS = 30_000;

function invalid(error: z.ZodError): AppError {
  const first = error.issues[0];
  return new AppError("INVALID_PAYLOAD", first ? `${first.path.join(".") || "payload"}: ${first.message}` : "Invalid payload");
}

/**
 * Registers acked requests on one socket; the returned function adds one event. `opts.buffer`: the
 * bounds of the connection's buffer (SOCKET_BUFFER_REQUESTS and SOCKET_BUFFER_BYTES by default).
 */
export function requestsOf(socket: AppSocket, opts: { buffer?: BufferLimits } = {}) {
  // Socket.IO's typed `on` cannot express "any arguments, validated later"; handlers take unknown.
  const on = socket.on.bind(socket) as (event: string, fn: (...args: unknown[]) => void) => void;
  let inFlight = 0;
  let window = OPENING_IN_FLIGHT;
  const waiting = backlog(opts.buffer ?? { requests: env.SOCKET_BUFFER_REQUESTS, bytes: env.SOCKET_BUFFER_BYTES });
  // While requests wait in its buffer (it sends faster than it is answered), one at a time.
  const slots = semaphore(() => (waiting.size > 0 ? MAX_ACTIVE_BACKLOGGED : MAX_ACTIVE));
  const closed = new AbortController();
  const cutOff = cutOffOf(socket, closed, waiting, () => inFlight === 0);
  // Told to wait and sending on regardless: not read for a while.
  const refused = pacerOf(() => pauseReading(socket.conn, READ_PAUSE_MS));
  on("disconnect", () => {
    closed.abort();
    cutOff.disconnected();
    // What still waited for its turn is not run: its answer could not be delivered (the client
    // retries what it needs).
    waiting.clear();
  });

  /** Starts requests held in the buffer, oldest first, while the window has room. */
  function admit(): void {
    while (inFlight < window) {
      const start = waiting.take();
      if (!start) return;
      inFlight++;
      start();
    }
  }

  /**
   * Answers `event` with `run`, whose result is the event's ack data as the contract types it (a
   * handler returning another shape does not compile). `opts.limit`: the event's own limit per participant. `opts.queued`: the service orders the event's
   * work in a queue of its own (sends, per room), so it does not take one of the socket's slots; or,
   * as a function of the payload, the requests that mostly wait (a tool waiting for an answer), which
   * would otherwise keep the socket's other requests waiting behind them.
   */
  function request<E extends RequestEvent, S extends z.ZodType>(
    event: E,
    schema: S,
    run: (actor: Actor, input: z.output<S>) => Promise<AckData<E>>,
    opts: { limit?: Rule; queued?: boolean | ((payload: unknown) => boolean) } = {},
  ) {
    type R = AckData<E>;
    on(event, (...args: unknown[]) => receive(args));
    function receive(args: unknown[]): void {
      if (cutOff.active) return; // cut off: what it sends after that is dropped unread
      // The ack, when asked for, is the last argument; there may be no payload before it
      // (`421["room:list"]`, python-socketio's `call(event)`), or more than one.
      const ack = typeof args.at(-1) === "function" ? (args.pop() as (reply: Ack<R>) => void) : null;
      // (On a socket disconnected meanwhile, Socket.IO sends nothing.)
      const reply = (r: Ack<R>) => {
        if (ack) ack(r);
        else if (!r.ok) socket.emit("error", { ...r.error, event });
      };
      const start = () => void answer(args, reply);
      // Behind the requests already waiting, never past them: served in arrival order.
      if (inFlight < window && waiting.size === 0) {
        inFlight++;
        return start();
      }
      if (waiting.hold(start, args)) return;
      const full = new AppError(
        "RATE_LIMITED",
        `This connection already has ${waiting.size} requests waiting for their turn; retry in ${BUFFER_FULL_RETRY_MS / 1000} s`,
        { retryAfterMs: BUFFER_FULL_RETRY_MS },
      );
      reply({ ok: false, error: full.toShape() });
      refused();
      if (waiting.refused()) cutOff.begin();
    }
    // Never rejects: every failure becomes the answer's error.
    async function answer(args: unknown[], reply: (r: Ack<R>) => void): Promise<void> {
      let result: Ack<R>;
      const queued = typeof opts.queued === "function" ? opts.queued(args[0]) : opts.queued;
      const slot = queued ? null : await slots.acquire();
      try {
        // Its work starts in a turn of the event loop of its own: requests started together (from
        // the buffer, or as slots free up) would otherwise run back to back, the database calls of
        // SQLite included, before any other socket is read.
        await nextTurn();
        // Disconnected while it waited its turn: its answer could not be delivered, so its work is not
        // done either. A connection cut off closes only once it has been answered.
        if (socket.disconnected && !cutOff.active) throw new AppError("UNAVAILABLE", "The connection closed before this request's turn");
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
      }
      inFlight--;
      if (result.ok || result.error.code !== "RATE_LIMITED") window = Math.min(window + 1, MAX_IN_FLIGHT);
      else refused();
      reply(result);
      admit();
      cutOff.settled();
    }
  }
  /** Aborted when the socket disconnects or is cut off: work that waits (a tool waiting for an answer) stops then. */
  request.signal = closed.signal;
  return request;
}

export type Requests = ReturnType<typeof requestsOf>;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Counts a connection's refusals; past REFUSALS_BEFORE_PAUSE within REFUSALS_WINDOW_MS (it sends on
 * while told to wait), `pause` (see request-limits.ts).
 */
function pacerOf(pause: () => void): () => void {
  let windowStart = 0;
  let refusals = 0;
  return () => {
    const now = Date.now();
    if (now - windowStart > REFUSALS_WINDOW_MS) {
      windowStart = now;
      refusals = 0;
    }
    if (++refusals <= REFUSALS_BEFORE_PAUSE) return;
    refusals = 0;
    pause();
  };
}

/**
 * A connection cut off for sending on into its full buffer: what still waits in `held` is dropped,
 * neither run nor answered (running a flood's buffer, or even answering it, takes the process from
 * everyone else for a second or more; every request unanswered when the connection closes was not
 * run). Told so (an `error` event, `event: "flood"`, whose retryAfterMs says when to reconnect), it
 * is closed once every request in flight has been answered, or CUT_OFF_DRAIN_MS after at the latest
 * (the rest then run unanswered). The cut-off is counted for its participant (recordCutOff): a second
 * within CUT_OFFS_WINDOW_MS keeps the participant out for FLOOD_COOLDOWN_MS.
 */
function cutOffOf(socket: AppSocket, closed: AbortController, held: Backlog, drained: () => boolean) {
  let told = false;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const close = () => {
    clearTimeout(deadline);
    socket.disconnect(true);
  };
  const state = {
    active: false,
    begin(): void {
      if (state.active) return;
      state.active = true;
      closed.abort(); // requests that wait (a tool waiting for an answer) answer now
      held.clear();
      deadline = setTimeout(close, CUT_OFF_DRAIN_MS);
      deadline.unref?.();
      const actor = socket.data.actor as Actor;
      void recordCutOff(actor.participantId, (socket.data.fingerprint as string | undefined) ?? null)
        .catch(() => false)
        .then((keptOut) => {
          const error = keptOut
            ? new AppError(
                "RATE_LIMITED",
                `Cut off again within ${CUT_OFFS_WINDOW_MS / 60_000} minutes for sending on into a full buffer; what was in flight is answered, what waited in the buffer is dropped (not run), then the connection closes; reconnect after retryAfterMs`,
                { retryAfterMs: FLOOD_COOLDOWN_MS },
              )
            : new AppError(
                "RATE_LIMITED",
                "Cut off for sending on into a full buffer; what was in flight is answered, what waited in the buffer is dropped (not run), then the connection closes",
                {
                  retryAfterMs: BUFFER_FULL_RETRY_MS,
                },
              );
          if (!socket.disconnected) socket.emit("error", { ...error.toShape(), event: "flood" });
          told = true;
          state.settled();
        });
    },
    /** After each answer: a connection cut off closes once it is told and has nothing left to answer. */
    settled(): void {
      if (state.active && told && drained()) close();
    },
    disconnected(): void {
      clearTimeout(deadline);
    },
  };
  return state;
}

/**
 * At most `limit()` holders at once (read at each acquire and release); the others wait in arrival
 * order. One socket's requests thus take at most that many of the database's connections at a time,
 * and a burst from one client waits behind itself rather than in front of everyone else's.
 */
function semaphore(limit: () => number) {
  let held = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    held--;
    while (waiting.length > 0 && held < limit()) {
      held++;
      waiting.shift()!();
    }
  };
  return {
    async acquire(): Promise<{ release(): void }> {
      if (waiting.length === 0 && held < limit()) held++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      return { release };
    },
  };
}
