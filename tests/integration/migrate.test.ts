// The migration tooling against real databases: server/migrate.ts applies the committed SQL, the
// generated Prisma clients work on the result, a second run is a no-op, two processes starting at
// once apply each migration exactly once, and a tampered history is refused.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PrismaClient as PostgresClient } from "../../server/generated/postgresql/client";
import { weekOf } from "../../components/usage/format";
import type { UsageView } from "@switchboard/sdk/contract";
import { PrismaClient as SqliteClient } from "../../server/generated/sqlite/client";
import * as SchemaEnums from "../../server/generated/sqlite/enums";
import { migrate } from "../../server/migrate";
import { GRAINS } from "../../server/services/usage/rollups";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PG_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const tmp = mkdtempSync(path.join(tmpdir(), "switchboard-migrate-"));

type Dialect = "sqlite" | "postgresql";
type Row = { migration_name: string; checksum: string; finished_at: unknown; rolled_back_at: unknown; applied_steps_count: number };

function localMigrations(dialect: Dialect): { name: string; checksum: string }[] {
  const dir = path.join(ROOT, "prisma/migrations", dialect);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name }) => ({
      name,
      checksum: createHash("sha256")
        .update(readFileSync(path.join(dir, name, "migration.sql")))
        .digest("hex"),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function expectFullHistory(dialect: Dialect, rows: Row[]): void {
  const recorded = rows.map((row) => ({ name: row.migration_name, checksum: row.checksum })).sort((a, b) => a.name.localeCompare(b.name));
  expect(recorded).toEqual(localMigrations(dialect));
  for (const row of rows) {
    expect(row.finished_at).not.toBeNull();
    expect(row.rolled_back_at).toBeNull();
    expect(Number(row.applied_steps_count)).toBe(1);
  }
}

// Runs the CLI as its own process, as a second server starting at the same moment would.
function runMigrateCli(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/migrate.ts"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ code, output }));
  });
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (error) {
    if (process.env.CI === "true") throw new Error(`PostgreSQL at ${PG_URL} is unreachable under CI: ${String(error)}`);
    console.warn(`!!! PostgreSQL at ${PG_URL} is unreachable: SKIPPING the PostgreSQL migration tests !!!`);
    return false;
  }
}
const hasPostgres = await postgresReachable();

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// ---- the usage_rollups migration fills the rollups from the records already stored ----

/** A UsageRecord row as stored (the presented usage, without message and time, plus its buckets). */
type UsageRow = Omit<UsageView, "messageId" | "occurredAt" | "requesterId"> & { workspaceId: string; day: string; month: string };

/** Usage records as a deployment made before the rollups: several days and months, some without owner, room, task or price. */
function storedUsage(): UsageRow[] {
  const days = ["2026-08-31", "2026-09-01", "2026-09-15", "2026-09-30", "2026-10-01", "2026-10-02"];
  return Array.from({ length: 60 }, (_, i) => {
    const day = days[i % days.length];
    const unpriced = i % 7 === 0;
    return {
      id: `u${i}`,
      workspaceId: i % 11 === 0 ? "ws2" : "ws1",
      agentId: `agent${i % 3}`,
      reportId: `r${i}`,
      ownerId: i % 3 === 2 ? null : `owner${i % 3}`,
      roomId: i % 4 === 0 ? null : `room${i % 2}`,
      taskId: i % 5 === 0 ? `task${i % 2}` : null,
      model: `model${i % 2}`,
      inputTokens: 1000 + i,
      outputTokens: 100 + i,
      cachedTokens: i % 2 ? 10 : 0,
      costUsd: unpriced ? 0 : Math.round((0.01 + i / 1000) * 1e6) / 1e6,
      costSource: unpriced ? "unpriced" : "reported",
      day,
      month: day.slice(0, 7),
    };
  });
}

