// `npm run bench:activity`: what a turn streamed live costs the send path. W2 (fan-out throughput to 50
// people in one room) in rounds that alternate between a quiet server and the same server while an
// agent streams a turn's activity in another room (a batch of 5 steps every 100 ms, as the SDK sends a
// busy turn, watched by 10 people there), on SQLite and PostgreSQL. Target: W2 with activity within 5%
// of W2 without.
import type { Socket } from "socket.io-client";
import { randomUUID } from "node:crypto";
import { closeSockets, connectedAgent, dialects, startTestServer, type Dialect } from "../tests/integration/harness";
import { recordSection } from "./sections";
import { round } from "./stats";
import { BENCH_SERVER_ENV, fanoutRoom } from "./switchboard";
import { throughput, Tracker } from "./workloads";

const RECEIVERS = Number(process.env.BENCH_RECEIVERS ?? 50);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 6000);
const ROUNDS = Number(process.env.BENCH_ACTIVITY_ROUNDS ?? 8);
const WINDOW = 32;
const ONLY = process.env.BENCH_DIALECTS?.split(",") as Dialect[] | undefined;
const log = (line: string) => console.log(`[bench:activity ${new Date().toISOString().slice(11, 19)}] ${line}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const results: Record<string, { quiet: number[]; withActivity: number[]; ratio: number; batchesSent: number }> = {};
for (const dialect of ONLY ?? dialects) {
  const server = await startTestServer(dialect, BENCH_SERVER_ENV);
  try {
    const room = await fanoutRoom(server, RECEIVERS);
    const tracker = new Tracker(room.receivers as unknown as Socket[], room.roomId);
    // The agent and the room it works in, with ten of the readers watching there.
    const agent = await connectedAgent(server, room.owner, "streamer");
    const watched = await room.owner.api.rooms.createChannel.mutate({
      name: "bench-activity",
      visibility: "private",
      memberIds: [
        agent.id,
        ...(await room.owner.api.rooms.members.query({ roomId: room.roomId }))
          .filter((m) => m.participant.kind === "human" && m.participant.id !== room.owner.participantId)
          .slice(0, 10)
          .map((m) => m.participant.id),
      ],
    });
    const asked = await room.owner.api.messages.send.mutate({ roomId: watched.id, body: "@streamer go", clientMsgId: randomUUID() });
    await throughput(room.target, tracker, { n: 200, window: WINDOW, prefix: "warm" });

    /** Streams a turn's steps until stopped: a batch of five every 100 ms, each new (a busy tool loop). */
    let batches = 0;
    const stream = () => {
      let on = true;
      const done = (async () => {
        const turn = await agent.client.startTurn({ messageId: asked.id, runtime: "bench" });
        while (on) {
          const steps = Array.from({ length: 5 }, (_, i) => ({
            key: `s${batches}-${i}`,
            kind: "tool" as const,
            title: `Bash npm test -- shard ${i}`,
            status: "done" as const,
            detail: "ok",
          }));
          await agent.client.reportTurnSteps({ turnId: turn.id, steps, usage: { inputTokens: batches * 100, outputTokens: batches * 10 } });
          batches++;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await agent.client.endTurn({ turnId: turn.id, state: "done" });
      })();
      return async () => {
        on = false;
        await done;
      };
    };

    const quiet: number[] = [];
    const withActivity: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const busy of r % 2 === 0 ? [false, true] : [true, false]) {
        const stop = busy ? stream() : null;
        const result = await throughput(room.target, tracker, { n: MESSAGES, window: WINDOW, prefix: `w2-${r}-${busy}` });
        await stop?.();
        (busy ? withActivity : quiet).push(result.msgsPerS);
      }
      log(`${dialect} round ${r + 1}: quiet ${quiet[r]} msgs/s, with activity ${withActivity[r]} msgs/s`);
    }
    results[dialect] = { quiet, withActivity, ratio: round(median(withActivity) / median(quiet), 3), batchesSent: batches };
    log(`${dialect}: W2 with activity / quiet = ${results[dialect].ratio} (${batches} step batches streamed)`);
  } finally {
    closeSockets();
    await server.dispose();
  }
}

const at = new Date().toISOString();
recordSection("activity", { at, results }, "activity", [
  "## What a turn streamed live costs the send path (`npm run bench:activity`)",
  "",
  `Run ${at} on this machine: W2 (${MESSAGES} messages, window ${WINDOW}, to ${RECEIVERS} people in one room) in ${ROUNDS} rounds alternating between a quiet server and the same server while an agent streams a turn in another room (five steps every 100 ms, ten people watching). Target: within 5%.`,
  "",
  "| database | W2 quiet, msgs/s (median) | W2 with activity (median) | ratio | each round, quiet / with |",
  "|---|---:|---:|---:|---|",
  ...Object.entries(results).map(
    ([d, r]) => `| ${d} | ${median(r.quiet)} | ${median(r.withActivity)} | ${r.ratio} | ${r.quiet.map((q, i) => `${q} / ${r.withActivity[i]}`).join(", ")} |`,
  ),
]);
log("done: bench/RESULTS.md, bench/results.json");
