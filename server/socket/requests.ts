// How a socket's requests are answered: one payload and an optional ack, at most MAX_IN_FLIGHT
// awaiting their answer at once, only reads for a read-only actor, each event under its own limit,
// the payload validated, then one service call. Every request that asked for an ack gets one,
// whatever it sent.
import type { Socket } from "socket.io";
import type { z } from "zod";
import { READ_ONLY_EVENTS, type Ack, type ClientToServerEvents, type ServerToClientEvents } from "../../sdk/contract";
import { AppError, toErrorShape } from "../errors";
import { assertMayWrite, type Actor } from "../policies";
import type { Rule } from "../services/limits";
import { countRequest, IN_FLIGHT_RETRY_MS, MAX_IN_FLIGHT } from "../services/request-limits";

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

  return function request<S extends z.ZodType, R>(event: string, schema: S, run: (actor: Actor, input: z.output<S>) => Promise<R>, limit?: Rule) {
    // Never rejects: every failure becomes the ack's error.
    on(event, (...args: unknown[]) => void answer(args));
    async function answer(args: unknown[]): Promise<void> {
      // The ack, when asked for, is the last argument; there may be no payload before it
      // (`421["room:list"]`, python-socketio's `call(event)`), or more than one.
      const ack = typeof args.at(-1) === "function" ? (args.pop() as (reply: Ack<R>) => void) : null;
      const reply = (r: Ack<R>) => {
        if (ack) ack(r);
        else if (!r.ok) socket.emit("error", { ...r.error, event });
      };
      if (inFlight >= MAX_IN_FLIGHT) {
        const busy = new AppError("RATE_LIMITED", `At most ${MAX_IN_FLIGHT} requests may await their answer on one connection`, { retryAfterMs: IN_FLIGHT_RETRY_MS });
        return reply({ ok: false, error: busy.toShape() });
      }
      inFlight++;
      let result: Ack<R>;
      try {
        if (args.length > 1) throw new AppError("INVALID_PAYLOAD", `${event} takes one payload (then the ack), not ${args.length}`);
        const actor = socket.data.actor as Actor;
        if (!READS.has(event)) assertMayWrite(actor);
        // Counted before validation: every request costs the server something.
        if (limit) await countRequest(limit, actor, event);
        const parsed = schema.safeParse(args[0]);
        if (!parsed.success) throw invalid(parsed.error);
        result = { ok: true, data: await run(actor, parsed.data) };
      } catch (error) {
        result = { ok: false, error: toErrorShape(error) };
      } finally {
        inFlight--;
      }
      reply(result);
    }
  };
}