const ROLLUP_KEY = ["workspaceId", "grain", "span", "day", "week", "month", "agentId", "ownerId", "requesterId", "roomId", "taskId", "model"] as const;
const ROLLUP_COUNTERS = ["calls", "inputTokens", "outputTokens", "cachedTokens", "costUsd", "unpricedCalls", "unpricedTokens"] as const;
type RollupRow = Record<(typeof ROLLUP_KEY)[number], string> & Record<(typeof ROLLUP_COUNTERS)[number], number>;

/** The rollup rows the records call for, summed here in JavaScript from the grains' definitions. */
function expectedRollups(records: UsageRow[]): Map<string, RollupRow> {
  const rows = new Map<string, RollupRow>();
  for (const r of records) {
    for (const g of GRAINS) {
      // Records stored before requesters have none ('').
      const kept = (c: "agentId" | "ownerId" | "roomId" | "taskId" | "model") => ((g.keeps as readonly string[]).includes(c) ? (r[c] ?? "") : "");
      const spans = [{ span: "day", day: r.day, week: weekOf(r.day) }, ...(g.monthly ? [{ span: "month", day: `${r.month}-01`, week: "" }] : [])];
      for (const { span, day, week } of spans) {
        const key = {
          workspaceId: r.workspaceId,
          grain: g.name,
          span,
          day,
          week,
          month: r.month,
          agentId: kept("agentId"),
          ownerId: kept("ownerId"),
          requesterId: "",
          roomId: kept("roomId"),
          taskId: kept("taskId"),
          model: kept("model"),
        };
        const id = ROLLUP_KEY.map((c) => key[c]).join("|");
        const row = rows.get(id) ?? { ...key, calls: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, unpricedCalls: 0, unpricedTokens: 0 };
        const unpriced = r.costSource === "unpriced";
        rows.set(id, {
          ...row,
          calls: row.calls + 1,
          inputTokens: row.inputTokens + r.inputTokens,
          outputTokens: row.outputTokens + r.outputTokens,
          cachedTokens: row.cachedTokens + r.cachedTokens,
          costUsd: row.costUsd + r.costUsd,
          unpricedCalls: row.unpricedCalls + (unpriced ? 1 : 0),
          unpricedTokens: row.unpricedTokens + (unpriced ? r.inputTokens + r.outputTokens : 0),
        });
      }
    }
  }
  return rows;
}

function expectBackfilled(got: Record<string, unknown>[], records: UsageRow[]): void {
  const want = expectedRollups(records);
  const rows = got.map((r) => Object.fromEntries([...ROLLUP_KEY.map((c) => [c, String(r[c])]), ...ROLLUP_COUNTERS.map((c) => [c, Number(r[c])])]) as RollupRow);
  expect(rows.map((r) => ROLLUP_KEY.map((c) => r[c]).join("|")).sort()).toEqual([...want.keys()].sort());
  for (const row of rows) {
    const w = want.get(ROLLUP_KEY.map((c) => row[c]).join("|"))!;
    expect({ ...row, costUsd: 0 }).toEqual({ ...w, costUsd: 0 });
    expect(row.costUsd).toBeCloseTo(w.costUsd, 9);
  }
}

const USAGE_COLUMNS = [
  "id",
  "workspaceId",
  "agentId",
  "reportId",
  "ownerId",
  "roomId",
  "taskId",
  "model",
  "inputTokens",
  "outputTokens",
  "cachedTokens",
  "costUsd",
  "costSource",
  "occurredAt",
  "day",
  "month",
] as const;

/** The migrations before usage_rollups, then the records, then usage_rollups and the rest. */
function migrationsAround(dialect: Dialect, name: string): { before: string[]; from: string[] } {
  const names = localMigrations(dialect).map((m) => m.name);
  const at = names.findIndex((n) => n.endsWith(`_${name}`));
  const sql = (n: string) => readFileSync(path.join(ROOT, "prisma/migrations", dialect, n, "migration.sql"), "utf8");
  return { before: names.slice(0, at).map(sql), from: names.slice(at).map(sql) };
}

