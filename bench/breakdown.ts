// Where a persisted send's time goes. Runs the server's own `sendMessage` in this process, one send at
// a time, against the benchmark's database (the server process is idle meanwhile), through a Prisma
// client that logs every statement. Started by bench/run.ts as a child process; prints JSON.
//
//   DATABASE_URL=... BENCH_ROOM=<roomId> BENCH_HANDLE=owner tsx bench/breakdown.ts
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import path from "node:path";
import { benchClient, type Logged } from "./db";
import { percentile, round } from "./stats";

const url = process.env.DATABASE_URL!;
const roomId = process.env.BENCH_ROOM!;
const handle = process.env.BENCH_HANDLE ?? "owner";
const SENDS = Number(process.env.BENCH_BREAKDOWN_SENDS ?? 300);

const log: Logged[] = [];
// The server's modules take this client (server/db.ts getDb reads it from globalThis).
const db = benchClient(url, (e) => log.push(e));

const { sendMessage } = await import("../server/services/messaging/sending");
const { fanOutNew, selectPage, REPLAY_PAGE } = await import("../server/services/messaging/delivery");
const sdb = db;

const participant = await sdb.participant.findFirstOrThrow({ where: { handle }, select: { id: true, workspaceId: true, handle: true } });
const member = await sdb.member.findFirstOrThrow({ where: { participantId: participant.id }, select: { role: true } });
const actor = {
  participantId: participant.id,
  workspaceId: participant.workspaceId,
  kind: "human" as const,
  role: member.role as "owner",
  handle: participant.handle,
};

/** Runs `fn` `n` times one after another; wall ms per call, statements per call, statement ms per call. */
async function measure(n: number, fn: (i: number) => Promise<unknown>) {
  const walls = new Float64Array(n);
  const start = log.length;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    walls[i] = performance.now() - t;
  }
  const entries = log.slice(start);
  const statementMs = entries.reduce((a, e) => a + e.duration, 0);
  return {
    calls: n,
    wallMeanMs: round(walls.reduce((a, b) => a + b, 0) / n, 3),
    wallP50Ms: round(percentile(walls, 50), 3),
    statementsPerCall: round(entries.length / n, 2),
    statementMsPerCall: round(statementMs / n, 3),
    entries,
  };
}

const body = (i: number) => `breakdown message #${i}: the quick brown fox jumps over the lazy dog, then reports its token usage.`;
const tag = `bd-${Date.now().toString(36)}`;
await measure(30, (i) => sendMessage(actor, { roomId, body: body(i), clientMsgId: `${tag}-warm-${i}` }));
const send = await measure(SENDS, (i) => sendMessage(actor, { roomId, body: body(i), clientMsgId: `${tag}-${i}` }));
// The same sends 32 at a time, as a busy room sends them: they are stored in batches (group commit).
const WAVE = 32;
const waves = await measure(Math.ceil(SENDS / WAVE), (w) =>
  Promise.all(Array.from({ length: WAVE }, (_, i) => sendMessage(actor, { roomId, body: body(i), clientMsgId: `${tag}-wave-${w}-${i}` }))),
);
const batched = {
  sends: waves.calls * WAVE,
  wallMeanMsPerSend: round(waves.wallMeanMs / WAVE, 3),
  statementsPerSend: round(waves.statementsPerCall / WAVE, 2),
  statementMsPerSend: round(waves.statementMsPerCall / WAVE, 3),
};

