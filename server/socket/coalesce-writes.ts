// One TCP write for the packets a WebSocket client has queued, instead of one per packet.
//
// While a write to a client is in flight, engine.io queues that client's further packets and then
// hands them to its WebSocket transport together; the transport passes each to `ws` on its own, and
// each becomes its own `writev` system call. A batch of k messages fanned out to a room therefore cost
// k system calls per client, which on loopback carry the kernel's delivery work too: a third of the
// server's CPU at benchmark rates. Corking the client's TCP socket for the duration of that loop sends
// the queue in one call; frames, their order and the callbacks are unchanged.
import { transports } from "engine.io";

type WebSocketTransport = { socket?: { _socket?: { cork(): void; uncork(): void } }; send(packets: unknown[]): void };

const patched = Symbol.for("switchboard.coalesceWrites");

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
}
