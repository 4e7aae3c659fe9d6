// One or two writes per client per turn of the event loop instead of one per packet, for engine.io's
// WebSocket transport. Engine.io's `wsEngine` option takes a server with ws's interface, and this one
// is ws's own, whose connections engine.io gets wrapped; beyond that it uses one undocumented hook
// (broadcast frames, below).
//
// Why: engine.io hands its WebSocket transport a client's packets one `ws.send` each, and each
// becomes its own `writev` system call. A client without `message:batch` (a bare Socket.IO client,
// the Python example) gets one packet per message, so a batch of k messages fanned out costs k system
// calls per client, which on loopback carry the kernel's delivery too: most of the server's CPU per
// delivery (bench/RESULTS.md, "Deliveries to bare sockets").
//
// How: a turn's first frame to a client leaves at once (a lone message waits for nothing); the wrapper
// queues what follows it in the same turn and writes the queue once the turn's microtasks are done,
// with the client's TCP socket corked, so those frames leave in one `writev`, in order: two writes
// per client for k packets instead of k. While a fan-out holds writes (realtime/write-hold.ts: a
// batch of messages to a room), every frame is queued and the queue written when the fan-out ends:
// one write per client. Engine.io
// sends a client's next packets only once the previous send's callback ran; the callback runs as
// soon as the frame is handed over (before it is written), so that what the fan-out emits in the same
// turn joins the queue, unless the client already has more than BACKPRESSURE_BYTES waiting to be
// written (a slow reader): then it runs once that frame is written, as before, and engine.io holds
// further packets (and drops volatile ones, typing) until then.
//
// Broadcasts come as frames: Socket.IO's adapter builds a broadcast's WebSocket frame once (ws's
// exported `Sender.frame`), and engine.io hands it to `_sender.sendFrame` when a connection has one:
// an undocumented hook, engine.io's with ws's connections, that this wrapper offers too, so that 50
// receivers cost one encoding, not 50 (7–13% of the server's CPU per delivery to bare sockets,
// bench/RESULTS.md). Without the hook engine.io encodes per connection, as it did before: nothing
// else depends on it. The frames join the same queue, and their bytes are written to the TCP socket
// in order with the rest, as ws writes its own when nothing is compressed (engine.io hands over
// frames only then).
import { EventEmitter } from "node:events";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type ServerOptions, type WebSocket } from "ws";
import { afterHold } from "../realtime/write-hold";

/** Past this many bytes not yet written to a client, a send's callback waits for its write. */
export const BACKPRESSURE_BYTES = 256 * 1024;

type SendCallback = (error?: Error | null) => void;

/** What the queue holds: a packet for ws to frame, or a frame built once for a broadcast. */
type Outgoing = { data: string } | { frame: Buffer[] };

/** What engine.io uses of a connection (its server and its WebSocket transport): send, `_sender.sendFrame`, close, and its events. */
class BatchedConnection extends EventEmitter {
  /** Where engine.io hands a frame built once for a broadcast (see above). */
  readonly _sender = { sendFrame: (frame: Buffer[], cb?: SendCallback) => this.enqueue({ frame }, cb) };
  private queue: { out: Outgoing; cb?: SendCallback }[] = [];
  /** A frame went out in this turn: the next ones wait in the queue until its microtasks are done. */
  private sentThisTurn = false;

