// What the message store's SQL leaves to each database: the fragments its statements differ by (lists,
// tables of values, timestamps) and how each driver hands back dates, booleans and JSON. The statements
// themselves are written once (statements.ts); sqlite.ts and postgres.ts each give a `SqlDialect`.
import { Prisma, sqlTable } from "../../db";

/** A column's SQL type where values are bound: an enum column's values name their type (PostgreSQL does not turn text into an enum by itself). */
export type SqlType = "text" | "integer" | "timestamp" | "json" | { enum: string };

/** A table of values bound as parameters: its alias, its columns (name and type) and its rows, each value in its column's order. */
export interface ValuesTable {
  alias: string;
  columns: [name: string, type: SqlType][];
  rows: unknown[][];
}

/** A table of values in a statement: what follows FROM, and how to name its columns. */
export interface Relation {
  from: Prisma.Sql;
  col(name: string): Prisma.Sql;
}

/** `col` for a table of values whose columns are named as `columns` in `alias`, or by their place (`place(i)`, from 0). */
export function columnsOf(alias: string, columns: ValuesTable["columns"], place?: (i: number) => string): Relation["col"] {
  const named = new Map(columns.map(([name], i) => [name, Prisma.raw(`"${alias}"."${place ? place(i) : name}"`)]));
  return (name) => {
    const column = named.get(name);
    if (!column) throw new Error(`No column ${name} in ${alias}`);
    return column;
  };
}

export interface SqlDialect {
  /** `column IN (values)`, for a list that is never empty. */
  inList(column: Prisma.Sql, values: readonly string[]): Prisma.Sql;
  /**
   * `table` as a relation: `from` follows FROM, and `col(name)` is one of its columns in the rest of
   * the statement (SQLite's VALUES names its columns column1, column2, ...: naming them again with an
   * extra SELECT made the statement cost more to prepare than it takes to run).
   */
  values(table: ValuesTable): Relation;
  /** What follows FROM to find the `Message`s stored under these `(authorId, clientMsgId)` pairs, as `s` (its `"id"`). */
  storedUnder(pairs: readonly (readonly [authorId: string, clientMsgId: string])[]): Prisma.Sql;
  /** A timestamp to compare or store, bound as the database keeps Prisma's DateTime (UTC). */
  timestamp(at: Date | null): Prisma.Sql;
  /** How the driver hands back what a row type declares `Date`, `boolean` and JSON. */
  readonly decode: { date(value: unknown): Date | null; bool(value: unknown): boolean; json(value: unknown): unknown };
}

export const table = (name: string): Prisma.Sql => Prisma.raw(sqlTable(name));

/** How one column of a row must be decoded: only what some driver does not hand back in the row type's own form. */
type Decoding<T> =
  (Date extends T ? "date" : never) | (T extends boolean ? "bool" : never) | (T extends number ? "number" : never) | (unknown extends T ? "json" : never);

/** A statement and the type of its rows: `decode` names the columns each driver hands back in a form of its own. */
export interface Query<Row> {
  sql: Prisma.Sql;
  decode?: { [K in keyof Row]?: Decoding<Row[K]> };
}

/** A statement's rows as its driver hands them back, by column name. */
export type RawRow = Record<string, unknown>;

/** Runs a statement and hands back its rows (none for a write without RETURNING). */
export type Run = (statement: Prisma.Sql) => Promise<RawRow[]>;

export const query = <Row>(sql: Prisma.Sql, decode?: Query<Row>["decode"]): Query<Row> => ({ sql, decode });

/** The rows of `q` run by `run`, decoded as its row type declares: the one place raw rows become typed ones. */
export async function rowsOf<Row>(d: SqlDialect, run: Run, q: Query<Row>): Promise<Row[]> {
  const found = await run(q.sql);
  const decode = Object.entries(q.decode ?? {}) as [string, "date" | "bool" | "number" | "json"][];
  if (decode.length)
    for (const row of found) for (const [column, how] of decode) row[column] = how === "number" ? Number(row[column]) : d.decode[how](row[column]);
  return found as Row[];
}
