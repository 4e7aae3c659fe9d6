// The database connections. SQLite (a file) by default, PostgreSQL when DATABASE_URL says so.
//
// A generated Prisma client serves a single provider, so both are generated from one schema and the
// URL picks one at start. Their APIs are the same; the SQLite client's types stand for both.
// Besides the Prisma client, the message store (services/message-store/) runs the send path's SQL:
// on SQLite through the very driver adapter Prisma connected (one connection, one transaction lock),
// on PostgreSQL on a pg pool of its own.
// The connections live on globalThis because Next.js bundles its own copy of this module (for
// Auth.js) into the same process: both copies must share them.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import Database from "better-sqlite3";
import path from "node:path";
import pg from "pg";
import { PrismaClient as PostgresClient } from "./generated/postgresql/client";
import { PrismaClient } from "./generated/sqlite/client";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
export { Prisma } from "./generated/sqlite/client";
/** The schema's enums as types (the values are the same strings on both databases). */
export type * from "./generated/sqlite/enums";

export function isPostgres(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The connections for one database URL. */
interface Connections {
  url: string;
  db: Db;
  /** SQLite: the driver adapter Prisma connected, once it has (Prisma connects lazily, and again after a disconnect). */
  adapter?: SqlDriverAdapter;
  /** PostgreSQL: the send path's pool, and its reads' (replay and sync pages), each made on first use. */
  pool?: pg.Pool;
  readPool?: pg.Pool;
  /** SQLite: the send path's read-only connection, opened on first use. */
  reader?: Database.Database;
}

/** `logQueries`: emit Prisma's `query` events (the benchmark's statement breakdown listens to them). */
function connect(url: string, opts: { logQueries?: boolean } = {}): Connections {
  const log = opts.logQueries ? { log: [{ emit: "event" as const, level: "query" as const }] } : {};
  if (isPostgres(url)) {
    const schema = new URL(url).searchParams.get("schema") ?? undefined;
    const db = new PostgresClient({ adapter: new PrismaPg(postgresPoolConfig(url, 20), { schema }), ...log }) as unknown as Db;
    return { url, db };
  }
  const connections: Connections = { url, db: undefined as unknown as Db };
  const factory = new PrismaBetterSqlite3({ url, timeout: 10_000 });
  const noting: SqlDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => (connections.adapter = await factory.connect()),
  };
  connections.db = new PrismaClient({ adapter: noting, ...log });
  return connections;
}

/**
 * A transaction its process abandoned (stalled, or gone without closing its connection) must not hold
 * a room's lock for long: PostgreSQL ends it after 30 s of silence.
 *
 * A connection, once opened, stays open (no idle timeout). A new connection's backend starts with cold
 * caches, and its first statements took 40–80 ms each to parse and plan in a flood (bench:flood) where
 * the pools had shrunk while idle and grew again: every room's sends waited on them. The pools stay at
 * the size their busiest moment needed, at most `max` (docs/operations.md counts them).
 */
const postgresPoolConfig = (url: string, max: number): pg.PoolConfig => ({
  connectionString: url,
  max,
  idleTimeoutMillis: 0,
  idle_in_transaction_session_timeout: 30_000,
});

const holder = globalThis as unknown as { __switchboardDb?: Connections };

function current(url: string): Connections {
  if (holder.__switchboardDb?.url !== url) holder.__switchboardDb = connect(url);
  return holder.__switchboardDb;
}

/** Opens the process's connections anew for `url` (the benchmark's child processes log Prisma's queries). */
export function openDb(url: string, opts: { logQueries?: boolean } = {}): Db {
  holder.__switchboardDb = connect(url, opts);
  return holder.__switchboardDb.db;
}

/** The process's Prisma client: for `url` (opening it if another was open), or the one open. */
export function getDb(url = currentUrl()): Db {
  return current(url).db;
}

/** The URL the process's connections are for (the server opens them at boot with `openDb`). */
export function currentUrl(): string {
  const url = holder.__switchboardDb?.url;
  if (!url) throw new Error("No database is open: call openDb(url) first");
  return url;
}

/** SQLite: the driver adapter the process's Prisma client is connected through, connecting it if it is not yet. */
export async function sqliteAdapter(): Promise<SqlDriverAdapter> {
  const connections = current(currentUrl());
  if (!connections.adapter) await connections.db.$connect();
  if (!connections.adapter) throw new Error("The SQLite client did not connect through its driver adapter");
  return connections.adapter;
}

