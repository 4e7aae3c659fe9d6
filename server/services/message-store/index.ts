// The message store for the process's database: SQL for the send path and replay pages, one
// implementation per dialect behind one interface (types.ts).
import { currentUrl, isPostgres } from "../../db";
import { postgresStore } from "./postgres";
import { sqliteStore } from "./sqlite";
import type { Dialect, MessageStore } from "./types";

export type * from "./types";

const stores: Record<Dialect, MessageStore> = { sqlite: sqliteStore(), postgresql: postgresStore() };

/** The store for the process's database (both are stateless: they find their connections on each call). */
export const messageStore = (): MessageStore => stores[isPostgres(currentUrl()) ? "postgresql" : "sqlite"];
