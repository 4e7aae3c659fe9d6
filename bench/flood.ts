// `npm run bench:flood`: one socket floods the server while another room carries on. The flooding
// socket (bench/flood-attacker.ts, a process of its own at a lower CPU priority) sends `message:send`
// to its room as fast as it can, without waiting for answers, mixed with typing, sync and directory
// searches. Meanwhile a quiet room's sender posts at a steady rate to its receivers, and the server's
// memory is sampled. Targets: the quiet room's p99 under the flood within 2x of its p99 without it, and
// the server's memory bounded (no growth while the flood lasts).
//
// Phases: quiet; a control (the same flood at another server on the machine); then, REPEATS times, a
// flood by an ordinary person (the workspace's rate limits apply: the target's case) followed by a quiet
// phase; then a flood with the people's rate lifted (only the per-socket and per-room bounds hold it
// back) and a last quiet phase. One phase's p99 is decided by its 4 slowest samples, and this 2-core
// machine stalls now and then on its own, so the target is read on the median over the repeats, each
// against the median of the quiet phases. SQLite and PostgreSQL.
// Knobs: BENCH_DIALECTS, BENCH_FLOOD_SECONDS (8), BENCH_FLOOD_RATE (quiet room msgs/s, 50),
// BENCH_FLOOD_RECEIVERS (20), BENCH_FLOOD_REPEATS (3).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import path from "node:path";
import type { Socket } from "socket.io-client";
import { closeSockets, dialects, signUpPerson, startTestServer, type Dialect, type Person, type TestServer } from "../tests/integration/harness";
import { CUT_OFF_REFUSALS as FLOOD_REFUSALS, CUT_OFF_WINDOW_MS as FLOOD_WINDOW_MS, FLOOD_COOLDOWN_MS } from "../server/services/governance/request-limits";
import { recordSection } from "./sections";
import { percentile, round } from "./stats";
import { BENCH_SERVER_ENV, crowdAddress, pool, sendAcked } from "./switchboard";
import { pacedLatency, Tracker, type FanoutTarget, type LatencyResult } from "./workloads";

const ROOT = path.resolve(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 8);
const RATE = Number(process.env.BENCH_FLOOD_RATE ?? 50);
const RECEIVERS = Number(process.env.BENCH_FLOOD_RECEIVERS ?? 20);
const REPEATS = Number(process.env.BENCH_FLOOD_REPEATS ?? 3);
const ONLY = process.env.BENCH_DIALECTS?.split(",") as Dialect[] | undefined;

