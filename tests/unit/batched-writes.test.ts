// The WebSocket engine that writes a client's packets of one turn together (server/socket/batched-writes.ts),
// under a real Socket.IO server on a real HTTP server, with a real Socket.IO client over loopback: what
// the server emits in one turn leaves its TCP socket in two writes (its first frame at once, the rest in
// one corked write), in order; a client that
// stops reading holds the server's further packets in engine.io (volatile ones are dropped), as
// without it; acks and the client's own packets are unchanged.
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo, Socket as TcpSocket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Server } from "socket.io";
import { io as connect, type Socket as ClientSocket } from "socket.io-client";
import { WebSocket } from "ws";
import { holdWrites } from "../../server/realtime/write-hold";
import { BACKPRESSURE_BYTES, BatchedWebSocketServer, pauseReading } from "../../server/socket/batched-writes";

interface Rig {
  io: Server;
  client: ClientSocket;
  /** The server's end of the last TCP connection upgraded to a WebSocket, with its writes and flushes counted. */
  tcp: TcpSocket & { writesCorked: number; writesUncorked: number; flushes: number };
  close(): Promise<void>;
}

let rig: Rig | null = null;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await rig?.close();
  rig = null;
});

async function start(): Promise<Rig> {
  const http: HttpServer = createServer();
  let tcp: Rig["tcp"] | null = null;
  // Before engine.io's own listener: the counters are in place when ws takes the socket over.
  http.on("upgrade", (_req, socket: TcpSocket) => {
    const counted = Object.assign(socket, { writesCorked: 0, writesUncorked: 0, flushes: 0 });
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    socket.write = ((...args: unknown[]) => {
      if (socket.writableCorked > 0) counted.writesCorked++;
      else counted.writesUncorked++;
      return write(...args);
    }) as typeof socket.write;
    const uncork = socket.uncork.bind(socket);
    socket.uncork = () => {
      if (socket.writableCorked === 1) counted.flushes++;
      uncork();
    };
    tcp = counted;
  });
  const io = new Server(http, { wsEngine: BatchedWebSocketServer, transports: ["websocket"] });
  io.on("connection", (socket) => socket.on("echo", (text: string, ack: (reply: string) => void) => ack(`echo: ${text}`)));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const client = connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ["websocket"], reconnection: false });
  await new Promise<void>((resolve, reject) => client.once("connect", resolve).once("connect_error", reject));
  return {
    io,
    client,
    get tcp() {
      return tcp!;
    },
    close: async () => {
      client.disconnect();
      await io.close();
    },
  };
}

/** Resolves with the first `n` payloads of `event` the client gets. */
function received(client: ClientSocket, event: string, n: number): Promise<unknown[]> {
  const got: unknown[] = [];
  return new Promise((resolve) =>
    client.on(event, (payload: unknown) => {
      got.push(payload);
      if (got.length === n) resolve(got);
    }),
  );
}