describe("the usage_rollups migration", () => {
  it("fills the rollups from the usage records stored before it, on SQLite", () => {
    const records = storedUsage();
    const { before, from } = migrationsAround("sqlite", "usage_rollups");
    const db = new Database(path.join(tmp, "backfill.db"));
    try {
      for (const sql of before) db.exec(sql);
      const insert = db.prepare(
        `INSERT INTO "UsageRecord" (${USAGE_COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES (${USAGE_COLUMNS.map(() => "?").join(", ")})`,
      );
      for (const r of records) insert.run(...USAGE_COLUMNS.map((c) => (c === "occurredAt" ? `${r.day}T12:00:00.000+00:00` : r[c])));
      for (const sql of from) db.exec(sql);
      expectBackfilled(db.prepare(`SELECT * FROM "UsageRollup"`).all() as Record<string, unknown>[], records);
    } finally {
      db.close();
    }
  });

  it.skipIf(!hasPostgres)("fills the rollups from the usage records stored before it, on PostgreSQL", async () => {
    const records = storedUsage();
    const { before, from } = migrationsAround("postgresql", "usage_rollups");
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS mig_backfill CASCADE; CREATE SCHEMA mig_backfill; SET search_path = mig_backfill`);
      for (const sql of before) await client.query(sql);
      for (const r of records) {
        await client.query(
          `INSERT INTO "UsageRecord" (${USAGE_COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES (${USAGE_COLUMNS.map((_, i) => `$${i + 1}`).join(", ")})`,
          USAGE_COLUMNS.map((c) => (c === "occurredAt" ? `${r.day} 12:00:00` : r[c])),
        );
      }
      for (const sql of from) await client.query(sql);
      expectBackfilled((await client.query(`SELECT * FROM "UsageRollup"`)).rows, records);
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS mig_backfill CASCADE`).catch(() => undefined);
      await client.end();
    }
  });
});

// ---- the enums migration turns the status columns into enums and keeps their rows ----

type StoredRow = Record<string, string | number | null>;

/**
 * Rows of every table with a status column, as stored before the enums: every value of every such
 * column, and rows that took the columns' old text defaults. `at` is a time as the dialect stores it.
 */
