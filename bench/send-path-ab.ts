// `npm run bench:ab`: the send path now against the send path at an earlier commit, in the same run on
// the same machine: W2 (fan-out throughput), W3 (latency at a fixed rate) and W4 (catch-up), each in
// rounds that alternate between the two servers (both up all along), on SQLite and PostgreSQL. It
// answers "what did this change cost or buy", which separate runs on a shared 2-core machine cannot.
//
//   BENCH_BASELINE=<git rev> (default 9633f02, the send path before issue 13's redesign)
//   BENCH_DIALECTS=sqlite|postgresql, BENCH_RECEIVERS (50), BENCH_MESSAGES (2000), BENCH_AB_ROUNDS (3)
//   BENCH_AB_BARE=1: receivers without `message:batch` (one `message:new` per message, as a bare
//   Socket.IO client gets them), W2 only, the server's CPU per delivery; its own section.
//
// The baseline is checked out into a temporary git worktree next to this one, with this checkout's
// node_modules hard-linked in and its own Prisma clients generated. Writes its section of
// bench/RESULTS.md and `sendPathAB` in bench/results.json.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Socket } from "socket.io-client";
import { closeSockets, dialects, startTestServer, type Dialect, type TestServer } from "../tests/integration/harness";
import { killChildren } from "./child";
import { recordSection } from "./sections";
import { cpuMeter, round } from "./stats";
import { BENCH_SERVER_ENV, catchUpCase, fanoutRoom, type FanoutRoom } from "./switchboard";
import { pacedLatency, pooled, throughput, Tracker, type LatencyResult } from "./workloads";

const ROOT = path.resolve(import.meta.dirname, "..");
const BASELINE = process.env.BENCH_BASELINE ?? "9633f02";
const RECEIVERS = Number(process.env.BENCH_RECEIVERS ?? 50);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 3);
const WINDOW = 32;
const W3_SECONDS = 4;
const CATCHUP = 10_000;
const ONLY = process.env.BENCH_DIALECTS?.split(",") as Dialect[] | undefined;
const BARE = process.env.BENCH_AB_BARE === "1";

const log = (line: string) => console.log(`[bench:ab ${new Date().toISOString().slice(11, 19)}] ${line}`);
const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();

/** A worktree of the baseline commit that can run its server: node_modules linked, its own Prisma clients. */
function checkoutBaseline(): { dir: string; commit: string; remove(): void } {
  const commit = git("rev-parse", "--short", BASELINE);
  const dir = path.join(mkdtempSync(path.join(tmpdir(), "switchboard-baseline-")), "checkout");
  git("worktree", "add", "--detach", dir, commit);
  execFileSync("cp", ["-al", path.join(ROOT, "node_modules"), path.join(dir, "node_modules")]);
  execFileSync(process.execPath, ["scripts/prisma-generate.mjs"], { cwd: dir, stdio: "ignore" });
  return {
    dir,
    commit,
    remove: () => {
      git("worktree", "remove", "--force", dir);
      rmSync(path.dirname(dir), { recursive: true, force: true });
    },
  };
}

interface Side {
  name: "before" | "after";
  server: TestServer;
  room: FanoutRoom;
  tracker: Tracker;
}

async function side(name: Side["name"], dialect: Dialect, root: string | undefined): Promise<Side> {
  const server = await startTestServer(dialect, BENCH_SERVER_ENV, { root });
  const room = await fanoutRoom(server, RECEIVERS, { batch: !BARE });
  const tracker = new Tracker(room.receivers as unknown as Socket[], room.roomId);
  await throughput(room.target, tracker, { n: 200, window: WINDOW, prefix: `${name}-warm` });
  return { name, server, room, tracker };
}

/** W2 in ROUNDS rounds alternating between the sides: msgs/s, and the server's CPU per message sent (ms). */
async function w2Rounds(dialect: Dialect, sides: Side[]) {
  const w2: Record<string, number[]> = { before: [], after: [] };
  /** Steadier than throughput on a machine shared with other work. */
  const cpu: Record<string, number[]> = { before: [], after: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const s of r % 2 === 0 ? sides : [...sides].reverse()) {
      const meter = cpuMeter(s.server.pid());
      const result = await throughput(s.room.target, s.tracker, { n: MESSAGES, window: WINDOW, prefix: `w2-${s.name}-${r}` });
      const used = meter.stop();
      w2[s.name].push(result.msgsPerS);
      cpu[s.name].push(round((used.serverCores * used.wallS * 1000) / MESSAGES, 3));
    }
    log(
      `${dialect} W2 round ${r + 1}: before ${w2.before[r]} msgs/s (server CPU ${cpu.before[r]} ms/msg), after ${w2.after[r]} msgs/s (${cpu.after[r]} ms/msg)`,
    );
  }
  return { w2, cpu };
}