/**
 * PostgreSQL: the send path's pool (server/services/message-store/postgres.ts). Its sessions always use
 * a prepared statement's generic plan: PostgreSQL would otherwise plan the send path's statements of
 * many array parameters anew on some runs, which costs more than running them; their generic plans
 * are key lookups. Timestamps without time zone are read as UTC, as Prisma writes them.
 */
export function sendPool(): pg.Pool {
  const connections = current(currentUrl());
  return (connections.pool ??= messagePool(connections.url, "send pool", 10));
}

/**
 * PostgreSQL: the pool of the message store's pages (replay, `room:sync`), set up as the send pool's.
 * A pool of its own: a client paging through history (three queries a page, several pages at once)
 * would otherwise take the send pool's connections, and every room's sends would queue behind it.
 */
export function readPool(): pg.Pool {
  const connections = current(currentUrl());
  return (connections.readPool ??= messagePool(connections.url, "read pool", 6));
}

function messagePool(url: string, name: string, max: number): pg.Pool {
  // Set before the pool hands a new connection out: pg-pool awaits what `onConnect` returns (its
  // @types say void, an older signature). From the "connect" event, the `SET` ran beside the
  // connection's first query, which pg deprecates.
  const onConnect = (client: pg.ClientBase): Promise<unknown> => client.query("SET plan_cache_mode = force_generic_plan");
  const pool = new pg.Pool({
    ...postgresPoolConfig(url, max),
    types: { getTypeParser: utcTimestamps },
    onConnect: onConnect as (client: pg.ClientBase) => void,
  });
  pool.on("error", (error) => console.error(`postgres (${name}):`, error)); // an idle client's connection broke
  return pool;
}

/**
 * SQLite: a read-only connection of the send path's own, for its reads outside transactions (what a
 * batch is decided on, replay pages). Under WAL it reads the last commit without waiting for, or
 * holding up, the writer; its statements are prepared once (`sqliteStatement`).
 */
export function sqliteReader(): Database.Database {
  const connections = current(currentUrl());
  connections.reader ??= new Database(sqliteFile(connections.url), { readonly: true, fileMustExist: true, timeout: 10_000 });
  return connections.reader;
}

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
/** How many statements a connection keeps prepared (lists of values make some texts vary). */
const MAX_PREPARED = 200;

/** `sql` prepared on `db` once, and kept. */
export function sqliteStatement(db: Database.Database, sql: string): Database.Statement {
  let prepared = statements.get(db);
  if (!prepared) statements.set(db, (prepared = new Map()));
  let statement = prepared.get(sql);
  if (!statement) {
    if (prepared.size >= MAX_PREPARED) prepared.clear();
    prepared.set(sql, (statement = db.prepare(sql)));
  }
  return statement;
}

/** The database file a `file:` URL names, as the SQLite adapter opens it (relative to the working directory). */
export function sqliteFile(url: string): string {
  return path.resolve(url.replace(/^file:/, "").replace(/\?.*$/, ""));
}

const TIMESTAMP_OID = 1114;
const utcTimestamps = ((oid: number, format?: "text" | "binary") =>
  oid === TIMESTAMP_OID ? (text: string) => new Date(`${text.replace(" ", "T")}Z`) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser;

/**
 * A table's name for raw SQL, schema-qualified when DATABASE_URL names a PostgreSQL schema (Prisma
 * qualifies its own queries the same way; the connection's search_path is not changed).
 */
export function sqlTable(name: string, url = currentUrl()): string {
  const key = `${url} ${name}`;
  let table = tableNames.get(key);
  if (table === undefined) {
    const schema = isPostgres(url) ? new URL(url).searchParams.get("schema") : null;
    tableNames.set(key, (table = schema ? `"${schema.replaceAll('"', '""')}"."${name}"` : `"${name}"`));
  }
  return table;
}
const tableNames = new Map<string, string>(); // the send path names tables in every statement

/** An enum type's name for raw SQL on PostgreSQL: qualified as a table's is (Prisma creates both in the schema). */
export const sqlType = (name: string, url = currentUrl()): string => sqlTable(name, url);

export async function closeDb(): Promise<void> {
  const connections = holder.__switchboardDb;
  holder.__switchboardDb = undefined;
  if (!connections) return;
  connections.reader?.close();
  await Promise.all([connections.db.$disconnect(), connections.pool?.end(), connections.readPool?.end()]);
}