function storedStatuses(at: string): [table: string, row: StoredRow][] {
  const ws = { workspaceId: "ws1" };
  const person = (id: string, over: StoredRow = {}) => ({ id, ...ws, kind: "human", handle: id, displayName: id, ...over });
  const agent = (id: string, status: string, consentPolicy: string) => ({
    id,
    ...ws,
    kind: "agent",
    handle: id,
    displayName: id,
    status,
    consentPolicy,
    ownerId: "owner",
  });
  const room = (id: string, kind: string, visibility: string) => ({ id, ...ws, kind, visibility, name: kind === "channel" ? id : null, createdById: "owner" });
  const message = (seq: number, kind?: string) => ({
    id: `msg${seq}`,
    roomId: "general",
    seq,
    authorId: "owner",
    body: "hi",
    clientMsgId: `c${seq}`,
    ...(kind ? { kind } : {}),
  });
  const connection = (id: string, status: string, requesterId: string, addresseeId: string) => ({ id, ...ws, requesterId, addresseeId, status });
  const usage = (id: string, costSource: string) => ({
    id,
    ...ws,
    agentId: "bot-ask",
    reportId: id,
    model: "m",
    inputTokens: 1,
    outputTokens: 1,
    costUsd: 0,
    costSource,
    occurredAt: at,
    day: "2026-09-01",
    month: "2026-09",
  });
  const budget = (id: string, subjectType: string, period: string, unit: string, state?: string) => ({
    id,
    ...ws,
    subjectType,
    subjectId: subjectType === "agent" ? "bot-ask" : "owner",
    period,
    unit,
    amount: 10,
    ...(state ? { state } : {}),
  });
  return [
    ["Workspace", { id: "ws1", name: "Acme" }],
    ...["a1", "a2", "a3", "a4"].map((id): [string, StoredRow] => ["Account", { id, email: `${id}@example.com`, passwordHash: "x" }]),
    ["Participant", person("owner")], // status and consent policy: the old defaults
    ["Participant", person("admin", { status: "active", consentPolicy: "ask" })],
    ["Participant", person("member")],
    ["Participant", person("guest", { status: "suspended" })],
    ["Participant", agent("bot-ask", "active", "ask")],
    ["Participant", agent("bot-own", "active", "own")],
    ["Participant", agent("bot-ws", "suspended", "workspace")],
    ["Participant", agent("bot-refuse", "active", "refuse")],
    ...(["owner", "admin", "member", "guest"] as const).map((role, i): [string, StoredRow] => [
      "Member",
      { id: `m-${role}`, ...ws, accountId: `a${i + 1}`, participantId: role, role },
    ]),
    ["Invite", { id: "i-admin", ...ws, tokenHash: "t1", role: "admin", createdById: "owner", expiresAt: at }],
    ["Invite", { id: "i-guest", ...ws, tokenHash: "t2", role: "guest", createdById: "owner", expiresAt: at }],
    ["Invite", { id: "i-member", ...ws, tokenHash: "t3", role: "member", createdById: "owner", expiresAt: at }],
    ["Invite", { id: "i-default", ...ws, tokenHash: "t4", createdById: "owner", expiresAt: at }],
    ["Room", room("general", "channel", "public")],
    ["Room", room("secret", "channel", "private")],
    ["Room", room("dm1", "dm", "private")],
    ["Room", room("group1", "group", "private")],
    ["RoomMember", { roomId: "general", participantId: "owner", role: "owner", deliveryMode: "all" }],
    ["RoomMember", { roomId: "general", participantId: "bot-ask", role: "member", deliveryMode: "mentions" }],
    ["RoomMember", { roomId: "general", participantId: "bot-own", role: "member", deliveryMode: "none" }],
    ["RoomMember", { roomId: "general", participantId: "admin" }],
    ["Message", message(1, "text")],
    ["Message", message(2, "event")],
    ["Message", message(3, "system")],
    ["Message", message(4)],
    ["MessageReceipt", { messageId: "msg1", participantId: "bot-ask", roomId: "general", seq: 1, state: "processing" }],
    ["MessageReceipt", { messageId: "msg1", participantId: "bot-own", roomId: "general", seq: 1, state: "processed" }],
    ["MessageReceipt", { messageId: "msg2", participantId: "bot-ask", roomId: "general", seq: 2, state: "failed" }],
    ["Connection", connection("c1", "pending", "bot-ask", "bot-own")],
    ["Connection", connection("c2", "accepted", "bot-ask", "bot-ws")],
    ["Connection", connection("c3", "declined", "bot-own", "bot-ws")],
    ["Connection", connection("c4", "cancelled", "bot-own", "bot-refuse")],
    ["Connection", connection("c5", "revoked", "bot-ws", "bot-refuse")],
    ["Connection", connection("c6", "blocked", "bot-ask", "bot-refuse")],
    ["UsageRecord", usage("u1", "reported")],
    ["UsageRecord", usage("u2", "priced")],
    ["UsageRecord", usage("u3", "unpriced")],
    ["Budget", budget("b1", "agent", "day", "usd", "ok")],
    ["Budget", budget("b2", "person", "month", "tokens", "warned")],
    ["Budget", budget("b3", "agent", "month", "usd", "exceeded")],
    ["Budget", budget("b4", "person", "day", "tokens")],
  ];
}