/** Bare receivers (BENCH_AB_BARE): W2 only, and what each delivery costs the server. */
async function bareRun(dialect: Dialect, baselineDir: string) {
  const sides = [await side("before", dialect, baselineDir), await side("after", dialect, undefined)];
  try {
    const { w2, cpu } = await w2Rounds(dialect, sides);
    const perDelivery = (name: string) => cpu[name].map((ms) => round((ms * 1000) / RECEIVERS, 2));
    return {
      msgsPerS: { before: w2.before, after: w2.after },
      serverCpuUsPerDelivery: { before: perDelivery("before"), after: perDelivery("after") },
      order: Object.fromEntries(sides.map((s) => [s.name, s.tracker.counts()])),
    };
  } finally {
    closeSockets();
    for (const s of sides) await s.server.dispose();
  }
}

async function dialectRun(dialect: Dialect, baselineDir: string) {
  const before = await side("before", dialect, baselineDir);
  const after = await side("after", dialect, undefined);
  try {
    const sides = [before, after];
    const { w2, cpu } = await w2Rounds(dialect, sides);
    // W3 at one rate for both: half the slower side's W2.
    const rate = Math.min(median(w2.before), median(w2.after)) / 2;
    const w3: Record<string, { result: LatencyResult; samples: Float64Array }[]> = { before: [], after: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const s of r % 2 === 0 ? sides : [...sides].reverse()) {
        await pacedLatency(s.room.target, s.tracker, { rate, n: Math.round(rate), prefix: `w3-${s.name}-${r}-warm` });
        let samples = new Float64Array(0);
        const result = await pacedLatency(s.room.target, s.tracker, {
          rate,
          n: Math.round(rate * W3_SECONDS),
          prefix: `w3-${s.name}-${r}`,
          keep: (x) => (samples = Float64Array.from(x)),
        });
        w3[s.name].push({ result, samples });
      }
      log(
        `${dialect} W3 round ${r + 1} @ ${round(rate, 0)}/s: before p50 ${w3.before[r].result.p50Ms} p99 ${w3.before[r].result.p99Ms} ms; after p50 ${w3.after[r].result.p50Ms} p99 ${w3.after[r].result.p99Ms} ms`,
      );
    }
    for (const s of sides) for (const socket of [...s.room.receivers, s.room.sender]) socket.disconnect();
    const w4: Record<string, { sdkMs: number; rawMs: number; ok: boolean }> = {};
    for (const s of sides) {
      const c = await catchUpCase(s.server, s.room.owner, CATCHUP, { method: "bulk", sockets: 1 });
      w4[s.name] = { sdkMs: c.sdk.ms, rawMs: c.raw.ms, ok: c.sdk.ok && c.raw.ok };
      log(`${dialect} W4 ${CATCHUP} ${s.name}: SDK ${c.sdk.ms} ms, raw socket ${c.raw.ms} ms (ok=${w4[s.name].ok})`);
    }
    const order = Object.fromEntries(sides.map((s) => [s.name, s.tracker.counts()]));
    const p = (name: string) => pooled(w3[name]);
    return {
      W2: {
        before: w2.before,
        after: w2.after,
        medianBefore: median(w2.before),
        medianAfter: median(w2.after),
        ratio: round(median(w2.after) / median(w2.before), 3),
        serverCpuMsPerMsg: { before: round(median(cpu.before), 3), after: round(median(cpu.after), 3) },
      },
      W3: {
        rate: round(rate, 0),
        before: { p50: p("before").p50Ms, p99: p("before").p99Ms, p99ByRound: w3.before.map((x) => x.result.p99Ms) },
        after: { p50: p("after").p50Ms, p99: p("after").p99Ms, p99ByRound: w3.after.map((x) => x.result.p99Ms) },
      },
      W4: w4,
      order,
    };
  } finally {
    closeSockets();
    await before.server.dispose();
    await after.server.dispose();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

type DialectResult = Awaited<ReturnType<typeof dialectRun>>;

function render(results: { baseline: string; head: string; date: string; dialects: Record<string, DialectResult> }): string[] {
  const lines = [
    "## The send path, before and after (same run: `npm run bench:ab`)",
    "",
    `Run ${results.date}: the server at \`${results.baseline}\` (before) and at \`${results.head}\` (after), both up at once on fresh databases, ${RECEIVERS} receivers each taking \`message:batch\` as the browser does; rounds alternate between them (W2 ${MESSAGES} messages per round, ${ROUNDS} rounds; W3 ${W3_SECONDS} s per round after 1 s unmeasured, at one rate for both: half the slower side's W2; W4 ${CATCHUP.toLocaleString("en")} missed messages, SDK and raw socket, verified).`,
    "",
    "| | SQLite before | SQLite after | PostgreSQL before | PostgreSQL after |",
    "|---|---:|---:|---:|---:|",
  ];
  const d = (name: string) => results.dialects[name];
  const cell = (name: string, f: (r: DialectResult) => [string, string]) => (d(name) ? f(d(name)) : ["–", "–"]);
  const row = (label: string, f: (r: DialectResult) => [string, string]) =>
    lines.push(`| ${label} | ${[...cell("sqlite", f), ...cell("postgresql", f)].join(" | ")} |`);
  row("W2 msgs/s to all, median of rounds", (r) => [String(Math.round(r.W2.medianBefore * 100) / 100), String(Math.round(r.W2.medianAfter * 100) / 100)]);
  row("W2 each round", (r) => [r.W2.before.join(", "), r.W2.after.join(", ")]);
  row("**W2 after / before**", (r) => ["", `**${r.W2.ratio}**`]);
  row("W2 server CPU per message, ms (median)", (r) => [String(r.W2.serverCpuMsPerMsg.before), String(r.W2.serverCpuMsPerMsg.after)]);
  row("W3 rate, msgs/s", (r) => [String(r.W3.rate), String(r.W3.rate)]);
  row("W3 p50 / p99, ms", (r) => [`${r.W3.before.p50} / ${r.W3.before.p99}`, `${r.W3.after.p50} / ${r.W3.after.p99}`]);
  row("W3 p99 each round, ms", (r) => [r.W3.before.p99ByRound.join(", "), r.W3.after.p99ByRound.join(", ")]);
  row("W4 10,000 SDK / raw socket, ms", (r) => [`${r.W4.before.sdkMs} / ${r.W4.before.rawMs}`, `${r.W4.after.sdkMs} / ${r.W4.after.rawMs}`]);
  row("W4 verified", (r) => [String(r.W4.before.ok), String(r.W4.after.ok)]);
  row("receivers' order: reordered / jumps / duplicates", (r) => [
    `${r.order.before.reordered} / ${r.order.before.jumps} / ${r.order.before.duplicates}`,
    `${r.order.after.reordered} / ${r.order.after.jumps} / ${r.order.after.duplicates}`,
  ]);
  lines.push("");
  return lines;
}

type BareResult = Awaited<ReturnType<typeof bareRun>>;

function renderBare(results: { baseline: string; head: string; date: string; dialects: Record<string, BareResult> }): string[] {
  const lines = [
    "## Deliveries to bare sockets, before and after (same run: `BENCH_AB_BARE=1 npm run bench:ab`)",
    "",
    `Run ${results.date}: the server at \`${results.baseline}\` (before) and at \`${results.head}\` (after), both up at once on fresh databases, ${RECEIVERS} receivers that do not ask for \`message:batch\` (one \`message:new\` per message, as a bare Socket.IO client such as the Python example gets them); W2 (${MESSAGES} messages a round, ${WINDOW} in flight), rounds alternating between the two. Server CPU per delivery: the server process's CPU time over a round, divided by messages × receivers.`,
    "",
    "| | before: msgs/s to all | before: server CPU per delivery, µs | after: msgs/s to all | after: server CPU per delivery, µs |",
    "|---|---:|---:|---:|---:|",
  ];
  for (const [dialect, r] of Object.entries(results.dialects)) {
    const med = (xs: number[]) => round(median(xs), 2);
    lines.push(
      `| ${dialect}, each round | ${r.msgsPerS.before.join(", ")} | ${r.serverCpuUsPerDelivery.before.join(", ")} | ${r.msgsPerS.after.join(", ")} | ${r.serverCpuUsPerDelivery.after.join(", ")} |`,
      `| ${dialect}, median | ${med(r.msgsPerS.before)} | **${med(r.serverCpuUsPerDelivery.before)}** | ${med(r.msgsPerS.after)} | **${med(r.serverCpuUsPerDelivery.after)}** |`,
    );
  }
  lines.push("");
  return lines;
}

/** Runs `run` on each dialect asked for, then records its section of bench/RESULTS.md and results.json. */
async function runAll<R>(
  baseline: { commit: string; dir: string },
  head: string,
  run: (dialect: Dialect, baselineDir: string) => Promise<R>,
  section: { key: string; name: string; render: (results: { baseline: string; head: string; date: string; dialects: Record<string, R> }) => string[] },
): Promise<void> {
  const results = { baseline: baseline.commit, head, date: new Date().toISOString(), dialects: {} as Record<string, R> };
  for (const dialect of ["sqlite", "postgresql"] as Dialect[]) {
    if ((ONLY && !ONLY.includes(dialect)) || !dialects.includes(dialect)) continue;
    results.dialects[dialect] = await run(dialect, baseline.dir);
  }
  recordSection(section.key, results, section.name, section.render(results));
  log("done: bench/RESULTS.md, bench/results.json");
}

async function main() {
  const baseline = checkoutBaseline();
  const head = git("rev-parse", "--short", "HEAD") + (git("status", "--porcelain") ? " (+ uncommitted changes)" : "");
  log(`before: ${baseline.commit} (in ${baseline.dir}); after: ${head}`);
  try {
    if (BARE) await runAll(baseline, head, bareRun, { key: "sendPathBare", name: "send-path-bare", render: renderBare });
    else await runAll(baseline, head, dialectRun, { key: "sendPathAB", name: "send-path-ab", render });
  } finally {
    killChildren();
    baseline.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
