// A Prisma client on the benchmark's database for the bench's own child processes (breakdown, bulk
// fill), built like server/db.ts builds the server's, optionally logging every statement. Installing
// it on globalThis makes the server's modules (getDb) use it in that process.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as PostgresClient } from "../server/generated/postgresql/client";
import { PrismaClient as SqliteClient } from "../server/generated/sqlite/client";

export type Logged = { query: string; duration: number };

export function benchClient(url: string, onQuery?: (e: Logged) => void): SqliteClient {
  const options = onQuery ? { log: [{ emit: "event" as const, level: "query" as const }] } : {};
  const db = /^postgres(ql)?:\/\//.test(url)
    ? (new PostgresClient({
        adapter: new PrismaPg({ connectionString: url, max: 20 }, { schema: new URL(url).searchParams.get("schema") ?? undefined }),
        ...options,
      }) as unknown as SqliteClient)
    : new SqliteClient({ adapter: new PrismaBetterSqlite3({ url, timeout: 10_000 }), ...options });
  if (onQuery) (db as unknown as { $on(e: "query", fn: (e: Logged) => void): void }).$on("query", (e) => onQuery({ query: e.query, duration: Number(e.duration) }));
  (globalThis as unknown as { __switchboardDb: { url: string; db: unknown } }).__switchboardDb = { url, db };
  return db;
}