  /** Set while the client's messages are not read (pauseReading). */
  private resumeAt: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly tcp: Duplex,
  ) {
    super();
    for (const event of ["message", "close", "error"]) ws.on(event, (...args: unknown[]) => this.emit(event, ...args));
    ws.on("close", () => clearTimeout(this.resumeAt));
  }

  /** Reads none of the client's messages for `ms` (ws's pause and resume); already paused, nothing changes. */
  pauseReading(ms: number): void {
    if (this.resumeAt || this.ws.readyState !== this.ws.OPEN) return;
    this.ws.pause();
    this.resumeAt = setTimeout(() => {
      this.resumeAt = undefined;
      this.ws.resume();
    }, ms);
  }

  send(data: unknown, cb?: SendCallback): void {
    this.enqueue({ data: data as string }, cb);
  }

  private enqueue(out: Outgoing, cb?: SendCallback): void {
    const waits = this.ws.bufferedAmount > BACKPRESSURE_BYTES; // what ws and the TCP socket hold, not yet written
    const held = waits ? cb : undefined;
    if (afterHold(this.flush)) {
      // A fan-out holds writes: queued, and written when it releases them. The callback at once, so
      // that engine.io hands over the client's next packets of the fan-out into the queue too.
      this.queue.push({ out, cb: held });
      if (!waits) cb?.();
      return;
    }
    // The callback first: engine.io then hands over the packets it held meanwhile, and they join the
    // queue before it is written (microtasks run in the order they were queued).
    if (!waits && cb) queueMicrotask(() => cb());
    if (this.queue.length === 0 && !this.sentThisTurn) {
      // The turn's first frame leaves at once (a lone message waits for nothing); what follows it in
      // the same turn is queued and written together once the turn's microtasks are done.
      this.sentThisTurn = true;
      queueMicrotask(() => {
        this.sentThisTurn = false;
        this.write();
      });
      return this.put(out, held);
    }
    this.queue.push({ out, cb: held });
  }

  /** Closes once what is queued is written: engine.io closes as soon as its own buffer is handed over. */
  close(code?: number, reason?: string): void {
    this.write();
    this.ws.close(code, reason);
  }

  private readonly flush = () => this.write();

  /** Writes the queue in one corked write; the callbacks held for backpressure run once it is written. */
  private write(): void {
    if (this.queue.length === 0) return;
    const queue = this.queue;
    this.queue = [];
    this.tcp.cork();
    try {
      for (const { out, cb } of queue) this.put(out, cb);
    } finally {
      this.tcp.uncork();
    }
  }

  private put(out: Outgoing, cb?: SendCallback): void {
    if ("data" in out) return this.ws.send(out.data, cb);
    if (this.ws.readyState !== this.ws.OPEN) {
      // As ws answers a send after its close.
      if (cb) process.nextTick(cb, new Error("WebSocket is not open"));
      return;
    }
    // A frame's header and payload in one write, as ws writes its own.
    this.tcp.cork();
    out.frame.forEach((chunk, i) => this.tcp.write(chunk, i === out.frame.length - 1 ? cb : undefined));
    this.tcp.uncork();
  }
}

/**
 * Reads nothing more from a Socket.IO client for `ms`: what it sends meanwhile waits in TCP (and in
 * its own process), not in this one, and none of it is dropped; its answers and deliveries still go
 * out. For a client told to wait that sends on regardless (socket/requests.ts). Only for a client on
 * the WebSocket transport: engine.io's transport keeps its connection as `socket` (undocumented, so
 * looked at and checked for this module's own class; a client on long-polling is not paused).
 */
export function pauseReading(conn: { transport?: unknown } | undefined, ms: number): boolean {
  const connection = (conn?.transport as { socket?: unknown } | undefined)?.socket;
  if (!(connection instanceof BatchedConnection)) return false;
  connection.pauseReading(ms);
  return true;
}

/**
 * ws's server, handing engine.io each connection wrapped so that its sends of one turn are one write;
 * and reading each connection's messages one a turn of the event loop (ws's `allowSynchronousEvents`
 * off): a burst that arrives in one read (a 64 KiB read holds ~900 small requests) is handed over
 * message by message, with every other connection read in between, and what the burst's sender has
 * not been handed yet waits in TCP, not in the process.
 */
export class BatchedWebSocketServer extends WebSocketServer {
  constructor(options: ServerOptions, callback?: () => void) {
    super({ ...options, allowSynchronousEvents: false }, callback);
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, done: (ws: WebSocket, request: IncomingMessage) => void): void {
    super.handleUpgrade(request, socket, head, (ws, req) => done(new BatchedConnection(ws, socket) as unknown as WebSocket, req));
  }
}