const log = (line: string) => console.log(`[bench:flood ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** The server's resident memory, in MiB. */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024, 1);
}

/** Samples `pid`'s memory every 250 ms until stopped. */
function memorySampler(pid: number) {
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(rssMiB(pid)), 250);
  return {
    stop() {
      clearInterval(timer);
      const half = Math.floor(samples.length / 2);
      return { maxMiB: Math.max(...samples), firstHalfMaxMiB: Math.max(...samples.slice(0, half)), secondHalfMaxMiB: Math.max(...samples.slice(half)) };
    },
  };
}

interface Attack {
  emitted: number;
  answered: number;
  outcomes: Record<string, number>;
  /** Sessions it opened, how many of them the server closed (the flood guard), handshakes refused. */
  connections: number;
  closedByServer: number;
  refusedConnections: number;
}

/** Starts the flooding process; once it is ready, `go()` starts the flood and resolves with what it saw. */
async function startAttacker(server: TestServer, person: Person, roomId: string): Promise<{ go(): Promise<Attack> }> {
  const child = spawn("nice", ["-n", "10", process.execPath, "--import", "tsx", "bench/flood-attacker.ts"], {
    cwd: ROOT,
    env: { ...process.env, BENCH_URL: server.url, BENCH_COOKIE: person.cookie, BENCH_ROOM: roomId, BENCH_SECONDS: String(SECONDS) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  const done = new Promise<Attack>((resolve, reject) =>
    child.once("exit", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code === 0 && line.startsWith("{")) resolve(JSON.parse(line) as Attack);
      else reject(new Error(`attacker failed (${code}): ${err.slice(-1000)}`));
    }),
  );
  await Promise.race([
    new Promise<void>((resolve) => child.stdout.on("data", () => out.startsWith("ready") && resolve())),
    done.then(() => Promise.reject(new Error("attacker exited before it was ready"))),
  ]);
  return {
    go() {
      child.stdin.end("go\n");
      return done;
    },
  };
}

/**
 * Has the server answer, a few times each, every kind of request the flood sends (from a member of
 * the flooded room who is not flooding). A process's first sync or directory search after it starts
 * compiles that query and its code paths: a one-time cost, paid by whoever asks first, that would
 * otherwise be counted as the flood's. A server in use has long paid it.
 */
async function warmUp(socket: Socket, roomId: string): Promise<void> {
  const ask = async (event: string, payload: unknown) => {
    const reply = (await socket.timeout(60_000).emitWithAck(event, payload)) as { ok: boolean; error?: { code: string } };
    if (!reply.ok) throw new Error(`warm-up ${event} failed: ${reply.error?.code}`);
  };
  for (let i = 0; i < 20; i++) {
    await sendAcked(socket, roomId, `warm-flooded-${i}`, `warm ${i}`);
    await ask("room:sync", { roomId, afterSeq: 0, limit: 200 });
    await ask("directory:search", { text: `a${i % 7}` });
    await ask("room:typing", { roomId });
  }
}

interface Phase {
  name: string;
  kind: "quiet" | "control" | "flood" | "lifted";
  latency: LatencyResult;
  /** The quiet room's p99 over the messages scheduled from 1 s into the phase: after the guard acted. */
  laterP99Ms: number;
  /** The longest the bench process's own event loop was held up (its receivers' clocks): a stall here is the client's, not the server's. */
  benchLoopMaxMs: number;
  memory: ReturnType<ReturnType<typeof memorySampler>["stop"]>;
  attack: Attack | null;
}

async function dialectRun(dialect: Dialect): Promise<Phase[]> {
  const server = await startTestServer(dialect, BENCH_SERVER_ENV);
  const servers = [server];
  try {
    const owner = await signUpPerson(server, { handle: "owner" });
    await owner.api.workspace.setRateExemption.mutate({ exempt: true }); // the quiet room's sender
    const { token } = await owner.api.workspace.createInvite.mutate({ maxUses: 1000 });
    // An attacker per flood phase: a flooding participant is kept out for a while (the flood guard), and each phase starts fresh.
    const attackers = await pool(
      Array.from({ length: REPEATS }, (_, i) => `mallory${i}`),
      2,
      (handle) => signUpPerson(server, { handle, inviteToken: token }),
    );
    const unlimited = await signUpPerson(server, { handle: "trudy", inviteToken: token });
    const people = await pool(
      Array.from({ length: RECEIVERS }, (_, i) => `reader${i}`),
      4,
      (handle, i) => signUpPerson(server, { handle, inviteToken: token, address: crowdAddress(i) }),
    );
    const quiet = await owner.api.rooms.createChannel.mutate({ name: "quiet", visibility: "private", memberIds: people.map((p) => p.participantId) });
    // The flooded room's third member warms the server up (below); the quiet room's sender is not in it,
    // or the flood's messages would queue on its socket ahead of the acks the bench times.
    const warden = await signUpPerson(server, { handle: "warden", inviteToken: token });
    const flooded = await warden.api.rooms.createChannel.mutate({
      name: "flooded",
      visibility: "public",
      memberIds: [...attackers, unlimited].map((a) => a.participantId),
    });
    const receivers = await pool(people, 8, (p) => p.socket({ features: ["message:batch"] }));
    const sender = await owner.socket({ features: ["message:batch"] });
    const target: FanoutTarget = { receivers: receivers as unknown as Socket[], send: async (id, text) => void (await sendAcked(sender, quiet.id, id, text)) };
    const tracker = new Tracker(receivers as unknown as Socket[], quiet.id);
    const pid = server.pid()!;
    // The control: the same flood at a second server (its own process and database) on this machine.
    // What it does to the quiet room is the machine's share (the cores the flooding process, and the
    // other server's database work, take), not this server's.
    const other = await startTestServer(dialect, BENCH_SERVER_ENV);
    servers.push(other);
    const otherAttacker = await signUpPerson(other, { handle: "mallory" });
    const otherRoom = await otherAttacker.api.rooms.createChannel.mutate({ name: "flooded", visibility: "public", memberIds: [] });
    const elsewhere = { server: other, roomId: otherRoom.id, attacker: otherAttacker };
    await pacedLatency(target, tracker, { rate: RATE, n: RATE * 2, prefix: "warm" });
    await warmUp(await warden.socket(), flooded.id);

    const phases: Phase[] = [];
    const phase = async (
      name: string,
      kind: Phase["kind"],
      flooder: Person | null,
      at: { server: TestServer; roomId: string } = { server, roomId: flooded.id },
    ) => {
      const ready = flooder ? await startAttacker(at.server, flooder, at.roomId) : null;
      const memory = memorySampler(pid);
      const benchLoop = monitorEventLoopDelay({ resolution: 5 });
      benchLoop.enable();
      const attackDone = ready ? ready.go() : Promise.resolve(null);
      let later: number[] = [];
      const keep = (samples: Float64Array, scheduledAt: Float64Array) => void (later = Array.from(samples).filter((_, i) => scheduledAt[i] >= 1000));
      const latency = await pacedLatency(target, tracker, { rate: RATE, n: RATE * SECONDS, prefix: name, stallMs: 60_000, keep });
      const laterP99Ms = round(percentile(Float64Array.from(later), 99));
      benchLoop.disable();
      const result = { name, kind, latency, laterP99Ms, benchLoopMaxMs: round(benchLoop.max / 1e6), attack: await attackDone, memory: memory.stop() };
      phases.push(result);
      log(
        `${dialect} ${name}: quiet room p50 ${latency.p50Ms} p99 ${latency.p99Ms} (from 1 s: ${laterP99Ms}) max ${latency.maxMs} ms; the bench's own event loop stalled up to ${result.benchLoopMaxMs} ms; server memory max ${result.memory.maxMiB} MiB${result.attack ? `; attacker emitted ${result.attack.emitted}, answers ${JSON.stringify(result.attack.outcomes)}, sessions ${result.attack.connections} (closed by the server ${result.attack.closedByServer}), handshakes refused ${result.attack.refusedConnections}` : ""}`,
      );
    };
    await phase("quiet", "quiet", null);
    await phase("control: the flood at another server on this machine", "control", elsewhere.attacker, elsewhere);
    for (const [i, attacker] of attackers.entries()) {
      await phase(`flood, rate-limited (${i + 1})`, "flood", attacker);
      await phase(`quiet again (${i + 1})`, "quiet", null);
    }
    await owner.api.workspace.setLimits.mutate({ peopleMessagesPerMinute: 10_000, peopleBurst: 10_000 });
    await phase("flood, rates lifted", "lifted", unlimited);
    await phase("after", "quiet", null);
    return phases;
  } finally {
    closeSockets();
    await Promise.all(servers.map((s) => s.dispose()));
  }
}

