// The message store on SQLite: its dialect (lists as IN lists and VALUES tuples, DateTime as ISO 8601
// text in UTC as the adapter binds Prisma's own, booleans as 0 or 1) and how its statements run. Writes
// run on the driver adapter Prisma connected (server/db.ts `sqliteAdapter`), so they share Prisma's one
// connection and its transaction lock: a transaction here and one of Prisma's never interleave. Reads
// outside a transaction (what a batch is decided on, replay pages) run on a read-only connection of the
// send path's own (`sqliteReader`), each statement prepared once: they see the last commit, and a batch
// decided on them is stored only if the room has not moved since (`storeIfUnchanged`).
import type { ArgType, SqlQuery, SqlQueryable } from "@prisma/driver-adapter-utils";
import { Prisma, sqliteAdapter, sqliteReader, sqliteStatement } from "../../db";
import { sqliteDateTime } from "../../sqlite-time";
import { columnsOf, rowsOf, table, type RawRow, type Relation, type Run, type SqlDialect, type ValuesTable } from "./dialect";
import { whileHeld } from "./hold-limit";
import { activeAgents, batchWrites, factsReader, holdAgents, holdRoom, moveRoom, roomRange } from "./statements";
import type { BatchWrite, MessageStore } from "./types";

/**
 * A table of values as `VALUES` tuples, in a subquery named by its alias; its columns keep the names
 * SQLite gives them (column1, column2, ...), which `col` maps the table's names to. Built as one flat
 * statement (a fragment per row would cost more than the statement takes to run).
 */
function valuesTable({ alias, columns, rows }: ValuesTable): Relation {
  const timestamps = columns.map(([, type]) => type === "timestamp");
  const strings: string[] = [];
  const values: unknown[] = [];
  rows.forEach((row, r) =>
    row.forEach((value, i) => {
      strings.push(i > 0 ? ", " : r > 0 ? "), (" : "(VALUES (");
      values.push(timestamps[i] && value instanceof Date ? sqliteDateTime(value) : value);
    }),
  );
  strings.push(`)) AS "${alias}"`);
  return { from: new Prisma.Sql(strings, values), col: columnsOf(alias, columns, (i) => `column${i + 1}`) };
}

export const sqliteDialect: SqlDialect = {
  inList: (column, values) => Prisma.sql`${column} IN (${Prisma.join(values)})`,
  values: valuesTable,
  storedUnder: (pairs) =>
    Prisma.sql`${table("Message")} s WHERE (s."authorId", s."clientMsgId") IN (VALUES ${Prisma.join(pairs.map(([a, c]) => Prisma.sql`(${a}, ${c})`))})`,
  timestamp: (at) => Prisma.sql`${at && sqliteDateTime(at)}`,
  decode: {
    date: (value) => (value === null || value === undefined ? null : new Date(value as string)),
    bool: (value) => value === 1,
    json: (value) => (typeof value === "string" ? JSON.parse(value) : value),
  },
};

function argType(value: unknown): ArgType {
  if (typeof value === "number") return { scalarType: Number.isInteger(value) ? "int" : "float", arity: "scalar" };
  if (typeof value === "string") return { scalarType: "string", arity: "scalar" };
  return { scalarType: "unknown", arity: "scalar" };
}

const adapterQuery = (statement: Prisma.Sql): SqlQuery => ({ sql: statement.sql, args: statement.values, argTypes: statement.values.map(argType) });

/** A statement on the adapter's connection (in its transaction): rows as objects by column name. */
const onAdapter =
  (q: SqlQueryable): Run =>
  async (statement) => {
    const { columnNames, rows } = await q.queryRaw(adapterQuery(statement));
    return rows.map((row) => Object.fromEntries(columnNames.map((name, i) => [name, row[i]])));
  };

/** A read on the send path's read-only connection, its statement prepared once. */
const readOnly: Run = async (statement) => sqliteStatement(sqliteReader(), statement.sql).all(statement.values) as RawRow[];

const execute = (q: SqlQueryable, statement: Prisma.Sql): Promise<number> => q.executeRaw(adapterQuery(statement));

/** Stores the batch in the caller's transaction if the room is still at `afterSeq`; false (nothing written) if not. */
async function store(q: SqlQueryable, w: BatchWrite): Promise<boolean> {
  if ((await execute(q, moveRoom(sqliteDialect, w))) !== 1) return false;
  for (const [, statement] of batchWrites(sqliteDialect, w)) await execute(q, statement);
  return true;
}

/** Runs `fn` in a transaction on the adapter's connection (under its lock) and commits; rolls back if it throws. */
async function transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
  const tx = await (await sqliteAdapter()).startTransaction(); // BEGIN, holding the adapter's lock
  try {
    const result = await fn(tx);
    await tx.executeRaw({ sql: "COMMIT", args: [], argTypes: [] });
    return result;
  } catch (error) {
    await tx.executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] }).catch(() => undefined); // SQLite may have ended it already
    throw error;
  } finally {
    await tx.commit(); // releases the adapter's lock (the transaction itself ended above)
  }
}

export function sqliteStore(): MessageStore {
  return {
    dialect: "sqlite",
    ...factsReader(sqliteDialect, readOnly),

    storeIfUnchanged: (w) =>
      transaction(async (tx) => {
        if (w.agents.length && (await execute(tx, holdAgents(sqliteDialect, w.agents, w.at))) !== w.agents.length) return false;
        return store(tx, w);
      }),

    holding: (roomId, agentIds, fn) =>
      transaction(async (tx) => {
        // The first write takes SQLite's write lock (other processes on the file wait); the agents' and
        // the room's rows are touched in the order PostgreSQL's store takes them.
        const active = agentIds.length ? await rowsOf(sqliteDialect, onAdapter(tx), activeAgents(sqliteDialect, agentIds, new Date())) : [];
        await execute(tx, holdRoom(roomId));
        return whileHeld(
          factsReader(sqliteDialect, onAdapter(tx)),
          active.map((a) => a.id),
          (write) => store(tx, write),
          fn,
        );
      }),

    roomRange: (roomId, afterSeq, throughSeq, limit) => roomRange(sqliteDialect, readOnly, roomId, afterSeq, throughSeq, limit),
  };
}
