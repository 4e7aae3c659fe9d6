// Bulk fill for W4 (not measured as W4): stores N plain text messages in a room as if the owner had
// sent them, in chunks of 500 per transaction: the room's lastSeq moves by the chunk's size and the
// rows get the following seqs, as appendToRoom does one at a time. Started by bench/run.ts as a child
// process; prints JSON. The bench checks that the server then continues the room's seq correctly.
//
//   DATABASE_URL=... BENCH_ROOM=<roomId> BENCH_HANDLE=owner BENCH_N=10000 BENCH_PREFIX=fill tsx bench/fill.ts
import { newId } from "../server/ids";
import { benchClient } from "./db";

const url = process.env.DATABASE_URL!;
const roomId = process.env.BENCH_ROOM!;
const n = Number(process.env.BENCH_N);
const prefix = process.env.BENCH_PREFIX ?? "fill";
const CHUNK = 500;

const db = benchClient(url);
const author = await db.participant.findFirstOrThrow({ where: { handle: process.env.BENCH_HANDLE ?? "owner" }, select: { id: true } });
const t0 = performance.now();
let firstSeq = 0;
for (let done = 0; done < n;) {
  const k = Math.min(CHUNK, n - done);
  const base = done;
  const createdAt = new Date();
  const start = await db.$transaction(async (tx) => {
    const room = await tx.room.update({ where: { id: roomId }, data: { lastSeq: { increment: k } }, select: { lastSeq: true } });
    const from = room.lastSeq - k + 1;
    await tx.message.createMany({
      data: Array.from({ length: k }, (_, j) => ({
        id: newId(),
        roomId,
        seq: from + j,
        authorId: author.id,
        kind: "text",
        body: `${prefix} stored while the agent was away #${base + j}`,
        clientMsgId: `${prefix}-${base + j}`,
        createdAt,
      })),
    });
    return from;
  });
  if (done === 0) firstSeq = start;
  done += k;
}
console.log(JSON.stringify({ messages: n, ms: Math.round(performance.now() - t0), firstSeq }));
await db.$disconnect();