function render(results: Record<string, Phase[]>, date: string): string[] {
  const lines = [
    "## One socket flooding (`npm run bench:flood`)",
    "",
    `Run ${date}. One person's socket (a process of its own at \`nice 10\`, started before the phase) sends as fast as it can for ${SECONDS} s, never waiting for an answer: \`message:send\` to its room, with typing, sync and directory searches mixed in. Meanwhile a quiet room's sender posts ${RATE} msgs/s to ${RECEIVERS} receivers (browser sockets). Latency: scheduled send to each receiver. Before the phases the server has answered each kind of request the flood sends, a few times (a process's first sync or search after it starts compiles its queries: a one-time cost that is not the flood's). Memory: the server process's resident set, sampled every 250 ms. When the server closes the flooding socket (more than ${FLOOD_REFUSALS} of its requests refused within ${FLOOD_WINDOW_MS / 1000} s) it reconnects at once, and every 50 ms while refused (its person is kept out for ${FLOOD_COOLDOWN_MS / 1000} s). Each rate-limited flood (the workspace's default limits: the target's case) is by a person of its own and followed by a quiet phase; the rates-lifted flood (only the per-socket and per-room bounds hold it back) is shown for what those bounds alone do. Target: the quiet room's p99 during a rate-limited flood ≤ 2 × the quiet phases' median p99 (the median over ${REPEATS} floods: one phase's p99 is its 4 slowest samples, and this machine stalls now and then on its own); memory no higher in a flood's second half than in its first.`,
    "",
    "| phase | quiet room p50 / p99 / max, ms | p99 / the quiet phases' median p99 | p99 from 1 s into the phase, ms (/ the quiet phases') | server memory max, MiB (first / second half) | the flooding socket's answers |",
    "|---|---:|---:|---:|---:|---|",
  ];
  const summary: string[] = [];
  for (const [dialect, phases] of Object.entries(results)) {
    const quiet = phases.filter((p) => p.kind === "quiet");
    const base = median(quiet.map((p) => p.latency.p99Ms));
    const laterBase = median(quiet.map((p) => p.laterP99Ms));
    const floods = phases.filter((p) => p.kind === "flood");
    const ratios = floods.map((p) => round(p.latency.p99Ms / base, 2));
    const verdict = median(ratios) <= 2 ? "**met**" : "**not met**";
    summary.push(
      `- **${dialect}**: the quiet phases' median p99 ${round(base, 2)} ms; the rate-limited floods' p99 ${floods.map((p) => p.latency.p99Ms).join(", ")} ms: ${ratios.map((r) => `${r}×`).join(", ")}, median **${median(ratios)}×** (target ≤ 2×: ${verdict}); from 1 s in, ${floods.map((p) => `${round(p.laterP99Ms / laterBase, 2)}×`).join(", ")}.`,
    );
    for (const p of phases) {
      const a = p.attack;
      const answers = a
        ? `${a.emitted.toLocaleString("en")} sent: ${Object.entries(a.outcomes)
            .map(([k, v]) => `${k} ${v.toLocaleString("en")}`)
            .join(", ")}; ${a.connections} sessions, ${a.closedByServer} closed by the server, ${a.refusedConnections} handshakes refused`
        : "";
      lines.push(
        `| ${dialect}: ${p.name} | ${p.latency.p50Ms} / ${p.latency.p99Ms} / ${p.latency.maxMs} | ${round(p.latency.p99Ms / base, 2)} | ${p.laterP99Ms} (${round(p.laterP99Ms / laterBase, 2)}) | ${p.memory.maxMiB} (${p.memory.firstHalfMaxMiB} / ${p.memory.secondHalfMaxMiB}) | ${answers} |`,
      );
    }
  }
  lines.push("", ...summary, "");
  return lines;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return round(sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2, 2);
}

async function main() {
  const results: Record<string, Phase[]> = {};
  for (const dialect of ["sqlite", "postgresql"] as Dialect[]) {
    if ((ONLY && !ONLY.includes(dialect)) || !dialects.includes(dialect)) continue;
    results[dialect] = await dialectRun(dialect);
  }
  const date = new Date().toISOString();
  recordSection("flood", { date, results }, "flood", render(results, date));
  log("done: bench/RESULTS.md, bench/results.json");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
