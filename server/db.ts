// The one Prisma client. SQLite (a file) by default, PostgreSQL when DATABASE_URL says so.
//
// A generated Prisma client serves a single provider, so both are generated from one schema and the
// URL picks one at start. Their APIs are the same; the SQLite client's types stand for both.
// The client lives on globalThis because Next.js bundles its own copy of this module (for Auth.js)
// into the same process: both copies must share one connection pool.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaClient as PostgresClient } from "./generated/postgresql/client";
import { PrismaClient } from "./generated/sqlite/client";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
export { Prisma } from "./generated/sqlite/client";

export function isPostgres(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** `logQueries`: emit Prisma's `query` events (the benchmark's statement breakdown listens to them). */
export function createDb(url: string, opts: { logQueries?: boolean } = {}): Db {
  const link: AdapterLink = {};
  const log = opts.logQueries ? { log: [{ emit: "event" as const, level: "query" as const }] } : {};
  let db: Db;
  if (isPostgres(url)) {
    const schema = new URL(url).searchParams.get("schema") ?? undefined;
    // A transaction its process abandoned (stalled, or gone without closing its connection) must not
    // hold a room's lock for long: PostgreSQL ends it after 30 s of silence.
    const pool = { connectionString: url, max: 20, idle_in_transaction_session_timeout: 30_000 };
    // Unnamed (undefined) is what the adapter sends without a generator; its type just does not say so.
    const statementNameGenerator = ((query) => preparedStatementNames.get(query)) as (query: object) => string;
    const factory = new PrismaPg(pool, { schema, statementNameGenerator });
    db = new PostgresClient({ adapter: recording(factory, link), ...log }) as unknown as Db;
    // The hot path's statements outside transactions (server/direct-sql.ts) run on a pool of their own
    // whose sessions always use a prepared statement's generic plan. PostgreSQL would otherwise plan
    // some of them anew on every run (a statement of many array parameters looks cheaper planned for
    // the arrays at hand), which costs more than running them; their generic plans are key lookups.
    const hot = new PrismaPg({ ...pool, max: 10, options: "-c plan_cache_mode=force_generic_plan" }, { schema, statementNameGenerator });
    link.connectStatements = () => hot.connect();
  } else {
    db = new PrismaClient({ adapter: recording(new PrismaBetterSqlite3({ url, timeout: 10_000 }), link), ...log });
  }
  links.set(db, link);
  return db;
}

/**
 * Names of PostgreSQL statements the hot path runs as prepared statements (server/direct-sql.ts sets
 * them on the queries it sends); every other statement stays unnamed, parsed and planned each time.
 */
export const preparedStatementNames = new WeakMap<object, string>();

// The driver adapter each client is connected through. The hot path's transactions
// (server/direct-sql.ts) run on that same connection or pool, under the same transaction lock,
// without the query builder; on PostgreSQL its statements outside transactions use a pool of their own.
type AdapterLink = {
  adapter?: SqlDriverAdapter;
  /** PostgreSQL: connects the pool for the hot path's statements outside transactions. */
  connectStatements?: () => Promise<SqlDriverAdapter>;
  statements?: Promise<SqlDriverAdapter>;
};
const links = new WeakMap<Db, AdapterLink>();

/** The factory, noting the adapter it connects (Prisma connects lazily, and again after a disconnect). */
function recording(factory: SqlDriverAdapterFactory, link: AdapterLink): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => (link.adapter = await factory.connect()),
  };
}

/** The driver adapter `db` is connected through, connecting it first if it is not yet. */
export async function driverAdapter(db: Db = getDb()): Promise<SqlDriverAdapter> {
  const link = links.get(db);
  if (!link) throw new Error("This database client was not made by createDb");
  if (!link.adapter) await db.$connect();
  if (!link.adapter) throw new Error("The database client did not connect through its driver adapter");
  return link.adapter;
}

/**
 * The adapter the hot path runs statements on outside transactions: on PostgreSQL its own pool (see
 * `createDb`), on SQLite the client's one connection.
 */
export async function statementsAdapter(db: Db = getDb()): Promise<SqlDriverAdapter> {
  const link = links.get(db);
  if (!link?.connectStatements) return driverAdapter(db);
  link.statements ??= link.connectStatements().catch((error: unknown) => {
    link.statements = undefined; // the next call tries again
    throw error;
  });
  return link.statements;
}

const holder = globalThis as unknown as { __switchboardDb?: { url: string; db: Db } };

/** The process-wide client for `url` (DATABASE_URL at boot). */
export function getDb(url = process.env.DATABASE_URL ?? "file:./data/switchboard.db"): Db {
  if (holder.__switchboardDb?.url !== url) holder.__switchboardDb = { url, db: createDb(url) };
  return holder.__switchboardDb.db;
}

/**
 * A table's name for raw SQL, schema-qualified when DATABASE_URL names a PostgreSQL schema (Prisma
 * qualifies its own queries the same way; the connection's search_path is not changed).
 */
export function sqlTable(name: string, url = process.env.DATABASE_URL ?? ""): string {
  const key = `${url} ${name}`;
  let table = tableNames.get(key);
  if (table === undefined) {
    const schema = isPostgres(url) ? new URL(url).searchParams.get("schema") : null;
    tableNames.set(key, (table = schema ? `"${schema.replaceAll('"', '""')}"."${name}"` : `"${name}"`));
  }
  return table;
}
const tableNames = new Map<string, string>(); // the hot path names tables in every statement

export async function closeDb(): Promise<void> {
  const current = holder.__switchboardDb;
  holder.__switchboardDb = undefined;
  if (!current) return;
  const statements = links.get(current.db)?.statements;
  await Promise.all([current.db.$disconnect(), statements?.then((a) => a.dispose(), () => undefined)]);
}
