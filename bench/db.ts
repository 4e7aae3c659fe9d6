// A Prisma client on the benchmark's database for the bench's own child processes (breakdown, bulk
// fill), built by server/db.ts's createDb like the server's, optionally logging every statement (those
// of Prisma's query builder and those of the direct hot path). Installing it on globalThis makes the
// server's modules (getDb) use it in that process.
import { createDb, type Db } from "../server/db";
import { logDirectStatements } from "../server/direct-sql";

export type Logged = { query: string; duration: number };

export function benchClient(url: string, onQuery?: (e: Logged) => void): Db {
  const db = createDb(url, { logQueries: !!onQuery });
  if (onQuery) {
    (db as unknown as { $on(e: "query", fn: (e: Logged) => void): void }).$on("query", (e) => onQuery({ query: e.query, duration: Number(e.duration) }));
    logDirectStatements(onQuery);
  }
  (globalThis as unknown as { __switchboardDb: { url: string; db: unknown } }).__switchboardDb = { url, db };
  return db;
}
