// `npm run bench` (second part): dashboard queries over 1,000,000 usage records, on SQLite and
// PostgreSQL. Records are bulk-inserted straight into a fresh database (this measures reads), then the
// real services answer each dashboard query several times; the median and the worst are recorded
// in bench/results.json (key "usage") and in bench/RESULTS.md between the usage markers.
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

const ROOT = path.resolve(import.meta.dirname, "..");
const RECORDS = Number(process.env.BENCH_USAGE_RECORDS ?? 1_000_000);
const RUNS = 5;
const PG_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const log = (line: string) => console.log(`[bench usage ${new Date().toISOString().slice(11, 19)}] ${line}`);

const AGENTS = 200;
const PEOPLE = 40;
const ROOMS = 300;
const TASKS = 2000;
const MODELS = ["claude-sonnet-4.5", "claude-opus-4.1", "gpt-5", "gpt-5-mini", "gemini-2.5-pro"];
const DAYS = 365;
const END = new Date("2026-11-29T00:00:00Z");

function* records(workspaceId: string, agents: string[], people: string[], rooms: string[]) {
  let seed = 1;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let i = 0; i < RECORDS; i++) {
    const agent = Math.floor(rand() * AGENTS);
    const at = new Date(END.getTime() - Math.floor(rand() * DAYS * 86_400_000));
    const input = Math.floor(rand() * 20_000);
    const output = Math.floor(rand() * 4000);
    yield {
      id: randomUUID(),
      workspaceId,
      agentId: agents[agent],
      reportId: `r${i}`,
      ownerId: people[agent % PEOPLE],
      roomId: rand() < 0.8 ? rooms[Math.floor(rand() * ROOMS)] : null,
      taskId: rand() < 0.5 ? `task-${Math.floor(rand() * TASKS)}` : null,
      model: MODELS[Math.floor(rand() * MODELS.length)],
      inputTokens: input,
      outputTokens: output,
      cachedTokens: Math.floor(input * rand() * 0.3),
      costUsd: Math.round((input * 3 + output * 15) / 1000) / 1000,
      costSource: "priced",
      occurredAt: at,
      day: at.toISOString().slice(0, 10),
      month: at.toISOString().slice(0, 7),
    };
  }
}

async function main() {
  const dialects = process.env.BENCH_DIALECTS?.split(",") ?? ["sqlite", "postgresql"];
  const results: Record<string, unknown> = {};
  for (const dialect of dialects) {
    try {
      results[dialect] = await runDialect(dialect as "sqlite" | "postgresql");
    } catch (error) {
      log(`!!! ${dialect}: ${String(error)} — skipped`);
    }
  }
  record(results);
}