/** The columns that became enums, by table: a key to find each row by, and the old text defaults. */
const ENUM_COLUMNS: Record<string, { key: string[]; columns: string[]; defaults?: StoredRow }> = {
  Member: { key: ["id"], columns: ["role"] },
  Participant: { key: ["id"], columns: ["kind", "status", "consentPolicy"], defaults: { status: "active", consentPolicy: "ask" } },
  Invite: { key: ["id"], columns: ["role"], defaults: { role: "member" } },
  Room: { key: ["id"], columns: ["kind", "visibility"] },
  RoomMember: { key: ["roomId", "participantId"], columns: ["role", "deliveryMode"], defaults: { role: "member", deliveryMode: "all" } },
  Message: { key: ["id"], columns: ["kind"], defaults: { kind: "text" } },
  MessageReceipt: { key: ["messageId", "participantId"], columns: ["state"] },
  Connection: { key: ["id"], columns: ["status"] },
  UsageRecord: { key: ["id"], columns: ["costSource"] },
  Budget: { key: ["id"], columns: ["subjectType", "period", "unit", "state"], defaults: { state: "ok" } },
};

const enumColumnsSql = (table: string) => {
  const { key, columns } = ENUM_COLUMNS[table];
  return `SELECT ${[...key, ...columns].map((c) => `"${c}"`).join(", ")} FROM "${table}"`;
};
const byKey = (table: string) => (a: StoredRow, b: StoredRow) => {
  const key = (r: StoredRow) => ENUM_COLUMNS[table].key.map((c) => r[c]).join(" ");
  return key(a).localeCompare(key(b));
};

/** Each table's enum columns read back after the migration are the values stored before it (or the old defaults). */
async function expectStatusesKept(stored: [string, StoredRow][], read: (sql: string) => Promise<StoredRow[]>): Promise<void> {
  for (const [table, { key, columns, defaults }] of Object.entries(ENUM_COLUMNS)) {
    const want = stored
      .filter(([t]) => t === table)
      .map(([, row]) => Object.fromEntries([...key, ...columns].map((c) => [c, row[c] ?? defaults?.[c] ?? null])))
      .sort(byKey(table));
    expect((await read(enumColumnsSql(table))).sort(byKey(table)), table).toEqual(want);
  }
}

/** The generated client filters on the converted columns (on PostgreSQL, by parameters of the enum types) and writes them. */
async function expectPrismaReads(prisma: SqliteClient): Promise<void> {
  expect(await prisma.roomMember.findMany({ where: { deliveryMode: "mentions" }, select: { participantId: true } })).toEqual([{ participantId: "bot-ask" }]);
  expect(await prisma.participant.findMany({ where: { kind: "agent", status: "suspended" }, select: { id: true, consentPolicy: true } })).toEqual([
    { id: "bot-ws", consentPolicy: "workspace" },
  ]);
  expect(await prisma.connection.count({ where: { status: { in: ["pending", "blocked"] } } })).toBe(2);
  const added = await prisma.message.create({ data: { id: "msg5", roomId: "general", seq: 5, authorId: "owner", body: "new", clientMsgId: "c5" } });
  expect(added.kind).toBe("text");
}

