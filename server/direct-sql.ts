// Transactions for the hot path (storing a batch of sends), run on Prisma's own driver adapter.
//
// Through the Prisma client a statement costs about 0.25 ms of CPU before and after the database's own
// work (query planning in the client runtime, result mapping), and a batch of sends is mostly such
// fixed costs. Here the same SQL goes straight to the adapter Prisma connected: the same connection
// (SQLite) or pool (PostgreSQL) and the same transaction lock, so these transactions and Prisma's
// serialize exactly as Prisma's own do. Statements are `Prisma.sql` templates, so values are always
// bound, never spliced.
import type { ArgType, SqlDriverAdapter, SqlQueryable } from "@prisma/driver-adapter-utils";
import { createHash } from "node:crypto";
import { driverAdapter, preparedStatementNames, statementsAdapter, type Prisma } from "./db";
import { sqliteDateTime } from "./sqlite-time";
import { AppError } from "./errors";

export type Dialect = "sqlite" | "postgresql";

export interface DirectTx {
  readonly dialect: Dialect;
  /** Rows as objects by column name. Integers come back as numbers; DateTime columns as text on SQLite. */
  query<T>(statement: Prisma.Sql): Promise<T[]>;
  /** The number of rows changed. */
  execute(statement: Prisma.Sql): Promise<number>;
}

/** Statement text and timing, for the benchmark's breakdown. */
export type StatementLog = (e: { query: string; duration: number }) => void;
const logHolder = globalThis as unknown as { __switchboardDirectLog?: StatementLog };
export function logDirectStatements(log: StatementLog | undefined): void {
  logHolder.__switchboardDirectLog = log;
}

/**
 * Runs `fn` in one transaction and commits; rolls back and rethrows if `fn` or the commit throws.
 * Errors from the database are the adapter's `DriverAdapterError` or, for SQLite statements,
 * better-sqlite3's `SqliteError` (`isUniqueViolation` knows both).
 */
export async function directTransaction<T>(fn: (tx: DirectTx) => Promise<T>): Promise<T> {
  const adapter = await driverAdapter();
  const began = performance.now();
  const transaction = await adapter.startTransaction(); // BEGIN, holding the lock or a pooled connection
  logHolder.__switchboardDirectLog?.({ query: "BEGIN", duration: performance.now() - began });
  const tx = new AdapterTx(adapter, transaction);
  let timer: NodeJS.Timeout | undefined;
  let result: T;
  try {
    // Like Prisma's interactive transactions, never hold the lock or the connection indefinitely.
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AppError("UNAVAILABLE", "The database took too long; retry")), TRANSACTION_TIMEOUT_MS);
    });
    result = await Promise.race([fn(tx), expired]);
  } catch (error) {
    tx.close(); // a timed-out `fn` still running must not write outside the transaction
    await transaction.executeRaw(bare("ROLLBACK")).catch(() => undefined); // the database may have ended it already
    await transaction.rollback(); // releases the connection or the lock
    throw error;
  } finally {
    clearTimeout(timer);
  }
  tx.close();
  try {
    await tx.run("COMMIT", () => transaction.executeRaw(bare("COMMIT")));
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
  await transaction.commit();
  return result;
}

const TRANSACTION_TIMEOUT_MS = 20_000;

/**
 * Runs statements outside a transaction. On PostgreSQL each runs on any connection of the hot path's
 * pool (generic plans, `db.statementsAdapter`) and commits on its own (so a write here must be one
 * statement). On SQLite they run on the one connection, inside whatever transaction it has open: reads only.
 */
export async function directStatements<T>(fn: (q: DirectTx) => Promise<T>): Promise<T> {
  const adapter = await statementsAdapter();
  return fn(new AdapterTx(adapter, adapter));
}

/**
 * Marks a statement to run as a named prepared statement on PostgreSQL: parsed and planned once per
 * connection instead of every time (most of a small statement's cost there). For statements whose
 * text does not vary with their values (arrays, not lists) and whose generic plan stays right while
 * a table's statistics lag behind its growth (each row of a growing table found by a unique key).
 * SQLite prepares every direct statement anyway.
 */
export function prepared(statement: Prisma.Sql): Prisma.Sql {
  preparedStatements.add(statement);
  return statement;
}

const preparedStatements = new WeakSet<Prisma.Sql>();
const statementNames = new Map<string, string | null>();
/** A guard, not a limit the code reaches: each name holds memory on every pooled connection. */
const MAX_PREPARED = 100;

function statementName(sql: string): string | null {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = statementNames.size < MAX_PREPARED ? `sb_${createHash("sha1").update(sql).digest("hex").slice(0, 24)}` : null;
    statementNames.set(sql, name);
  }
  return name;
}

const bare = (sql: string) => ({ sql, args: [], argTypes: [] });