/** Statements grouped by text (IN-lists folded), in order of total time, per call. */
function grouped(entries: Logged[], calls: number) {
  const groups = new Map<string, { count: number; ms: number }>();
  for (const e of entries) {
    const key = e.query
      .replace(/\s+/g, " ")
      .replace(/[`"]/g, "")
      .replace(/\b(main|it_[a-z0-9_]+)\./g, "")
      .replace(/^SELECT .*? FROM /, "SELECT … FROM ")
      .replace(/ RETURNING .*$/, " RETURNING …")
      .replace(/\((?:\?|\$\d+)(?:,\s*(?:\?|\$\d+))+\)/g, "(…)")
      .slice(0, 220);
    const g = groups.get(key) ?? { count: 0, ms: 0 };
    g.count++;
    g.ms += e.duration;
    groups.set(key, g);
  }
  return [...groups.entries()]
    .map(([sql, g]) => ({ sql, perSend: round(g.count / calls, 2), meanMs: round(g.ms / g.count, 3), msPerSend: round(g.ms / calls, 3) }))
    .sort((a, b) => b.msPerSend - a.msPerSend);
}
const statements = grouped(send.entries, SENDS);

// Floors: one trivial statement, an empty transaction, and the per-send fan-out lookup alone.
const last = await sdb.message.findFirstOrThrow({ where: { roomId }, orderBy: { seq: "desc" }, include: { author: true, mentions: true } });
const view = {
  ...last,
  author: { id: last.author.id, handle: last.author.handle, displayName: last.author.displayName, kind: "human" as const },
  mentions: [] as string[],
};
const selectOne = await measure(SENDS, () => sdb.$queryRawUnsafe("SELECT 1"));
const findRoom = await measure(SENDS, () => sdb.room.findUnique({ where: { id: roomId } }));
const emptyTx = await measure(SENDS, () => sdb.$transaction(async () => {}));
const fanOutLookup = await measure(SENDS, () => fanOutNew(view as never)); // no socket server here: the lookup alone

// W4's server side alone: reading every replay page of the catch-up room as the server does for an
// agent in mode `all` from cursor 0, and serializing each page as Socket.IO will (JSON).
async function replay() {
  const replayRoom = process.env.BENCH_REPLAY_ROOM;
  const agent = process.env.BENCH_REPLAY_AGENT;
  if (!replayRoom || !agent) return null;
  const start = log.length;
  let readMs = 0;
  let stringifyMs = 0;
  let bytes = 0;
  let pages = 0;
  let messages = 0;
  for (let cursor = 0; ;) {
    const t = performance.now();
    const page = await selectPage({ participantId: agent, roomId: replayRoom, roomKind: "channel", mode: "all" }, cursor, REPLAY_PAGE);
    const t2 = performance.now();
    bytes += JSON.stringify({ roomId: replayRoom, ...page }).length;
    stringifyMs += performance.now() - t2;
    readMs += t2 - t;
    pages++;
    messages += page.messages.length;
    cursor = page.throughSeq;
    if (!page.hasMore) break;
  }
  const entries = log.slice(start);
  return {
    messages,
    pages,
    readMs: round(readMs, 1),
    statementsPerPage: round(entries.length / pages, 1),
    statementMsPerPage: round(entries.reduce((a, e) => a + e.duration, 0) / pages, 2),
    stringifyMs: round(stringifyMs, 1),
    bytesPerPage: Math.round(bytes / pages),
    /** Per page. */
    statements: grouped(entries, pages),
  };
}
await replay(); // warm
const replayed = await replay();

// Where the CPU of a send goes: a second pass of sends under V8's sampling profiler, self time
// grouped by package. Idle is time spent waiting (for PostgreSQL's answers, mostly).
async function profileSends(n: number) {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))));
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 200 });
  await post("Profiler.start");
  const t = performance.now();
  for (let i = 0; i < n; i++) await sendMessage(actor, { roomId, body: body(i), clientMsgId: `${tag}-prof-${i}` });
  const wallMs = performance.now() - t;
  const { profile } = await post<{ profile: CpuProfile }>("Profiler.stop");
  session.disconnect();
  if (process.env.BENCH_PROFILE) writeFileSync(path.join(process.env.BENCH_PROFILE, `breakdown-${Date.now()}.cpuprofile`), JSON.stringify(profile));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  // Native frames (no URL: SQLite's C code, JSON, crypto) count for the nearest JS caller's package.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const attributed = (id: number): string => {
    let node = byId.get(id)!;
    const special = node.callFrame.functionName.startsWith("(");
    while (!special && node.callFrame.url === "" && parent.has(node.id)) node = byId.get(parent.get(node.id)!)!;
    return groupOf(special ? byId.get(id)!.callFrame : node.callFrame);
  };
  const byGroup = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    if (!us) continue;
    const group = attributed(node.id);
    byGroup.set(group, (byGroup.get(group) ?? 0) + us);
  }
  const total = [...byGroup.values()].reduce((a, b) => a + b, 0);
  return {
    sends: n,
    wallMsPerSend: round(wallMs / n, 3),
    groups: [...byGroup.entries()]
      .map(([group, us]) => ({ group, share: round(us / total, 3), msPerSend: round(us / 1000 / n, 3) }))
      .sort((a, b) => b.share - a.share),
  };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

function groupOf(frame: { functionName: string; url: string }): string {
  const url = frame.url;
  if (frame.functionName === "(idle)") return "idle (waiting for I/O)";
  if (frame.functionName === "(garbage collector)") return "garbage collector";
  if (url.startsWith("wasm://")) return "Prisma query compiler (wasm)";
  if (url.includes("node_modules/")) {
    const rest = url.slice(url.lastIndexOf("node_modules/") + "node_modules/".length).split("/");
    const pkg = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    if (pkg === "@prisma/client" || pkg.startsWith("@prisma/client-") || pkg === "@prisma/debug") return "Prisma client runtime (@prisma/client)";
    if (pkg.startsWith("@prisma/adapter-") || pkg === "@prisma/driver-adapter-utils") return "Prisma driver adapter";
    if (["better-sqlite3", "pg", "pg-protocol", "pg-pool", "pg-types", "postgres-array", "postgres-date"].includes(pkg))
      return "database driver (better-sqlite3 / pg)";
    return pkg;
  }
  if (url.includes("/server/")) return "Switchboard server code";
  if (frame.functionName === "(program)") return "V8 (program)";
  if (url.startsWith("node:") || url === "") return "Node internals";
  return "other";
}

const cpuProfile = await profileSends(SENDS);

const strip = ({ entries: _e, ...rest }: Awaited<ReturnType<typeof measure>>) => rest;
console.log(
  JSON.stringify({
    sends: SENDS,
    sendMessage: strip(send),
    batched,
    statements,
    replay: replayed,
    cpuProfile,
    floors: { selectOne: strip(selectOne), roomFindUnique: strip(findRoom), emptyTransaction: strip(emptyTx), addressedAgents: strip(fanOutLookup) },
  }),
);
await sdb.$disconnect();
