// The one Prisma client. SQLite (a file) by default, PostgreSQL when DATABASE_URL says so.
//
// A generated Prisma client serves a single provider, so both are generated from one schema and the
// URL picks one at start. Their APIs are the same; the SQLite client's types stand for both.
// The client lives on globalThis because Next.js bundles its own copy of this module (for Auth.js)
// into the same process: both copies must share one connection pool.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as PostgresClient } from "./generated/postgresql/client";
import { PrismaClient } from "./generated/sqlite/client";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
export { Prisma } from "./generated/sqlite/client";

export function isPostgres(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

export function createDb(url: string): Db {
  if (isPostgres(url)) {
    const schema = new URL(url).searchParams.get("schema") ?? undefined;
    const adapter = new PrismaPg({ connectionString: url, max: 20 }, schema ? { schema } : undefined);
    return new PostgresClient({ adapter }) as unknown as Db;
  }
  const adapter = new PrismaBetterSqlite3({ url, timeout: 10_000 });
  return new PrismaClient({ adapter });
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
  const schema = isPostgres(url) ? new URL(url).searchParams.get("schema") : null;
  return schema ? `"${schema.replaceAll('"', '""')}"."${name}"` : `"${name}"`;
}

export async function closeDb(): Promise<void> {
  const current = holder.__switchboardDb;
  holder.__switchboardDb = undefined;
  await current?.db.$disconnect();
}
