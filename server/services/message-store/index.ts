// The message store for the process's database: SQL for the send path and replay pages, written once
// (statements.ts) and run by one executor per database, behind one interface (types.ts).
import { currentUrl, isPostgres } from "../../db";
import { mintCommitted, type Committed } from "../../realtime/committed";
import { postgresStore } from "./postgres";
import { sqliteStore } from "./sqlite";
import type { Dialect, MessageStore } from "./types";

export type * from "./types";

const stores: Record<Dialect, MessageStore> = { sqlite: sqliteStore(), postgresql: postgresStore() };

/** The store for the process's database (both are stateless: they find their connections on each call). */
export const messageStore = (): MessageStore => stores[isPostgres(currentUrl()) ? "postgresql" : "sqlite"];

/**
 * The proof that what the store wrote committed, for the send path to publish it with: `storeIfUnchanged`
 * and `holding` commit before they return, so call it only after one of them returned.
 */
export const storeCommitted = (): Committed => mintCommitted();