describe("batched WebSocket writes", () => {
  it("sends what the server emits to a client in one turn in two writes (the first frame at once, then the rest), in order", async () => {
    rig = await start();
    const [socket] = await rig.io.fetchSockets();
    const got = received(rig.client, "n", 50);
    const before = { ...rig.tcp };
    for (let i = 0; i < 50; i++) socket.emit("n", i);
    expect(await got).toEqual(Array.from({ length: 50 }, (_, i) => i));
    // The first frame at once, the other 49 together: two writes (one each without it).
    expect(rig.tcp.flushes - before.flushes).toBe(2);
    expect(rig.tcp.writesUncorked - before.writesUncorked).toBe(0);
    expect(rig.tcp.writesCorked - before.writesCorked).toBeGreaterThanOrEqual(50);
  });

  it("sends what a fan-out emits to a client while it holds writes in one write, before the hold returns, in order", async () => {
    rig = await start();
    const [socket] = await rig.io.fetchSockets();
    const got = received(rig.client, "n", 50);
    const before = { ...rig.tcp };
    holdWrites(() => {
      for (let i = 0; i < 50; i++) socket.emit("n", i);
    });
    expect(rig.tcp.flushes - before.flushes).toBe(1); // written when the hold ends, waiting for nothing
    expect(await got).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(rig.tcp.flushes - before.flushes).toBe(1);
    expect(rig.tcp.writesUncorked - before.writesUncorked).toBe(0);
  });

  it("writes a broadcast's frame, built once by Socket.IO's adapter, to every receiver, in order with what each gets alone", async () => {
    rig = await start();
    const port = (rig.io.httpServer.address() as AddressInfo).port;
    const others = await Promise.all(
      [1, 2].map(async () => {
        const client = connect(`http://127.0.0.1:${port}`, { transports: ["websocket"], reconnection: false });
        cleanups.push(() => client.disconnect());
        await new Promise<void>((resolve) => client.once("connect", resolve));
        return client;
      }),
    );
    const clients = [rig.client, ...others];
    const sockets = [...rig.io.sockets.sockets.values()];
    for (const socket of sockets) void socket.join("room");
    const got = clients.map((client) => received(client, "n", 6));
    // ws frames what is sent through it; a broadcast's frame is written as it was built.
    let framedByWs = 0;
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (this: WebSocket, ...args: unknown[]) {
      framedByWs++;
      return (send as (...a: unknown[]) => void).apply(this, args);
    } as typeof send;
    cleanups.push(() => (WebSocket.prototype.send = send));
    for (let i = 0; i < 3; i++) {
      rig.io.to("room").emit("n", `all ${i}`);
      for (const socket of sockets) socket.emit("n", `alone ${i} ${socket.id}`);
    }
    const expected = (id: string) => [0, 1, 2].flatMap((i) => [`all ${i}`, `alone ${i} ${id}`]);
    expect(await Promise.all(got)).toEqual(clients.map((client) => expected(client.id!)));
    expect(framedByWs).toBe(9); // the 9 sent alone; none of the 3 broadcasts' 9 deliveries
  });

  it("writes what it queued before it closes: what the server emits just before disconnecting arrives", async () => {
    rig = await start();
    const [socket] = await rig.io.fetchSockets();
    const got: unknown[] = [];
    rig.client.on("n", (i: unknown) => got.push(i));
    const closed = new Promise<string>((resolve) => rig!.client.once("disconnect", resolve));
    for (let i = 0; i < 10; i++) socket.emit("n", i);
    socket.disconnect(true);
    expect(await closed).toBe("io server disconnect");
    expect(got).toEqual(Array.from({ length: 10 }, (_, i) => i));
  });

  it("answers acks and reads the client's packets as before", async () => {
    rig = await start();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => rig!.client.emitWithAck("echo", `t${i}`)));
    expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => `echo: t${i}`));
  });

  it("hands over a client's packets one a turn of the event loop, however many arrive in one read", async () => {
    rig = await start();
    const socket = [...rig.io.sockets.sockets.values()][0];
    // A ticker counts the event loop's turns (an immediate runs once a turn, and queues the next).
    let turn = 0;
    let ticker = setImmediate(function tick() {
      turn++;
      ticker = setImmediate(tick);
    });
    cleanups.push(() => clearImmediate(ticker));
    const got: { i: number; turn: number }[] = [];
    socket.on("n", (i: number) => got.push({ i, turn }));
    for (let i = 0; i < 200; i++) rig.client.emit("n", i); // one turn: they travel together
    await expect.poll(() => got.length).toBe(200);
    expect(got.map((g) => g.i)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(got.filter((g, i) => i > 0 && g.turn <= got[i - 1].turn)).toEqual([]);
  });

  it("reads nothing from a paused client until the pause ends, then all it sent meanwhile, in order; acks and pushes still reach it", async () => {
    rig = await start();
    const socket = [...rig.io.sockets.sockets.values()][0];
    const got: { i: number; at: number }[] = [];
    socket.on("n", (i: number) => got.push({ i, at: performance.now() }));
    const pausedAt = performance.now();
    expect(pauseReading(socket.conn, 300)).toBe(true);
    const pushed = received(rig.client, "push", 1);
    socket.emit("push", "while paused");
    expect(await pushed).toEqual(["while paused"]);
    for (let i = 0; i < 50; i++) rig.client.emit("n", i);
    await expect.poll(() => got.length).toBe(50);
    expect(got.map((g) => g.i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(got[0].at - pausedAt).toBeGreaterThanOrEqual(295); // a lower bound: read only once the pause ended
    // Not paused again while paused, and reading as before after.
    expect(await rig.client.emitWithAck("echo", "after")).toBe("echo: after");
  });

  it("holds a client's further packets once it stops reading (volatile ones are dropped), and sends them all, in order, once it reads again", async () => {
    rig = await start();
    const initial = rig.tcp;
    // A raw WebSocket client speaking Socket.IO's protocol by hand: `ws` can stop reading (pause).
    const port = (rig.io.httpServer.address() as AddressInfo).port;
    const raw = new WebSocket(`ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`);
    cleanups.push(() => raw.terminate());
    const events: unknown[][] = [];
    raw.on("message", (data) => {
      const text = String(data);
      if (text.startsWith("0"))
        raw.send("40"); // engine.io open: join the default namespace
      else if (text.startsWith("42")) events.push(JSON.parse(text.slice(2)) as unknown[]);
    });
    await expect.poll(() => rig!.io.sockets.sockets.size).toBe(2);
    const socket = [...rig.io.sockets.sockets.values()].at(-1)!;
    const tcp = rig.tcp; // the server's end of the raw client's connection (the last upgrade)
    expect(tcp).not.toBe(initial);

    raw.pause();
    const chunk = "x".repeat(64 * 1024);
    let sent = 0;
    // Until the kernel's buffers are full and more than BACKPRESSURE_BYTES wait in the server's socket.
    while (tcp.writableLength <= BACKPRESSURE_BYTES && sent < 2000) {
      socket.emit("big", sent++, chunk);
      await new Promise((r) => setImmediate(r));
    }
    expect(tcp.writableLength).toBeGreaterThan(BACKPRESSURE_BYTES);
    socket.emit("big", sent++, chunk); // held by engine.io: its transport waits for the write
    await new Promise((r) => setImmediate(r));
    socket.volatile.emit("volatile", 1); // dropped: the transport is still not writable a turn later
    socket.emit("last", "after");
    raw.resume();
    await expect.poll(() => events.some(([name]) => name === "last"), { timeout: 20_000 }).toBe(true);
    expect(events.filter(([name]) => name === "big").map(([, i]) => i)).toEqual(Array.from({ length: sent }, (_, i) => i));
    expect(events.some(([name]) => name === "volatile")).toBe(false);
  });
});
