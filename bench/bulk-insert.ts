// Bulk loads straight into a (stopped) server's database, as bench/usage-queries.ts loads its records:
// 20,000 rows per transaction on SQLite (WAL, synchronous off while loading), 20,000 rows per
// INSERT ... SELECT FROM unnest(...) on PostgreSQL. Dates are stored as each database stores a Prisma
// DateTime (SQLite: text in UTC; PostgreSQL: timestamp without zone, in UTC).
import Database from "better-sqlite3";
import type pg from "pg";
import { sqliteDateTime } from "../server/sqlite-time";
import { pgClient, type TestServer } from "../tests/integration/harness";

export interface Bulk {
  /** Inserts the rows (all with `columns`); returns how many. */
  insert(table: string, columns: string[], rows: Iterable<Record<string, unknown>>): Promise<number>;
  /** Runs a statement (several, without parameters) that returns no rows; `$1`-style parameters. */
  exec(sql: string, params?: unknown[]): Promise<void>;
  /** Reads rows; `$1`-style parameters. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

const CHUNK = 20_000;
// Column types for PostgreSQL's unnest (anything else is text). Enum columns take arrays of their enum
// type: PostgreSQL does not turn text into an enum by itself.
const PG_TYPES: Record<string, string> = {
  seq: "int4",
  replyCount: "int4",
  lastSeq: "int4",
  createdAt: "timestamp",
  lastReplyAt: "timestamp",
  kind: `"MessageKind"`,
};

const quoted = (columns: string[]) => columns.map((c) => `"${c}"`).join(",");

async function inChunks(rows: Iterable<Record<string, unknown>>, flush: (chunk: Record<string, unknown>[]) => unknown): Promise<number> {
  let chunk: Record<string, unknown>[] = [];
  let n = 0;
  for (const r of rows) {
    chunk.push(r);
    if (chunk.length === CHUNK) {
      await flush(chunk);
      n += chunk.length;
      chunk = [];
    }
  }
  if (chunk.length) await flush(chunk);
  return n + chunk.length;
}

export async function openBulk(server: TestServer): Promise<Bulk> {
  return server.dialect === "sqlite" ? sqliteBulk(server.databaseUrl.slice("file:".length)) : postgresBulk(await pgClient(server));
}

function sqliteBulk(file: string): Bulk {
  const sqlite = new Database(file);
  const value = (v: unknown) => (v instanceof Date ? sqliteDateTime(v) : v);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = OFF");
  return {
    async insert(table, columns, rows) {
      const insert = sqlite.prepare(`INSERT INTO "${table}" (${quoted(columns)}) VALUES (${columns.map(() => "?").join(",")})`);
      const batch = sqlite.transaction((chunk: Record<string, unknown>[]) => {
        for (const r of chunk) insert.run(...columns.map((c) => value(r[c])));
      });
      return inChunks(rows, batch);
    },
    async exec(sql, params) {
      if (params) sqlite.prepare(sql.replace(/\$\d+/g, "?")).run(...params.map(value));
      else sqlite.exec(sql);
    },
    async query<T>(sql: string, params: unknown[] = []) {
      return sqlite.prepare(sql.replace(/\$\d+/g, "?")).all(...params) as T[];
    },
    async close() {
      sqlite.pragma("synchronous = NORMAL");
      sqlite.pragma("wal_checkpoint(TRUNCATE)");
      sqlite.close();
    },
  };
}

function postgresBulk(client: pg.Client): Bulk {
  // UTC text: Prisma keeps a DateTime as a timestamp without zone, in UTC.
  const value = (v: unknown) => (v instanceof Date ? v.toISOString().replace("T", " ").replace("Z", "") : v);
  return {
    async insert(table, columns, rows) {
      return inChunks(rows, (chunk) =>
        client.query(
          `INSERT INTO "${table}" (${quoted(columns)}) SELECT * FROM unnest(${columns.map((c, i) => `$${i + 1}::${PG_TYPES[c] ?? "text"}[]`).join(",")})`,
          columns.map((c) => chunk.map((r) => value(r[c]))),
        ),
      );
    },
    async exec(sql, params) {
      await client.query(sql, params?.map(value));
    },
    async query<T>(sql: string, params: unknown[] = []) {
      return (await client.query(sql, params)).rows as T[];
    },
    async close() {
      await client.end();
    },
  };
}
