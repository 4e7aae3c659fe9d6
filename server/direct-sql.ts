// Transactions for the hot path (storing a batch of sends), run on Prisma's own driver adapter.
//
// Through the Prisma client a statement costs about 0.25 ms of CPU before and after the database's own
// work (query planning in the client runtime, result mapping), and a batch of sends is mostly such
// fixed costs. Here the same SQL goes straight to the adapter Prisma connected: the same connection
// (SQLite) or pool (PostgreSQL), the same transaction lock, the same error mapping, so these
// transactions and Prisma's serialize exactly as Prisma's own do. Statements are `Prisma.sql`
// templates, so values are always bound, never spliced.
import type { ArgType, SqlDriverAdapter, Transaction } from "@prisma/driver-adapter-utils";
import { driverAdapter, type Prisma } from "./db";

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
 * Errors from the database are the adapter's `DriverAdapterError` (see `isUniqueViolation`).
 */
export async function directTransaction<T>(fn: (tx: DirectTx) => Promise<T>): Promise<T> {
  const adapter = await driverAdapter();
  const began = performance.now();
  const transaction = await adapter.startTransaction(); // BEGIN, holding the lock or a pooled connection
  logHolder.__switchboardDirectLog?.({ query: "BEGIN", duration: performance.now() - began });
  const tx = new AdapterTx(adapter, transaction);
  let result: T;
  try {
    result = await fn(tx);
  } catch (error) {
    await transaction.executeRaw(bare("ROLLBACK")).catch(() => undefined); // the database may have ended it already
    await transaction.rollback(); // releases the connection or the lock
    throw error;
  }
  try {
    await tx.run(bare("COMMIT"), (t) => t.executeRaw(bare("COMMIT")));
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
  await transaction.commit();
  return result;
}

const bare = (sql: string) => ({ sql, args: [], argTypes: [] });

class AdapterTx implements DirectTx {
  readonly dialect: Dialect;

  constructor(
    adapter: SqlDriverAdapter,
    private readonly transaction: Transaction,
  ) {
    this.dialect = adapter.provider === "postgres" ? "postgresql" : "sqlite";
  }

  async query<T>(statement: Prisma.Sql): Promise<T[]> {
    const q = this.prepare(statement);
    const { columnNames, rows } = await this.run(q, (t) => t.queryRaw(q));
    return rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < columnNames.length; i++) out[columnNames[i]] = typeof row[i] === "bigint" ? Number(row[i]) : row[i];
      return out as T;
    });
  }

  execute(statement: Prisma.Sql): Promise<number> {
    const q = this.prepare(statement);
    return this.run(q, (t) => t.executeRaw(q));
  }

  async run<R>(q: { sql: string }, call: (t: Transaction) => Promise<R>): Promise<R> {
    const log = logHolder.__switchboardDirectLog;
    if (!log) return call(this.transaction);
    const t0 = performance.now();
    try {
      return await call(this.transaction);
    } finally {
      log({ query: q.sql, duration: performance.now() - t0 });
    }
  }

  private prepare(statement: Prisma.Sql) {
    return {
      sql: this.dialect === "postgresql" ? statement.text : statement.sql,
      args: statement.values,
      argTypes: statement.values.map(argType),
    };
  }
}

function argType(value: unknown): ArgType {
  if (value instanceof Date) return { scalarType: "datetime", arity: "scalar" };
  if (typeof value === "number") return { scalarType: Number.isInteger(value) ? "int" : "float", arity: "scalar" };
  if (typeof value === "bigint") return { scalarType: "bigint", arity: "scalar" };
  if (typeof value === "boolean") return { scalarType: "boolean", arity: "scalar" };
  if (typeof value === "string") return { scalarType: "string", arity: "scalar" };
  return { scalarType: "unknown", arity: "scalar" };
}
