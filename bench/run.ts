// `npm run bench`: Switchboard's fan-out and catch-up benchmark. One room, 50 receiving clients, all on
// loopback on this machine. See bench/RESULTS.md for the method and the last run's figures.
//
//   W1  raw Socket.IO broadcast, no persistence (the ceiling)            msgs/s delivered to all 50
//   W2  Switchboard persisted fan-out (real server, API-only)            msgs/s delivered to all 50, W2/W1
//   W3  latency send -> each receiver at 50% of W1's rate, raw vs persisted (p50/p99)
//   W4  catch-up of 1,000 and 10,000 missed messages by an agent in mode `all` (SDK and raw socket)
//
// Each workload runs on SQLite and on PostgreSQL (skipped, loudly, when unreachable). Not part of `npm test`.
//
// Knobs: BENCH_DIALECTS=sqlite|postgresql, BENCH_RECEIVERS, BENCH_MESSAGES, BENCH_WINDOW,
// BENCH_W3_SECONDS, BENCH_W3_ROUNDS, BENCH_CATCHUP=1000,10000, BENCH_WAIT_QUIET=<s> (wait for the machine to settle),
// BENCH_PROFILE=<dir> (CPU profile of the breakdown's sends), SWITCHBOARD_SERVER_CPU_PROF=<dir> (the
// server processes' own V8 CPU profiles, written when they stop; open them in Chrome DevTools).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { io, type Socket } from "socket.io-client";
import { closeSockets, dialects, PG_URL, startTestServer, type Dialect, type TestServer } from "../tests/integration/harness";
import { killChildren, runScript } from "./child";
import { renderResults, type Breakdown } from "./report";
import { OTHER_BENCHMARKS } from "./sections";
import { BENCH_SERVER_ENV, catchUpCase, fanoutRoom, type CatchUpCase } from "./switchboard";
import { childPids, cpuMeter, round, type CpuReport } from "./stats";
import { pacedLatency, pooled, throughput, Tracker, type FanoutTarget, type LatencyResult, type PooledLatency, type ThroughputResult } from "./workloads";

const ROOT = path.resolve(import.meta.dirname, "..");
const RECEIVERS = Number(process.env.BENCH_RECEIVERS ?? 50);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 32);
const WARMUP = 200;
const RAW_ROOM = "bench";
const W3_SECONDS = Number(process.env.BENCH_W3_SECONDS ?? 4);
/** W3 rounds per side, raw and persisted alternating; each side's p50 and p99 are over all its rounds' samples. */
const W3_ROUNDS = Number(process.env.BENCH_W3_ROUNDS ?? 3);
/** Paced sends at the W3 rate before each W3 measurement, not measured: latency in steady state, not just after W1's or W2's saturation. */
const W3_WARMUP_SECONDS = 1;
const CATCHUP = (process.env.BENCH_CATCHUP ?? "1000,10000").split(",").map(Number);
const FILL_SOCKETS = 4;
/** How W4's missed messages are stored: `bulk` (fast, bench/fill.ts) or `api` (message:send from several sockets; slow). */
const FILL = (process.env.BENCH_FILL ?? "bulk") as "bulk" | "api";
const ONLY = process.env.BENCH_DIALECTS?.split(",") as Dialect[] | undefined;

const log = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