describe("the enums migration", () => {
  it("keeps every status value stored before it, on SQLite", async () => {
    const { before, from } = migrationsAround("sqlite", "enums");
    const file = path.join(tmp, "enums.db");
    const stored = storedStatuses("2026-09-01T12:00:00.000+00:00");
    const db = new Database(file);
    try {
      for (const sql of before) db.exec(sql);
      for (const [table, row] of stored) {
        const columns = Object.keys(row);
        db.prepare(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(
          ...Object.values(row),
        );
      }
      for (const sql of from) db.exec(sql);
      await expectStatusesKept(stored, (sql) => Promise.resolve(db.prepare(sql).all() as StoredRow[]));
    } finally {
      db.close();
    }
    const prisma = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: `file:${file}` }) });
    try {
      await expectPrismaReads(prisma);
    } finally {
      await prisma.$disconnect();
    }
  });

  it.skipIf(!hasPostgres)("converts the status columns to enum types and keeps every value stored before it, on PostgreSQL", async () => {
    const { before, from } = migrationsAround("postgresql", "enums");
    const stored = storedStatuses("2026-09-01 12:00:00");
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS mig_enums CASCADE; CREATE SCHEMA mig_enums; SET search_path = mig_enums`);
      for (const sql of before) await client.query(sql);
      for (const [table, row] of stored) {
        const columns = Object.keys(row);
        await client.query(
          `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
          Object.values(row),
        );
      }
      for (const sql of from) await client.query(sql);
      await expectStatusesKept(stored, async (sql) => (await client.query<StoredRow>(sql)).rows);
      // Each column is of an enum type now, and its default (if it has one) the old value, of that type.
      const found = await client.query<{ table_name: string; column_name: string; data_type: string; udt_name: string; column_default: string | null }>(
        `SELECT table_name, column_name, data_type, udt_name, column_default FROM information_schema.columns WHERE table_schema = 'mig_enums'`,
      );
      for (const [table, { columns, defaults }] of Object.entries(ENUM_COLUMNS)) {
        for (const c of columns) {
          const column = found.rows.find((r) => r.table_name === table && r.column_name === c)!;
          expect(column.data_type, `${table}.${c}`).toBe("USER-DEFINED");
          expect(column.column_default, `${table}.${c}`).toBe(defaults?.[c] ? `'${defaults[c]}'::"${column.udt_name}"` : null);
        }
      }

      const prisma = new PostgresClient({ adapter: new PrismaPg({ connectionString: PG_URL }, { schema: "mig_enums" }) });
      try {
        await expectPrismaReads(prisma as unknown as SqliteClient); // as server/db.ts: the SQLite client's types stand for both
      } finally {
        await prisma.$disconnect();
      }
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS mig_enums CASCADE`).catch(() => undefined);
      await client.end();
    }
  });
});

describe("migration files", () => {
  it("are up to date with prisma/schema.prisma (else run `npm run db:diff -- <name>`)", () => {
    const pairs: [string, string][] = [
      ["prisma/schema.prisma", "prisma/migrations/sqlite/schema.snapshot.prisma"],
      ["prisma/postgresql/schema.prisma", "prisma/migrations/postgresql/schema.snapshot.prisma"],
    ];
    for (const [schema, snapshot] of pairs) {
      expect(readFileSync(path.join(ROOT, snapshot), "utf8"), `${schema} changed without a migration`).toBe(readFileSync(path.join(ROOT, schema), "utf8"));
    }
    expect(localMigrations("sqlite").map((m) => m.name)).toEqual(localMigrations("postgresql").map((m) => m.name));
  });
});

describe("migrate on SQLite", () => {
  const url = `file:${path.join(tmp, "missing-dir", "app.db")}`; // the folder does not exist yet

  it("applies every migration to a fresh file, then nothing the second time", async () => {
    const first = await migrate(url);
    expect(first.applied).toEqual(localMigrations("sqlite").map((m) => m.name));
    expect((await migrate(url)).applied).toEqual([]);

    const db = new Database(path.join(tmp, "missing-dir", "app.db"), { readonly: true });
    try {
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expectFullHistory("sqlite", db.prepare("SELECT * FROM _prisma_migrations").all() as Row[]);
      // Message search's index, which schema.prisma does not hold: a migration that rebuilds Message must make its triggers again.
      const triggers = db.prepare(`SELECT "name" FROM sqlite_master WHERE "type" = 'trigger' AND "tbl_name" = 'Message' ORDER BY "name"`).all();
      expect(triggers).toEqual([{ name: "Message_search_delete" }, { name: "Message_search_insert" }, { name: "Message_search_update" }]);
    } finally {
      db.close();
    }
  });

  it("gives the generated Prisma client a working database", async () => {
    const prisma = new SqliteClient({ adapter: new PrismaBetterSqlite3({ url }) });
    try {
      await prisma.workspace.create({ data: { id: "ws1", name: "Acme" } });
      await prisma.participant.create({
        data: { id: "p1", workspaceId: "ws1", kind: "agent", handle: "bot", displayName: "Bot", capabilities: ["chat"] },
      });
      const workspace = await prisma.workspace.findUniqueOrThrow({ where: { id: "ws1" }, include: { participants: true } });
      expect(workspace.name).toBe("Acme");
      expect(workspace.participants).toMatchObject([{ handle: "bot", status: "active", capabilities: ["chat"] }]);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("refuses an edited or a missing migration", async () => {
    const file = path.join(tmp, "tampered.db");
    await migrate(`file:${file}`);
    const db = new Database(file);
    try {
      db.prepare("UPDATE _prisma_migrations SET checksum = ?").run("0".repeat(64));
      await expect(migrate(`file:${file}`)).rejects.toThrow(/edited after it was applied/);
      db.prepare("DELETE FROM _prisma_migrations").run();
      db.prepare(
        "INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ('x', 'y', 1, '29991231000000_gone', 1, 1)",
      ).run();
      await expect(migrate(`file:${file}`)).rejects.toThrow(/29991231000000_gone is applied to the database but missing/);
    } finally {
      db.close();
    }
  });

  it("applies each migration once when two processes start together", async () => {
    const file = path.join(tmp, "race.db");
    const results = await Promise.all([runMigrateCli(`file:${file}`), runMigrateCli(`file:${file}`)]);
    expect(
      results.map((r) => r.code),
      results.map((r) => r.output).join("\n"),
    ).toEqual([0, 0]);
    const db = new Database(file, { readonly: true });
    try {
      expectFullHistory("sqlite", db.prepare("SELECT * FROM _prisma_migrations").all() as Row[]);
    } finally {
      db.close();
    }
  });
});

describe.skipIf(!hasPostgres)("migrate on PostgreSQL", () => {
  const schemas = ["mig_check", "mig_check_race"];
  const withSchema = (schema: string) => {
    const url = new URL(PG_URL);
    url.searchParams.set("schema", schema);
    return url.toString();
  };
  async function sql<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  }
  const dropSchemas = () => sql(schemas.map((s) => `DROP SCHEMA IF EXISTS "${s}" CASCADE;`).join(" "));

  afterAll(async () => {
    if (hasPostgres) await dropSchemas();
  });

  it("creates the schema, applies every migration, then nothing the second time", async () => {
    await dropSchemas();
    const first = await migrate(withSchema("mig_check"));
    expect(first.applied).toEqual(localMigrations("postgresql").map((m) => m.name));
    expect((await migrate(withSchema("mig_check"))).applied).toEqual([]);
    expectFullHistory("postgresql", await sql<Row>(`SELECT * FROM mig_check._prisma_migrations`));
    // Nothing leaked into the default schema.
    expect(await sql(`SELECT 1 FROM pg_tables WHERE schemaname = 'public' AND tablename = 'Workspace'`)).toEqual([]);
  });

  // PostgreSQL sorts an enum by its declared order: a value added later with a bare `ADD VALUE` (what
  // the diff writes) goes last, and ORDER BY on its column would then differ from SQLite's.
  it("creates the schema's enums with their values in the schema's order", async () => {
    const rows = await sql<{ name: string; labels: string[] }>(
      `SELECT t.typname AS name, array_agg(CAST(e.enumlabel AS TEXT) ORDER BY e.enumsortorder) AS labels
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
       WHERE n.nspname = 'mig_check' GROUP BY t.typname`,
    );
    const inSchema = Object.fromEntries(Object.entries(SchemaEnums).map(([name, values]) => [name, Object.values(values)]));
    expect(Object.fromEntries(rows.map((r) => [r.name, r.labels]))).toEqual(inSchema);
  });

  it("gives the generated Prisma client a working database", async () => {
    const prisma = new PostgresClient({ adapter: new PrismaPg({ connectionString: PG_URL }, { schema: "mig_check" }) });
    try {
      await prisma.workspace.create({ data: { id: "ws1", name: "Acme" } });
      await prisma.participant.create({
        data: { id: "p1", workspaceId: "ws1", kind: "agent", handle: "bot", displayName: "Bot", capabilities: ["chat"] },
      });
      const workspace = await prisma.workspace.findUniqueOrThrow({ where: { id: "ws1" }, include: { participants: true } });
      expect(workspace.name).toBe("Acme");
      expect(workspace.participants).toMatchObject([{ handle: "bot", status: "active", capabilities: ["chat"] }]);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("applies each migration once when two processes start together", async () => {
    const url = withSchema("mig_check_race");
    const results = await Promise.all([runMigrateCli(url), runMigrateCli(url)]);
    expect(
      results.map((r) => r.code),
      results.map((r) => r.output).join("\n"),
    ).toEqual([0, 0]);
    expectFullHistory("postgresql", await sql<Row>(`SELECT * FROM mig_check_race._prisma_migrations`));
  });
});

// ---- the requested_by migration: what was stored before requesters gets them where it can ----

describe("the requested_by migration", () => {
  it("makes people the requesters of their messages and of the calls that name them, and rolls up by requester", () => {
    const { before, from } = migrationsAround("sqlite", "requested_by");
    const db = new Database(path.join(tmp, "requesters.db"));
    try {
      for (const sql of before) db.exec(sql);
      db.pragma("foreign_keys = OFF"); // only the rows this test reads
      const person = db.prepare(`INSERT INTO "Participant" ("id", "workspaceId", "kind", "handle", "displayName") VALUES (?, 'ws1', ?, ?, ?)`);
      person.run("bea", "human", "bea", "Bea");
      person.run("scout", "agent", "scout", "Scout");
      const message = db.prepare(`INSERT INTO "Message" ("id", "roomId", "seq", "authorId", "body", "clientMsgId") VALUES (?, 'room1', ?, ?, 'text', ?)`);
      message.run("asked", 1, "bea", "c1");
      message.run("answered", 2, "scout", "c2");
      const usage = db.prepare(
        `INSERT INTO "UsageRecord" ("id", "workspaceId", "agentId", "reportId", "ownerId", "roomId", "messageId", "model", "inputTokens", "outputTokens", "costUsd", "costSource", "occurredAt", "day", "month")
         VALUES (?, 'ws1', 'scout', ?, 'dana', 'room1', ?, 'gpt-5', 10, 1, ?, 'reported', '2026-11-30T12:00:00.000+00:00', '2026-11-30', '2026-11')`,
      );
      usage.run("u1", "r1", "asked", 0.5);
      usage.run("u2", "r2", "answered", 0.25);
      usage.run("u3", "r3", null, 1);
      for (const sql of from) db.exec(sql);
      const requesters = (table: string) =>
        Object.fromEntries(
          (db.prepare(`SELECT "id", "requesterId" FROM "${table}" ORDER BY "id"`).all() as { id: string; requesterId: string | null }[]).map((r) => [
            r.id,
            r.requesterId,
          ]),
        );
      // An agent's earlier message names no cause: it stays without a requester.
      expect(requesters("Message")).toEqual({ answered: null, asked: "bea" });
      expect(requesters("UsageRecord")).toEqual({ u1: "bea", u2: null, u3: null });
      const rolled = db
        .prepare(`SELECT "requesterId", "calls", "costUsd" FROM "UsageRollup" WHERE "grain" = 'requester' AND "span" = 'day' ORDER BY "requesterId"`)
        .all();
      expect(rolled).toEqual([
        { requesterId: "", calls: 2, costUsd: 1.25 },
        { requesterId: "bea", calls: 1, costUsd: 0.5 },
      ]);
    } finally {
      db.close();
    }
  });
});
