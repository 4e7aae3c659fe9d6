// The server's database connections in the bench's own child processes (breakdown, bulk fill), opened
// by server/db.ts like the server's, optionally logging what runs on them: Prisma's query events, and
// each call into the message store (one statement or one transaction), timed by wrapping the store's
// methods from here (bench code only: the server has no hook for it).
import { openDb, type Db } from "../server/db";
import { messageStore, type MessageStore } from "../server/services/message-store";

export type Logged = { query: string; duration: number };
type OnQuery = (e: Logged) => void;

export function benchClient(url: string, onQuery?: OnQuery): Db {
  const db = openDb(url, { logQueries: !!onQuery });
  if (onQuery) {
    (db as unknown as { $on(e: "query", fn: (e: Logged) => void): void }).$on("query", (e) => onQuery({ query: e.query, duration: Number(e.duration) }));
    logStore(messageStore(), onQuery);
  }
  return db;
}

const STORE_CALLS = ["batchFacts", "agentRun", "storeIfUnchanged", "holding", "roomRange"] as const;

function logStore(store: MessageStore, onQuery: OnQuery): void {
  const calls = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of STORE_CALLS) {
    const call = calls[name];
    calls[name] = (...args: unknown[]) => {
      const t0 = performance.now();
      return call(...args).finally(() => onQuery({ query: `message store: ${name}`, duration: performance.now() - t0 }));
    };
  }
}