// ---- cleanup: whatever happens, child processes stop and schemas are dropped ----
const cleanups = new Set<() => Promise<void>>();
async function cleanupAll(): Promise<void> {
  closeSockets();
  killChildren();
  for (const c of [...cleanups].reverse()) await c().catch(() => {});
  cleanups.clear();
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    log(`${signal}: cleaning up`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

// ---- W1: the raw Socket.IO server ----
async function startRawServer(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "bench/raw-server.ts"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`raw server did not start: ${out}`)), 30_000);
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /raw server at (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
    child.once("exit", (code) => reject(new Error(`raw server exited (${code}): ${out}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  };
  cleanups.add(stop);
  return { url, pid: child.pid!, stop };
}

function rawSocket(url: string): Promise<Socket> {
  const socket = io(url, { path: "/socket.io", transports: ["websocket"], reconnection: false });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });
}

interface RawPhase {
  W1: ThroughputResult & { cpu: CpuReport; order: OrderCounts };
  W3: PooledLatency & { order: OrderCounts };
}

type OrderCounts = ReturnType<Tracker["counts"]>;
const diff = (a: OrderCounts, b: OrderCounts): OrderCounts => ({
  jumps: a.jumps - b.jumps,
  reordered: a.reordered - b.reordered,
  duplicates: a.duplicates - b.duplicates,
});

/** The raw server with its receivers and sender, kept up through W3 (whose rounds alternate with Switchboard's). */
interface RawSide {
  pid: number;
  target: FanoutTarget;
  tracker: Tracker;
  stop(): Promise<void>;
}

async function startRawSide(): Promise<RawSide> {
  const server = await startRawServer();
  const receivers = await Promise.all(Array.from({ length: RECEIVERS }, () => rawSocket(server.url)));
  const sender = await rawSocket(server.url);
  const target: FanoutTarget = {
    receivers,
    send: (clientMsgId, body) =>
      sender
        .timeout(60_000)
        .emitWithAck("send", { roomId: RAW_ROOM, body, clientMsgId })
        .then((r: { ok: boolean }) => {
          if (!r.ok) throw new Error("raw send refused");
        }),
  };
  const stop = async () => {
    for (const s of [...receivers, sender]) s.disconnect();
    await server.stop();
    cleanups.delete(server.stop);
  };
  return { pid: server.pid, target, tracker: new Tracker(receivers, RAW_ROOM), stop };
}

async function measureW1(raw: RawSide): Promise<RawPhase["W1"]> {
  await throughput(raw.target, raw.tracker, { n: WARMUP, window: WINDOW, prefix: "w1-warm" });
  const meter = cpuMeter(raw.pid);
  const W1 = await throughput(raw.target, raw.tracker, { n: MESSAGES, window: WINDOW, prefix: "w1" });
  const cpu = meter.stop();
  log(`W1 raw: ${W1.msgsPerS} msgs/s to all ${RECEIVERS} (${W1.deliveriesPerS} deliveries/s) cpu ${JSON.stringify(cpu)}`);
  return { ...W1, cpu, order: raw.tracker.counts() };
}

const w3Count = (rate: number) => Math.max(400, Math.min(4000, Math.round(rate * W3_SECONDS)));

/** One W3 round on one side: paced sends at `rate` for W3_WARMUP_SECONDS unmeasured, then measured. */
async function w3Round(target: FanoutTarget, tracker: Tracker, rate: number, prefix: string) {
  await pacedLatency(target, tracker, { rate, n: Math.round(rate * W3_WARMUP_SECONDS), prefix: `${prefix}-warm` });
  let samples = new Float64Array(0);
  const result = await pacedLatency(target, tracker, { rate, n: w3Count(rate), prefix, keep: (s) => (samples = Float64Array.from(s)) });
  return { result, samples };
}

interface SwitchboardPhase {
  setupMs: number;
  W2: ThroughputResult & { cpu: CpuReport; order: OrderCounts };
  W3: PooledLatency & { cpu: CpuReport; order: OrderCounts; stolen: { raw: number; persisted: number }[] };
  W3_own: LatencyResult & { order: OrderCounts };
  W4: Record<string, CatchUpCase>;
  breakdown: Breakdown | null;
}

/** The per-send statement breakdown (bench/breakdown.ts) on the benchmark's own database. */
async function runBreakdown(databaseUrl: string, roomId: string, replay?: CatchUpCase): Promise<Breakdown | null> {
  // BENCH_PROFILE=<dir> also keeps the V8 CPU profile of the profiled sends there (open it in Chrome DevTools).
  try {
    return await runScript<Breakdown>("bench/breakdown.ts", {
      DATABASE_URL: databaseUrl,
      BENCH_ROOM: roomId,
      BENCH_HANDLE: "owner",
      BENCH_REPLAY_ROOM: replay?.roomId ?? "",
      BENCH_REPLAY_AGENT: replay?.agentId ?? "",
      ...(process.env.BENCH_PROFILE ? { BENCH_PROFILE: path.resolve(process.env.BENCH_PROFILE) } : {}),
    });
  } catch (error) {
    log(`breakdown failed: ${String(error)}`);
    return null;
  }
}

/**
 * BENCH_WAIT_QUIET=<s>: before each database's run, wait up to that long for other work on the machine
 * to settle (three one-second samples in a row under 20% busy).
 */
async function waitQuiet(): Promise<void> {
  const limit = Number(process.env.BENCH_WAIT_QUIET ?? 0) * 1000;
  if (limit <= 0) return;
  const until = performance.now() + limit;
  let quiet = 0;
  let said = 0;
  while (quiet < 3 && performance.now() < until) {
    const busy = await backgroundBusy();
    quiet = busy < 0.2 ? quiet + 1 : 0;
    if (quiet === 0 && performance.now() - said > 10_000) {
      said = performance.now();
      log(`background CPU ${Math.round(busy * 100)}%: waiting for the machine to quieten`);
    }
  }
}

/** Background CPU: how busy the machine is over one second while the bench does nothing. */
async function backgroundBusy(): Promise<number> {
  const meter = cpuMeter(null);
  await new Promise((r) => setTimeout(r, 1000));
  return meter.stop().machineBusy;
}

/**
 * One database's run: W1 on the raw server, W2 on Switchboard, then W3 in rounds that alternate
 * between the two (both stay up, so each round of one has the other's conditions next to it), W3',
 * and W4 once the raw server is gone.
 */
async function dialectRun(dialect: Dialect): Promise<{ raw: RawPhase; sb: SwitchboardPhase }> {
  const raw = await startRawSide();
  cleanups.add(raw.stop);
  let rawStopped = false;
  const stopRaw = async () => {
    if (rawStopped) return;
    rawStopped = true;
    cleanups.delete(raw.stop);
    await raw.stop();
  };
  const server: TestServer = await startTestServer(dialect, BENCH_SERVER_ENV);
  const dispose = () => server.dispose();
  cleanups.add(dispose);
  try {
    const W1 = await measureW1(raw);
    const w3Rate = W1.msgsPerS / 2;
    const serverPid = childPids(process.pid, "server/index.ts")[0] ?? null;
    const room = await fanoutRoom(server, RECEIVERS);
    log(`${dialect}: server up, ${RECEIVERS} people in one private room, connected (${room.setupMs} ms)`);
    const tracker = new Tracker(room.receivers as unknown as Socket[], room.roomId);
    await throughput(room.target, tracker, { n: WARMUP, window: WINDOW, prefix: "w2-warm" });
    const meter = cpuMeter(serverPid);
    const W2 = await throughput(room.target, tracker, { n: MESSAGES, window: WINDOW, prefix: "w2" });
    const cpu = meter.stop();
    const o2 = tracker.counts();
    log(`W2 ${dialect}: ${W2.msgsPerS} msgs/s to all ${RECEIVERS} cpu ${JSON.stringify(cpu)}`);

    const rawO1 = raw.tracker.counts();
    const rawRounds = [];
    const sbRounds = [];
    const cpus: CpuReport[] = [];
    const stolen: { raw: number; persisted: number }[] = [];
    for (let i = 0; i < W3_ROUNDS; i++) {
      const m1 = cpuMeter(raw.pid);
      rawRounds.push(await w3Round(raw.target, raw.tracker, w3Rate, `w3-raw-${i}`));
      const rawCpu = m1.stop();
      const m3 = cpuMeter(serverPid);
      sbRounds.push(await w3Round(room.target, tracker, w3Rate, `w3-sb-${i}`));
      cpus.push(m3.stop());
      stolen.push({ raw: rawCpu.stolenCores, persisted: cpus[i].stolenCores });
      log(
        `W3 round ${i + 1}/${W3_ROUNDS} @ ${round(w3Rate, 0)}/s: raw p50 ${rawRounds[i].result.p50Ms} p99 ${rawRounds[i].result.p99Ms} ms; ${dialect} p50 ${sbRounds[i].result.p50Ms} p99 ${sbRounds[i].result.p99Ms} ms (stolen by the hypervisor: ${stolen[i].raw} / ${stolen[i].persisted} cores)`,
      );
    }
    const rawW3 = { ...pooled(rawRounds), order: diff(raw.tracker.counts(), rawO1) };
    const W3 = { ...pooled(sbRounds), cpu: meanCpu(cpus), order: diff(tracker.counts(), o2), stolen };
    log(`W3 ${dialect}, all rounds: raw p50 ${rawW3.p50Ms} p99 ${rawW3.p99Ms} ms; persisted p50 ${W3.p50Ms} p99 ${W3.p99Ms} ms`);
    await stopRaw();
    const o3 = tracker.counts();
    const ownRate = W2.msgsPerS / 2;
    const W3_own = await pacedLatency(room.target, tracker, { rate: ownRate, n: w3Count(ownRate), prefix: "w3-own" });
    log(`W3' ${dialect} @ ${round(ownRate, 0)}/s (50% of W2): p50 ${W3_own.p50Ms} ms, p99 ${W3_own.p99Ms} ms`);
    const o4 = tracker.counts();
    for (const s of [...room.receivers, room.sender]) s.disconnect();

    const W4: Record<string, CatchUpCase> = {};
    for (const n of CATCHUP) {
      const c = await catchUpCase(server, room.owner, n, { method: FILL, sockets: FILL_SOCKETS });
      W4[String(n)] = c;
      log(
        `W4 ${dialect} ${n}: fill (${c.fill.method}) ${c.fill.msgsPerS} msgs/s; SDK catch-up ${c.sdk.ms} ms (ok=${c.sdk.ok}); raw socket ${c.raw.ms} ms in ${c.raw.pages} pages (ok=${c.raw.ok})`,
      );
    }
    const breakdown = await runBreakdown(server.databaseUrl, room.roomId, W4[String(Math.max(...CATCHUP))]);
    if (breakdown) {
      const b = breakdown.sendMessage;
      log(`breakdown ${dialect}: one send alone ${b.wallMeanMs} ms wall, ${b.statementsPerCall} statements taking ${b.statementMsPerCall} ms`);
      if (breakdown.replay)
        log(
          `breakdown ${dialect}: replay of ${breakdown.replay.messages} reads ${breakdown.replay.pages} pages in ${breakdown.replay.readMs} ms, JSON ${breakdown.replay.stringifyMs} ms`,
        );
    }
    return {
      raw: { W1, W3: rawW3 },
      sb: { setupMs: room.setupMs, W2: { ...W2, cpu, order: o2 }, W3, W3_own: { ...W3_own, order: diff(o4, o3) }, W4, breakdown },
    };
  } finally {
    closeSockets();
    await stopRaw();
    await server.dispose();
    cleanups.delete(dispose);
  }
}

/** The mean of equally long CPU intervals. */
function meanCpu(reports: CpuReport[]): CpuReport {
  const mean = (f: (r: CpuReport) => number) => round(reports.reduce((a, r) => a + f(r), 0) / reports.length, 3);
  return {
    wallS: mean((r) => r.wallS),
    clientCores: mean((r) => r.clientCores),
    serverCores: mean((r) => r.serverCores),
    machineBusy: mean((r) => r.machineBusy),
    otherCores: mean((r) => r.otherCores),
    stolenCores: mean((r) => r.stolenCores),
  };
}

async function versions() {
  const { default: Database } = await import("better-sqlite3");
  const mem = new Database(":memory:");
  const sqlite = (mem.prepare("select sqlite_version() as v").get() as { v: string }).v;
  mem.close();
  let postgresql: string | null = null;
  if (dialects.includes("postgresql")) {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    postgresql = ((await c.query("show server_version")).rows[0] as { server_version: string }).server_version;
    await c.end();
  }
  return { sqlite, postgresql };
}

async function main() {
  const started = performance.now();
  const v = await versions();
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    date: new Date().toISOString(),
    sqlite: v.sqlite,
    postgresql: v.postgresql,
    note: "server, clients and PostgreSQL all share this machine's cores, over loopback",
  };
  let waited = 0;
  log(`machine: ${machine.cpus} x ${machine.cpuModel}, ${machine.memoryGiB} GiB, node ${machine.node}`);
  const results: Record<string, unknown> = {
    machine,
    config: {
      receivers: RECEIVERS,
      messages: MESSAGES,
      window: WINDOW,
      warmup: WARMUP,
      w3Seconds: W3_SECONDS,
      w3Rounds: W3_ROUNDS,
      w3WarmupSeconds: W3_WARMUP_SECONDS,
      catchUp: CATCHUP,
      fill: FILL,
      fillSockets: FILL_SOCKETS,
    },
  };
  for (const dialect of ["sqlite", "postgresql"] as Dialect[]) {
    if (ONLY && !ONLY.includes(dialect)) continue;
    if (!dialects.includes(dialect)) {
      console.warn(`\n!!! PostgreSQL at ${PG_URL} is unreachable: SKIPPING the PostgreSQL benchmark !!!\n`);
      results[dialect] = { skipped: `PostgreSQL at ${PG_URL} unreachable` };
      continue;
    }
    const t = performance.now();
    await waitQuiet();
    waited += performance.now() - t;
    const idle = await backgroundBusy();
    log(`---- ${dialect} ---- (background CPU while idle: ${Math.round(idle * 100)}% of the machine, load ${os.loadavg()[0].toFixed(2)})`);
    const { raw, sb } = await dialectRun(dialect);
    results[dialect] = { ...summarize(raw, sb), background_busy_before: idle, loadavg_1m_before: round(os.loadavg()[0]) };
  }
  results.totalSeconds = round((performance.now() - started) / 1000, 1);
  results.secondsWaitingForQuiet = round(waited / 1000, 1);
  const jsonFile = path.join(ROOT, "bench/results.json");
  const before = existsSync(jsonFile) ? (JSON.parse(readFileSync(jsonFile, "utf8")) as Record<string, unknown>) : {};
  // The other benchmarks' results stay.
  for (const { key } of OTHER_BENCHMARKS) if (before[key] !== undefined) results[key] = before[key];
  writeFileSync(jsonFile, JSON.stringify(results, null, 2) + "\n");
  const mdFile = path.join(ROOT, "bench/RESULTS.md");
  writeFileSync(mdFile, renderResults(results, existsSync(mdFile) ? readFileSync(mdFile, "utf8") : ""));
  log(`done in ${results.totalSeconds} s: bench/results.json, bench/RESULTS.md`);
}

function summarize(raw: RawPhase, sb: SwitchboardPhase) {
  const w2OverW1 = sb.W2.msgsPerS / raw.W1.msgsPerS;
  const w3Limit = 2 * raw.W3.p99Ms + 5;
  const w4 = sb.W4["10000"];
  return {
    W1_msgs_per_s: raw.W1.msgsPerS,
    W2_msgs_per_s: sb.W2.msgsPerS,
    W2_over_W1: round(w2OverW1, 3),
    W3_rate_msgs_per_s: raw.W3.rounds[0].ratePerS,
    W3_rounds: raw.W3.rounds.length,
    W3_raw_p99_ms_by_round: raw.W3.rounds.map((r) => r.p99Ms),
    W3_persisted_p99_ms_by_round: sb.W3.rounds.map((r) => r.p99Ms),
    W3_stolen_cores_by_round: sb.W3.stolen,
    W3_raw_p50_ms: raw.W3.p50Ms,
    W3_raw_p99_ms: raw.W3.p99Ms,
    W3_persisted_p50_ms: sb.W3.p50Ms,
    W3_persisted_p99_ms: sb.W3.p99Ms,
    W3_persisted_limit_p99_ms: round(w3Limit),
    W3_persisted_at_half_W2_rate_msgs_per_s: sb.W3_own.ratePerS,
    W3_persisted_at_half_W2_p50_ms: sb.W3_own.p50Ms,
    W3_persisted_at_half_W2_p99_ms: sb.W3_own.p99Ms,
    W1_server_cpu_ms_per_msg: round((raw.W1.cpu.serverCores * raw.W1.cpu.wallS * 1000) / raw.W1.messages, 3),
    W2_server_cpu_ms_per_msg: round((sb.W2.cpu.serverCores * sb.W2.cpu.wallS * 1000) / sb.W2.messages, 3),
    W1_client_cpu_ms_per_msg: round((raw.W1.cpu.clientCores * raw.W1.cpu.wallS * 1000) / raw.W1.messages, 3),
    W2_client_cpu_ms_per_msg: round((sb.W2.cpu.clientCores * sb.W2.cpu.wallS * 1000) / sb.W2.messages, 3),
    W4_1000_ms: sb.W4["1000"]?.sdk.ms ?? null,
    W4_10000_ms: w4?.sdk.ms ?? null,
    W4_1000_raw_socket_ms: sb.W4["1000"]?.raw.ms ?? null,
    W4_10000_raw_socket_ms: w4?.raw.ms ?? null,
    W4_verified: Object.values(sb.W4).every((c) => c.sdk.ok && c.raw.ok),
    fill_msgs_per_s: Object.fromEntries(Object.entries(sb.W4).map(([n, c]) => [n, c.fill.msgsPerS])),
    targets: {
      W2_ge_half_W1: { met: w2OverW1 >= 0.5, value: round(w2OverW1, 3), target: ">= 0.5" },
      W3_p99: { met: sb.W3.p99Ms <= w3Limit, value: sb.W3.p99Ms, target: `<= ${round(w3Limit)} ms (2 x raw p99 + 5)` },
      W4_10000: { met: !!w4 && w4.sdk.ok && w4.sdk.ms <= 1000, value: w4?.sdk.ms ?? null, target: "<= 1000 ms, no gap or duplicate" },
    },
    detail: { raw, switchboard: sb },
  };
}

main()
  .catch(async (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanupAll();
    process.exit(process.exitCode ?? 0);
  });
