// One socket flooding the server, for bench/flood.ts: as fast as this process can, without waiting for
// answers, `message:send` to one room mixed with the chatty events (typing, sync, directory search).
// When the server closes the socket (its flood guard), it connects again at once, and again every
// RECONNECT_MS while it is refused, as a careless or hostile client would. Runs at a lower CPU priority
// (the bench starts it under `nice`, and before its phase), as an attacker on another machine would
// not take the server's cores. Prints what it sent and the answers it got, by outcome, as JSON when it stops.
//
//   BENCH_URL=... BENCH_COOKIE=... BENCH_ROOM=<roomId> BENCH_SECONDS=8 tsx bench/flood-attacker.ts
import { io, type Socket } from "socket.io-client";

const RECONNECT_MS = 50;
const roomId = process.env.BENCH_ROOM!;

// Started ahead of its phase (starting Node and tsx takes this machine's cores for a while, as an
// attacker on another machine would not): says "ready", then waits for "go" on stdin.
console.log("ready");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
const until = performance.now() + Number(process.env.BENCH_SECONDS ?? 8) * 1000;
const outcomes: Record<string, number> = {};
let emitted = 0;
let outstanding = 0;
let connections = 0;
let closedByServer = 0;
let refusedConnections = 0;
const count = (reply: { ok: boolean; error?: { code: string } }) => {
  outstanding--;
  const key = reply.ok ? "ok" : (reply.error?.code ?? "error");
  outcomes[key] = (outcomes[key] ?? 0) + 1;
};

/** Connects; resolves with the socket once the session is ready, or null if the server refused. */
function open(): Promise<Socket | null> {
  const socket = io(process.env.BENCH_URL!, {
    path: "/socket.io",
    transports: ["websocket"],
    reconnection: false,
    extraHeaders: { cookie: process.env.BENCH_COOKIE! },
  });
  return new Promise((resolve) => {
    socket.once("session:ready", () => resolve(socket));
    socket.once("connect_error", () => {
      refusedConnections++;
      socket.close();
      resolve(null);
    });
  });
}

/** Floods on one socket until the time is up (true) or the server closes it (false). */
function flood(socket: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    let closed = false;
    socket.once("disconnect", () => {
      closed = true;
      resolve(false);
    });
    const burst = () => {
      if (closed) return;
      if (performance.now() >= until) return resolve(true);
      for (let i = 0; i < 100; i++) {
        const n = emitted++;
        outstanding++;
        if (n % 20 === 5) socket.emit("room:sync", { roomId, afterSeq: 0, limit: 200 }, count);
        else if (n % 20 === 15) socket.emit("directory:search", { text: `a${n % 7}` }, count);
        else if (n % 10 === 0) socket.emit("room:typing", { roomId }, count);
        else socket.emit("message:send", { roomId, body: `flood ${n}`, clientMsgId: `flood-${n}` }, count);
      }
      // Keep this process's own buffers from growing without end: at most this many unanswered.
      setTimeout(burst, outstanding > 20_000 ? 5 : 0);
    };
    burst();
  });
}

let last: Socket | null = null;
while (performance.now() < until) {
  const socket = await open();
  if (!socket) {
    await new Promise((r) => setTimeout(r, RECONNECT_MS));
    continue;
  }
  connections++;
  last = socket;
  if (await flood(socket)) break;
  closedByServer++;
  outstanding = 0; // a closed socket's requests are never answered
}
setTimeout(() => {
  last?.disconnect();
  console.log(JSON.stringify({ emitted, answered: emitted - outstanding, outcomes, connections, closedByServer, refusedConnections }));
  process.exit(0);
}, 2000);
