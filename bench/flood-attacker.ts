// One socket flooding the server, for bench/flood.ts: as fast as this process can, without waiting for
// answers, `message:send` to one room mixed with the chatty events (typing, sync, directory search).
// Runs at a lower CPU priority (the bench starts it under `nice`), as an attacker on another machine
// would not take the server's cores. Prints the answers it got, by outcome, as JSON when it stops.
//
//   BENCH_URL=... BENCH_COOKIE=... BENCH_ROOM=<roomId> BENCH_SECONDS=8 tsx bench/flood-attacker.ts
import { io } from "socket.io-client";

const socket = io(process.env.BENCH_URL!, {
  path: "/socket.io",
  transports: ["websocket"],
  reconnection: false,
  extraHeaders: { cookie: process.env.BENCH_COOKIE! },
});
const roomId = process.env.BENCH_ROOM!;
const until = performance.now() + Number(process.env.BENCH_SECONDS ?? 8) * 1000;
const outcomes: Record<string, number> = {};
let emitted = 0;
let outstanding = 0;
const count = (reply: { ok: boolean; error?: { code: string } }) => {
  outstanding--;
  const key = reply.ok ? "ok" : (reply.error?.code ?? "error");
  outcomes[key] = (outcomes[key] ?? 0) + 1;
};

await new Promise<void>((resolve, reject) => {
  socket.once("session:ready", () => resolve());
  socket.once("connect_error", reject);
});

function burst(): void {
  for (let i = 0; i < 100; i++) {
    const n = emitted++;
    outstanding++;
    if (n % 20 === 5) socket.emit("room:sync", { roomId, afterSeq: 0, limit: 200 }, count);
    else if (n % 20 === 15) socket.emit("directory:search", { text: `a${n % 7}` }, count);
    else if (n % 10 === 0) socket.emit("room:typing", { roomId }, count);
    else socket.emit("message:send", { roomId, body: `flood ${n}`, clientMsgId: `flood-${n}` }, count);
  }
  // Keep the socket's own buffers from growing without end: at most this many sent and not answered.
  if (performance.now() < until) setTimeout(burst, outstanding > 20_000 ? 5 : 0);
  else finish();
}

function finish(): void {
  setTimeout(() => {
    socket.disconnect();
    console.log(JSON.stringify({ emitted, answered: emitted - outstanding, outcomes }));
    process.exit(0);
  }, 2000);
}

burst();
