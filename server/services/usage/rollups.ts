// Usage rollups: what the dashboards and budgets read instead of a million usage records.
//
// Every usage record is added to its UsageRollup rows (one per grain, plus a month row for the grains
// that keep one), in the transaction that inserts the record, by an upsert that increments counters.
// The record and its increments commit or roll back together (a repeated report id fails on the
// record's unique key and adds nothing), so the rollups always equal the sums of the records.
// Records stored before the rollups existed were summed by the usage_rollups migration, with the
// statement `rollupBackfillSql` builds.
import { currentUrl, getDb, isPostgres, Prisma, sqlTable, type Tx } from "../../db";

/** The attribution columns a grain may keep. */
export type Dimension = "agentId" | "ownerId" | "requesterId" | "roomId" | "taskId" | "model";

interface GrainDef {
  name: string;
  keeps: readonly Dimension[];
  /** Also summed per month, so a long range reads a dozen month rows instead of a year of days. */
  monthly: boolean;
}

/**
 * Smallest first; a query reads the first grain that keeps what it filters and groups by. The owner
 * rides with the agent (an agent has one owner); the requester (who drove the call) does not. The
 * *_model grains serve a dashboard filtered to one model. "all" keeps everything and answers what the
 * others cannot (one agent's rooms, a member's tasks, who requested an agent's calls): those filters
 * select few rows, so it needs no month rows. A record adds one row per grain and one more per monthly
 * grain: 16 upserts, in one statement.
 */
export const GRAINS = [
  { name: "model", keeps: ["model"], monthly: false },
  { name: "agent", keeps: ["agentId", "ownerId"], monthly: true },
  { name: "requester", keeps: ["requesterId"], monthly: true },
  { name: "room", keeps: ["roomId"], monthly: true },
  { name: "task", keeps: ["taskId"], monthly: true },
  { name: "agent_model", keeps: ["agentId", "ownerId", "model"], monthly: true },
  { name: "room_model", keeps: ["roomId", "model"], monthly: true },
  { name: "task_model", keeps: ["taskId", "model"], monthly: true },
  { name: "all", keeps: ["agentId", "ownerId", "requesterId", "roomId", "taskId", "model"], monthly: false },
] as const satisfies readonly GrainDef[];

const DIMENSIONS: readonly Dimension[] = ["agentId", "ownerId", "requesterId", "roomId", "taskId", "model"];
/** UsageRecord columns that may be null; a rollup stores '' for them. */
const NULLABLE: readonly Dimension[] = ["ownerId", "requesterId", "roomId", "taskId"];
const COUNTERS = ["calls", "inputTokens", "outputTokens", "cachedTokens", "costUsd", "unpricedCalls", "unpricedTokens"] as const;
const KEY = ["workspaceId", "grain", "span", "day", ...DIMENSIONS];
const COLUMNS = ["workspaceId", "grain", "span", "day", "week", "month", ...DIMENSIONS, ...COUNTERS];
const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(", ");
const keeps = (g: GrainDef, c: Dimension) => g.keeps.includes(c);

/** The smallest grain that keeps every column a query filters or groups by. */
export function grainFor(columns: Iterable<Dimension>): GrainDef {
  const needed = [...columns];
  return GRAINS.find((g) => needed.every((c) => keeps(g, c))) ?? GRAINS[GRAINS.length - 1];
}

/** The Monday of an ISO day (YYYY-MM-DD, UTC): the week bucket. */
export function weekOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** YYYY-MM, n months later (or earlier). */
const shiftMonth = (month: string, n: number) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1 + n, 1)).toISOString().slice(0, 7);

/** The last day (YYYY-MM-DD) of a month (YYYY-MM). */
export const lastDayOf = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);

// ---- writing ----

/** What a usage record contributes to the rollups. */
export interface RollupSource {
  workspaceId: string;
  agentId: string;
  ownerId: string | null;
  requesterId: string | null;
  roomId: string | null;
  taskId: string | null;
  model: string;
  day: string;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  costUsd: number;
  costSource: string;
}

// Same text on SQLite and PostgreSQL: both have INSERT ... ON CONFLICT DO UPDATE and `excluded`.
const UPSERT_TAIL = Prisma.raw(
  ` ON CONFLICT (${quoted(KEY)}) DO UPDATE SET ${COUNTERS.map((c) => `"${c}" = "UsageRollup"."${c}" + excluded."${c}"`).join(", ")}`,
);

/**
 * Adds one record to its rollup rows, inside the caller's transaction (the one inserting the record).
 * One statement, rows always in the same order: concurrent reports queue on a shared row (the same
 * model on the same day) but never deadlock.
 */