async function runDialect(dialect: "sqlite" | "postgresql") {
  const dir = mkdtempSync(path.join(os.tmpdir(), "sb-usage-bench-"));
  const schema = `bench_usage_${Date.now().toString(36)}`;
  const url = dialect === "sqlite" ? `file:${path.join(dir, "db.sqlite")}` : `${PG_URL}${PG_URL.includes("?") ? "&" : "?"}schema=${schema}`;
  process.env.DATABASE_URL = url;
  const { migrate } = await import("../server/migrate");
  await migrate(url);
  const { getDb, closeDb } = await import("../server/db");
  const db = getDb(url);
  try {
    // The workspace and its people, agents and rooms, through Prisma (few rows).
    const workspaceId = randomUUID();
    await db.workspace.create({ data: { id: workspaceId, name: "Bench" } });
    const people = Array.from({ length: PEOPLE }, () => randomUUID());
    const agents = Array.from({ length: AGENTS }, () => randomUUID());
    const rooms = Array.from({ length: ROOMS }, () => randomUUID());
    await db.participant.createMany({ data: people.map((id, i) => ({ id, workspaceId, kind: "human", handle: `p${i}`, displayName: `Person ${i}` })) });
    await db.participant.createMany({ data: agents.map((id, i) => ({ id, workspaceId, kind: "agent", handle: `a${i}`, displayName: `Agent ${i}`, ownerId: people[i % PEOPLE] })) });
    await db.room.createMany({ data: rooms.map((id, i) => ({ id, workspaceId, kind: "channel", visibility: "public", name: `room-${i}`, createdById: people[0] })) });

    log(`${dialect}: inserting ${RECORDS.toLocaleString()} usage records`);
    const t0 = performance.now();
    if (dialect === "sqlite") insertSqlite(url.slice("file:".length), records(workspaceId, agents, people, rooms));
    else await insertPostgres(url, schema, records(workspaceId, agents, people, rooms));
    const loadS = (performance.now() - t0) / 1000;
    log(`${dialect}: inserted in ${loadS.toFixed(1)} s`);

    const { usageOverview, roomUsage, taskUsage } = await import("../server/services/usage-reports");
    const admin = { participantId: people[0], workspaceId, kind: "human" as const, role: "owner" as const, handle: "p0" };
    const member = { ...admin, participantId: people[1], role: "member" as const, handle: "p1" };
    const queries: Record<string, () => Promise<unknown>> = {
      overview_30d: () => usageOverview(admin, { from: "2026-10-31", to: "2026-11-29", bucket: "day" }),
      overview_365d_by_month: () => usageOverview(admin, { from: "2025-11-30", to: "2026-11-29", bucket: "month" }),
      overview_90d_one_agent: () => usageOverview(admin, { from: "2026-09-01", to: "2026-11-29", bucket: "week", agentId: agents[7] }),
      overview_365d_member: () => usageOverview(member, { from: "2025-11-30", to: "2026-11-29", bucket: "week" }),
      room_detail_30d: () => roomUsage(admin, rooms[3], { from: "2026-10-31", to: "2026-11-29" }),
      task_detail_365d: () => taskUsage(admin, "task-42", { from: "2025-11-30", to: "2026-11-29" }),
    };
    const timings: Record<string, { median_ms: number; max_ms: number }> = {};
    for (const [name, run] of Object.entries(queries)) {
      await run(); // warm
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const s = performance.now();
        await run();
        ms.push(performance.now() - s);
      }
      ms.sort((a, b) => a - b);
      timings[name] = { median_ms: Math.round(ms[Math.floor(ms.length / 2)] * 10) / 10, max_ms: Math.round(ms[ms.length - 1] * 10) / 10 };
      log(`${dialect}: ${name} median ${timings[name].median_ms} ms, max ${timings[name].max_ms} ms`);
    }
    return { records: RECORDS, load_seconds: Math.round(loadS * 10) / 10, queries: timings };
  } finally {
    await closeDb();
    if (dialect === "postgresql") {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

const COLUMNS = ["id", "workspaceId", "agentId", "reportId", "ownerId", "roomId", "taskId", "model", "inputTokens", "outputTokens", "cachedTokens", "costUsd", "costSource", "occurredAt", "day", "month"] as const;

function insertSqlite(file: string, rows: Generator<Record<string, unknown>>) {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = OFF");
  const insert = sqlite.prepare(`INSERT INTO "UsageRecord" (${COLUMNS.map((c) => `"${c}"`).join(",")}, "createdAt") VALUES (${COLUMNS.map(() => "?").join(",")}, ?)`);
  const batch = sqlite.transaction((chunk: Record<string, unknown>[]) => {
    // Prisma keeps SQLite DateTimes as Unix milliseconds.
    for (const r of chunk) insert.run(...COLUMNS.map((c) => (r[c] instanceof Date ? (r[c] as Date).getTime() : r[c])), Date.now());
  });
  let chunk: Record<string, unknown>[] = [];
  for (const r of rows) {
    chunk.push(r);
    if (chunk.length === 20_000) {
      batch(chunk);
      chunk = [];
    }
  }
  if (chunk.length) batch(chunk);
  sqlite.pragma("synchronous = NORMAL");
  sqlite.exec("ANALYZE");
  sqlite.close();
}

async function insertPostgres(url: string, schema: string, rows: Generator<Record<string, unknown>>) {
  const u = new URL(url);
  u.searchParams.delete("schema");
  const client = new pg.Client({ connectionString: u.toString(), options: `-c search_path="${schema}"` });
  await client.connect();
  const types = ["text", "text", "text", "text", "text", "text", "text", "text", "int4", "int4", "int4", "float8", "text", "timestamptz", "text", "text"];
  const flush = async (chunk: Record<string, unknown>[]) => {
    const arrays = COLUMNS.map((c) => chunk.map((r) => r[c]));
    await client.query(
      `INSERT INTO "UsageRecord" (${COLUMNS.map((c) => `"${c}"`).join(",")}) SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(",")})`,
      arrays,
    );
  };
  let chunk: Record<string, unknown>[] = [];
  for (const r of rows) {
    chunk.push(r);
    if (chunk.length === 20_000) {
      await flush(chunk);
      chunk = [];
    }
  }
  if (chunk.length) await flush(chunk);
  await client.query(`ANALYZE "UsageRecord"`);
  await client.end();
}

function record(results: Record<string, unknown>) {
  const jsonFile = path.join(ROOT, "bench/results.json");
  const json = existsSync(jsonFile) ? (JSON.parse(readFileSync(jsonFile, "utf8")) as Record<string, unknown>) : {};
  json.usage = { date: new Date().toISOString(), machine: { cpus: os.cpus().length, memory_gib: Math.round(os.totalmem() / 2 ** 30), node: process.version }, ...results };
  writeFileSync(jsonFile, JSON.stringify(json, null, 2) + "\n");

  const mdFile = path.join(ROOT, "bench/RESULTS.md");
  const md = existsSync(mdFile) ? readFileSync(mdFile, "utf8") : "# Benchmark results\n";
  const names = ["overview_30d", "overview_365d_by_month", "overview_90d_one_agent", "overview_365d_member", "room_detail_30d", "task_detail_365d"];
  const cell = (d: string, n: string) => {
    const q = (results[d] as { queries?: Record<string, { median_ms: number; max_ms: number }> } | undefined)?.queries?.[n];
    return q ? `${q.median_ms} / ${q.max_ms}` : "skipped";
  };
  const section = [
    "<!-- usage:start -->",
    "## Usage dashboards over 1,000,000 records",
    "",
    `${RECORDS.toLocaleString()} usage records (200 agents, 40 people, 300 rooms, 2,000 tasks, 5 models, one year), bulk-inserted; each dashboard query run through the real service (\`server/services/usage-reports.ts\`, the same code tRPC calls) ${RUNS} times after a warm-up. Milliseconds, median / worst. Target: well under a second.`,
    "",
    "| query | SQLite | PostgreSQL |",
    "|---|---|---|",
    ...names.map((n) => `| ${n} | ${cell("sqlite", n)} | ${cell("postgresql", n)} |`),
    "",
    "<!-- usage:end -->",
  ].join("\n");
  const next = md.includes("<!-- usage:start -->") ? md.replace(/<!-- usage:start -->[\s\S]*<!-- usage:end -->/, section) : `${md.trimEnd()}\n\n${section}\n`;
  writeFileSync(mdFile, next);
  log("recorded in bench/results.json and bench/RESULTS.md");
}

await main();
process.exit(0);
