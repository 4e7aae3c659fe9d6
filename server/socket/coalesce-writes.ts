// Fewer TCP writes per fanned-out batch: one per client, instead of one per packet or two per batch.
//
// While a write to a client is in flight, engine.io queues that client's further packets and then
// hands them to its WebSocket transport together; the transport passes each to `ws` on its own, and
// each becomes its own `writev` system call. A batch of k messages fanned out to a room therefore cost
// k system calls per client, which on loopback carry the kernel's delivery work too: a third of the
// server's CPU at benchmark rates. Corking the client's TCP socket for the duration of that loop sends
// the queue in one call; frames, their order and the callbacks are unchanged.
//
// That still left two writes per client for a batch: the first packet goes out at once, the rest wait
// for it to finish. `holdWrites` keeps engine.io from flushing any client while a fan-out emits its
// packets, then flushes each client once, so the whole batch leaves in one corked write.
import { Socket as EngineSocket, transports } from "engine.io";

type WebSocketTransport = { socket?: { _socket?: { cork(): void; uncork(): void } }; send(packets: unknown[]): void };
type Flushable = { flush(): void };

const patched = Symbol.for("switchboard.coalesceWrites");
const engineFlush = (EngineSocket.prototype as unknown as Flushable).flush;
/** Engine.io sockets that had packets to flush while writes were held. */
const held = new Set<Flushable>();
let holding = false;

export function coalesceWebSocketWrites(): void {
  const proto = (transports as unknown as { websocket: { prototype: WebSocketTransport & { [patched]?: true } } }).websocket.prototype;
  if (proto[patched]) return;
  const send = proto.send;
  proto.send = function (this: WebSocketTransport, packets: unknown[]) {
    const tcp = packets.length > 1 ? this.socket?._socket : undefined;
    if (!tcp) return send.call(this, packets);
    tcp.cork();
    try {
      send.call(this, packets);
    } finally {
      tcp.uncork();
    }
  };
  proto[patched] = true;
  (EngineSocket.prototype as unknown as Flushable).flush = function (this: Flushable) {
    if (holding) held.add(this);
    else engineFlush.call(this);
  };
}

/**
 * Runs `emit` (synchronous emits to clients) with flushing held, then flushes each client that got
 * packets once. Packets keep their order per client; nothing waits for I/O in between.
 */
export function holdWrites(emit: () => void): void {
  if (holding) return emit();
  holding = true;
  try {
    emit();
  } finally {
    holding = false;
    for (const socket of held) engineFlush.call(socket);
    held.clear();
  }
}