export async function addToRollups(tx: Tx, r: RollupSource): Promise<void> {
  const unpriced = r.costSource === "unpriced";
  const month = r.day.slice(0, 7);
  const counters = [1, r.inputTokens, r.outputTokens, r.cachedTokens, r.costUsd, unpriced ? 1 : 0, unpriced ? r.inputTokens + r.outputTokens : 0];
  const rows = GRAINS.flatMap((g: GrainDef) => {
    // '' in a column: none (no room, no task, no owner), or a column the grain does not keep.
    const dims = DIMENSIONS.map((c) => (keeps(g, c) ? (r[c] ?? "") : ""));
    const row = (span: string, day: string, week: string) =>
      Prisma.sql`(${Prisma.join([r.workspaceId, g.name, span, day, week, month, ...dims, ...counters])})`;
    const daily = row("day", r.day, weekOf(r.day));
    return g.monthly ? [daily, row("month", `${month}-01`, "")] : [daily];
  });
  const head = Prisma.raw(`INSERT INTO ${sqlTable("UsageRollup")} AS "UsageRollup" (${quoted(COLUMNS)}) VALUES `);
  await tx.$executeRaw`${head}${Prisma.join(rows)}${UPSERT_TAIL}`;
}

// ---- reading ----

interface Span {
  span: "day" | "month";
  from: string;
  to: string;
}

/**
 * The rows covering [from, to] once each: day rows, or for a monthly grain the month rows of the
 * whole months inside the range and day rows for the partial months at its ends.
 */
function spans(from: string, to: string, monthly: boolean): Span[] {
  const first = from.endsWith("-01") ? from.slice(0, 7) : shiftMonth(from.slice(0, 7), 1);
  const last = to === lastDayOf(to.slice(0, 7)) ? to.slice(0, 7) : shiftMonth(to.slice(0, 7), -1);
  if (!monthly || first > last) return [{ span: "day", from, to }];
  return [
    ...(from < `${first}-01` ? [{ span: "day" as const, from, to: lastDayOf(from.slice(0, 7)) }] : []),
    { span: "month", from: `${first}-01`, to: `${last}-01` },
    ...(to > lastDayOf(last) ? [{ span: "day" as const, from: `${shiftMonth(last, 1)}-01`, to }] : []),
  ];
}

export type RollupKey = Dimension | "day" | "week" | "month";

export interface RollupQuery {
  workspaceId: string;
  from: string; // YYYY-MM-DD, inclusive
  to: string;
  /** Equality filters on attribution columns. */
  filters: Partial<Record<Dimension, string>>;
  /** The column to group by, if any. Days and weeks exist on day rows only. */
  groupBy?: RollupKey;
}

export type RollupSums = Record<(typeof COUNTERS)[number], number>;

const isTime = (key: RollupKey | undefined) => key === "day" || key === "week" || key === "month";

// Integer sums cast to BIGINT: PostgreSQL would widen SUM(bigint) to numeric.
const SUMS = Prisma.raw(COUNTERS.map((c) => (c === "costUsd" ? `SUM("costUsd") AS "costUsd"` : `CAST(SUM("${c}") AS BIGINT) AS "${c}"`)).join(", "));

/**
 * The rollup rows a query needs, as a subquery: from the smallest grain that keeps what it filters
 * and groups by (and `alsoKeeps`), over spans that cover its range once each. Each span is its own
 * branch of a UNION ALL, so every planner reads it by one index range, statistics or not.
 */
export function rollupRows(q: RollupQuery, alsoKeeps: Dimension[] = []): Prisma.Sql {
  const keyed = q.groupBy && !isTime(q.groupBy) ? [q.groupBy as Dimension] : [];
  const grain = grainFor([...(Object.keys(q.filters) as Dimension[]), ...keyed, ...alsoKeeps]);
  const table = Prisma.raw(sqlTable("UsageRollup"));
  const conditions = Object.entries(q.filters).map(([c, v]) => Prisma.sql` AND ${Prisma.raw(`"${c}"`)} = ${v}`);
  const filters = conditions.length ? Prisma.join(conditions, "") : Prisma.empty;
  const branches = spans(q.from, q.to, grain.monthly && q.groupBy !== "day" && q.groupBy !== "week").map(
    (s) =>
      Prisma.sql`SELECT * FROM ${table} WHERE "workspaceId" = ${q.workspaceId} AND "grain" = ${grain.name} AND "span" = ${s.span} AND "day" >= ${s.from} AND "day" <= ${s.to}${filters}`,
  );
  return Prisma.sql`(${Prisma.join(branches, " UNION ALL ")})`;
}

/**
 * Sums the rollup rows a query needs, in the database. Groups come in time order, or by spend
 * (highest first); `key` null stands for "none" (no room, no task).
 */
export async function sumRollups(q: RollupQuery): Promise<(RollupSums & { key: string | null })[]> {
  const group = q.groupBy ? `"${q.groupBy}"` : null;
  const tail = Prisma.raw(!group ? "" : ` GROUP BY ${group} ORDER BY ${isTime(q.groupBy) ? `"key"` : `"costUsd" DESC, "key"`}`);
  const rows = await getDb().$queryRaw<Record<string, string | number | bigint | null>[]>`
    SELECT ${Prisma.raw(group ?? "NULL")} AS "key", ${SUMS} FROM ${rollupRows(q)} r${tail}`;
  return rows.map((r) => ({
    key: r.key === null || r.key === "" ? null : String(r.key),
    ...(Object.fromEntries(COUNTERS.map((c) => [c, Number(r[c] ?? 0)])) as RollupSums),
  }));
}