class AdapterTx implements DirectTx {
  readonly dialect: Dialect;
  private closed = false;
  /** SQLite: the adapter's better-sqlite3 connection, whose statements this transaction prepares once. */
  private readonly sqlite: SqliteStatements | null;

  constructor(
    adapter: SqlDriverAdapter,
    private readonly transaction: SqlQueryable,
  ) {
    this.dialect = adapter.provider === "postgres" ? "postgresql" : "sqlite";
    this.sqlite = this.dialect === "sqlite" ? SqliteStatements.of(transaction) : null;
  }

  async query<T>(statement: Prisma.Sql): Promise<T[]> {
    if (this.sqlite) {
      const sqlite = this.sqlite;
      return this.run(statement.sql, async () => sqlite.all(statement.sql, statement.values) as T[]);
    }
    const q = this.forAdapter(statement);
    const { columnNames, rows } = await this.run(q.sql, () => this.transaction.queryRaw(q));
    return rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < columnNames.length; i++) out[columnNames[i]] = typeof row[i] === "bigint" ? Number(row[i]) : row[i];
      return out as T;
    });
  }

  execute(statement: Prisma.Sql): Promise<number> {
    if (this.sqlite) {
      const sqlite = this.sqlite;
      return this.run(statement.sql, async () => sqlite.run(statement.sql, statement.values));
    }
    const q = this.forAdapter(statement);
    return this.run(q.sql, () => this.transaction.executeRaw(q));
  }

  async run<R>(sql: string, call: () => Promise<R>): Promise<R> {
    if (this.closed && sql !== "COMMIT") throw new AppError("UNAVAILABLE", "The transaction has ended; retry");
    const log = logHolder.__switchboardDirectLog;
    if (!log) return call();
    const t0 = performance.now();
    try {
      return await call();
    } finally {
      log({ query: sql, duration: performance.now() - t0 });
    }
  }

  /** No statement of `fn` runs after this: the transaction is committing or rolled back. */
  close(): void {
    this.closed = true;
  }

  private forAdapter(statement: Prisma.Sql) {
    const query = {
      sql: this.dialect === "postgresql" ? statement.text : statement.sql,
      args: statement.values,
      argTypes: statement.values.map(argType),
    };
    const name = preparedStatements.has(statement) ? statementName(query.sql) : null;
    if (name) preparedStatementNames.set(query, name);
    return query;
  }
}

interface SqliteStatement {
  safeIntegers(on: boolean): SqliteStatement;
  all(params: unknown[]): unknown[];
  run(params: unknown[]): { changes: number };
}
interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
}

/**
 * Statements on the SQLite adapter's connection, prepared once and kept (the adapter prepares every
 * statement anew, which is most of a small statement's cost). Values are bound as the adapter binds
 * them, so rows written here read back the same through Prisma: DateTime as ISO 8601 text in UTC.
 */
class SqliteStatements {
  private static readonly caches = new WeakMap<SqliteDatabase, SqliteStatements>();
  private static readonly MAX = 500;
  private readonly prepared = new Map<string, SqliteStatement>();

  private constructor(private readonly db: SqliteDatabase) {}

  static of(queryable: SqlQueryable): SqliteStatements | null {
    const db = (queryable as unknown as { client?: SqliteDatabase }).client;
    if (!db || typeof db.prepare !== "function") return null; // not the better-sqlite3 adapter
    let cache = SqliteStatements.caches.get(db);
    if (!cache) SqliteStatements.caches.set(db, (cache = new SqliteStatements(db)));
    return cache;
  }

  all(sql: string, values: unknown[]): unknown[] {
    return this.statement(sql).all(values.map(sqliteValue));
  }

  run(sql: string, values: unknown[]): number {
    return this.statement(sql).run(values.map(sqliteValue)).changes;
  }

  private statement(sql: string): SqliteStatement {
    let stmt = this.prepared.get(sql);
    if (!stmt) {
      if (this.prepared.size >= SqliteStatements.MAX) this.prepared.clear();
      stmt = this.db.prepare(sql).safeIntegers(false);
      this.prepared.set(sql, stmt);
    }
    return stmt;
  }
}

function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return sqliteDateTime(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  return value ?? null;
}

function argType(value: unknown): ArgType {
  if (value instanceof Date) return { scalarType: "datetime", arity: "scalar" };
  if (typeof value === "number") return { scalarType: Number.isInteger(value) ? "int" : "float", arity: "scalar" };
  if (typeof value === "bigint") return { scalarType: "bigint", arity: "scalar" };
  if (typeof value === "boolean") return { scalarType: "boolean", arity: "scalar" };
  if (typeof value === "string") return { scalarType: "string", arity: "scalar" };
  return { scalarType: "unknown", arity: "scalar" };
}