/** A row of `sumEveryDimension`: one bucket and one value of every attribution column ('' for none). */
export type DimensionRow = RollupSums & Record<Dimension, string> & { bucket: string };

/**
 * Sums per time bucket and every attribution column at once (the "all" grain): the export with every
 * dimension as a column. Most spent first within a bucket; at most `limit` rows.
 */
export async function sumEveryDimension(q: Omit<RollupQuery, "groupBy"> & { bucket: "day" | "week" | "month" }, limit: number): Promise<DimensionRow[]> {
  const columns = quoted([q.bucket, ...DIMENSIONS]);
  const rows = await getDb().$queryRaw<Record<string, string | number | bigint>[]>`
    SELECT ${Prisma.raw(columns)}, ${SUMS} FROM ${rollupRows({ ...q, groupBy: q.bucket }, [...DIMENSIONS])} r
    GROUP BY ${Prisma.raw(columns)} ORDER BY ${Prisma.raw(`"${q.bucket}"`)}, "costUsd" DESC, ${Prisma.raw(quoted(DIMENSIONS))} LIMIT ${limit}`;
  return rows.map((r) => ({
    bucket: String(r[q.bucket]),
    ...(Object.fromEntries(DIMENSIONS.map((c) => [c, String(r[c])])) as Record<Dimension, string>),
    ...(Object.fromEntries(COUNTERS.map((c) => [c, Number(r[c] ?? 0)])) as RollupSums),
  }));
}

// ---- raw SQL on both databases ----

export type SqlDialect = "sqlite" | "postgresql";

/** The database the process uses (DATABASE_URL, as server/db.ts reads it). */
export const currentDialect = (url = currentUrl()): SqlDialect => (isPostgres(url) ? "postgresql" : "sqlite");

// ---- rebuilding from the records ----

const WEEK_OF_DAY: Record<SqlDialect, string> = {
  sqlite: `date("day", '-' || ((CAST(strftime('%w', "day") AS INTEGER) + 6) % 7) || ' days')`,
  postgresql: `to_char(date_trunc('week', CAST("day" AS date)), 'YYYY-MM-DD')`,
};

/**
 * A SELECT of every rollup row, summed from the usage records: the rows `addToRollups` produces one
 * record at a time. Tests compare the maintained rows with it.
 */
export function rollupRowsFromRecordsSql(dialect: SqlDialect, table: (name: string) => string = (name) => `"${name}"`): string {
  const unpriced = `CASE WHEN "costSource" = 'unpriced'`;
  const counters = [
    `COUNT(*) AS "calls", SUM("inputTokens") AS "inputTokens", SUM("outputTokens") AS "outputTokens", SUM("cachedTokens") AS "cachedTokens",`,
    `  SUM("costUsd") AS "costUsd", SUM(${unpriced} THEN 1 ELSE 0 END) AS "unpricedCalls",`,
    `  SUM(${unpriced} THEN CAST("inputTokens" AS BIGINT) + "outputTokens" ELSE 0 END) AS "unpricedTokens"`,
  ].join("\n");
  const selects = GRAINS.flatMap((g: GrainDef) => {
    const dims = DIMENSIONS.map((c) => `${!keeps(g, c) ? `''` : NULLABLE.includes(c) ? `COALESCE("${c}", '')` : `"${c}"`} AS "${c}"`).join(", ");
    const select = (span: string, day: string, week: string, by: string[]) =>
      `SELECT "workspaceId", '${g.name}' AS "grain", '${span}' AS "span", ${day} AS "day", ${week} AS "week", "month",\n  ${dims},\n  ${counters}\nFROM ${table("UsageRecord")} GROUP BY ${quoted([...by, ...g.keeps])}`;
    const daily = select("day", `"day"`, WEEK_OF_DAY[dialect], ["workspaceId", "day", "month"]);
    return g.monthly ? [daily, select("month", `"month" || '-01'`, `''`, ["workspaceId", "month"])] : [daily];
  });
  return selects.join("\nUNION ALL\n");
}

/**
 * Fills the rollups from the usage records in one INSERT ... SELECT. The usage_rollups migration
 * holds its output as the backfill of existing databases; `rebuildRollups` runs it again.
 */
export function rollupBackfillSql(dialect: SqlDialect, table: (name: string) => string = (name) => `"${name}"`): string {
  return `INSERT INTO ${table("UsageRollup")} (${quoted(COLUMNS)})\n${rollupRowsFromRecordsSql(dialect, table)};\n`;
}

/**
 * Recomputes every rollup from the records: for bulk loads (the benchmark) and repairs. Run it while
 * nothing reports usage; a report committing meanwhile could be counted twice or not at all.
 */
export async function rebuildRollups(url?: string): Promise<void> {
  const sql = rollupBackfillSql(currentDialect(url), (name) => sqlTable(name, url));
  await getDb(url).$transaction(
    async (tx) => {
      await tx.usageRollup.deleteMany();
      await tx.$executeRawUnsafe(sql);
    },
    { timeout: 60 * 60_000, maxWait: 60_000 },
  );
}
