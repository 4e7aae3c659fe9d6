// Dashboards over usage, read from the usage rollups (server/services/usage/rollups.ts) and summed in
// the database: each query picks the smallest grain that keeps what it filters and groups by, so a
// year of a busy workspace is thousands of rows, never the million usage records behind them.
// Members see their own agents' usage (or, asking for it, what they requested of anyone's agents);
// owners and admins see the whole workspace (`usage.read` and `usageScope` in the policies decide, for
// dashboards, rooms and tasks alike). Every call is "owned by" its agent's owner and "requested by"
// the person who drove it (services/messaging/requesters.ts): the two differ when Bea asks Dana's agent.
import type { UsageCsvView, UsageQuery, UsageRange } from "@switchboard/sdk/usage";
import { getDb, Prisma, sqlTable } from "../../db";
import { authorize, usageScope, type Actor } from "../../policies";
import { csvFile } from "../../presenters/csv";
import { loadRoomFor } from "../access/rooms";
import { currentDialect, rollupRows, sumEveryDimension, sumRollups, type RollupKey, type RollupQuery, type RollupSums, type SqlDialect } from "./rollups";

export type { UsageCsvView, UsageQuery };

type Range = UsageRange;

/** Sums over usage; `unpricedCalls` had neither a reported cost nor a price and count as $0. */
export type Sums = RollupSums;

type Filters = RollupQuery["filters"];

/** What a query may read: its filters, narrowed by the usage rule (`usageScope`: members see their own agents'). */
function scope(actor: Actor, q: Partial<Omit<UsageQuery, "bucket">>): Filters {
  const { agentId, ownerId, requesterId, roomId, taskId, model } = q;
  const filters = { agentId, ownerId, requesterId, roomId, taskId, model, ...usageScope(actor, q) };
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined));
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** Sums per value of `groupBy` (buckets in time order, attributions by spend), or one total row. */
async function grouped(workspaceId: string, range: Range, filters: Filters, groupBy?: RollupKey): Promise<{ key: string | null; sums: Sums }[]> {
  const rows = await sumRollups({ workspaceId, from: range.from, to: range.to, filters, groupBy });
  return rows.map(({ key, ...sums }) => ({ key, sums: { ...sums, costUsd: round(sums.costUsd) } }));
}

const total = async (workspaceId: string, range: Range, filters: Filters): Promise<Sums> => (await grouped(workspaceId, range, filters))[0].sums;

export async function usageOverview(actor: Actor, q: UsageQuery) {
  const filters = scope(actor, q);
  const ws = actor.workspaceId;
  const [totals, series, byAgent, byPerson, byRequester, byRoom, byTask, byModel] = await Promise.all([
    total(ws, q, filters),
    grouped(ws, q, filters, q.bucket),
    grouped(ws, q, filters, "agentId"),
    grouped(ws, q, filters, "ownerId"),
    grouped(ws, q, filters, "requesterId"),
    grouped(ws, q, filters, "roomId"),
    grouped(ws, q, filters, "taskId"),
    grouped(ws, q, filters, "model"),
  ]);
  const names = await namesOf([...byAgent, ...byPerson, ...byRequester].map((r) => r.key).filter((k): k is string => !!k));
  const rooms = await roomNames(byRoom.map((r) => r.key).filter((k): k is string => !!k));
  const named = (rows: { key: string | null; sums: Sums }[], name: (id: string | null) => string) =>
    rows.map(({ key, sums }) => ({ ...sums, id: key, name: name(key) }));
  return {
    totals,
    series: series.map(({ key, sums }) => ({ bucket: key!, ...sums })),
    byAgent: named(byAgent, (id) => names.get(id!) ?? "unknown").map((r) => ({ ...r, id: r.id! })),
    byPerson: named(byPerson, (id) => (id ? (names.get(id) ?? "unknown") : "No owner")),
    byRequester: named(byRequester, (id) => (id ? (names.get(id) ?? "unknown") : NO_REQUESTER)),
    byRoom: named(byRoom, (id) => (id ? (rooms.get(id) ?? "a room you cannot see") : "No room")),
    byTask: named(byTask, (id) => id ?? "No task"),
    byModel: named(byModel, (id) => id ?? ""),
  };
}

/** Calls no person's message led to: an agent's own schedule, or reports naming no message. */
const NO_REQUESTER = "No person (agent-initiated)";

async function namesOf(ids: string[]): Promise<Map<string, string>> {
  const rows = await getDb().participant.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, displayName: true, handle: true } });
  return new Map(rows.map((r) => [r.id, `${r.displayName} (@${r.handle})`]));
}

async function roomNames(ids: string[]): Promise<Map<string, string>> {
  const rows = await getDb().room.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, kind: true } });
  return new Map(rows.map((r) => [r.id, r.name ? `#${r.name}` : r.kind === "dm" ? "Direct message" : "Group"]));
}

/** Each agent's part of a room's or a task's cost. */
async function shares(workspaceId: string, range: Range, filters: Filters, totals: Sums) {
  const rows = await grouped(workspaceId, range, filters, "agentId");
  const names = await namesOf(rows.map((r) => r.key!));
  return rows.map(({ key, sums }) => ({
    ...sums,
    id: key!,
    name: names.get(key!) ?? "unknown",
    share: totals.costUsd ? round(sums.costUsd / totals.costUsd) : 0,
  }));
}

/**
 * A room's cost with each participant's share (of what the viewer may see of it: the usage rule), and
 * how much people took part: their messages against agents' messages per day.
 */
export async function roomUsage(actor: Actor, roomId: string, range: Range) {
  authorize(actor, "room.read", await loadRoomFor(actor, roomId));
  const filters = scope(actor, { roomId });
  const totals = await total(actor.workspaceId, range, filters);
  const window = Prisma.sql`SELECT CAST(${roomId} AS TEXT) AS "roomId", CAST(${range.from} AS TEXT) AS "from", CAST(${range.to} AS TEXT) AS "to"`;
  return { totals, shares: await shares(actor.workspaceId, range, filters, totals), involvement: await involvement(window) };
}

/**
 * A task's cost, shares, and people's involvement where and when its work happened: in each room it
 * used, on the days it used it (not a busy channel's whole year around one call).
 */
export async function taskUsage(actor: Actor, taskId: string, range: Range) {
  const filters = scope(actor, { ...range, taskId });
  const totals = await total(actor.workspaceId, range, filters);
  const worked = rollupRows({ workspaceId: actor.workspaceId, from: range.from, to: range.to, filters, groupBy: "day" }, ["roomId"]);
  // Every rollup row has calls; naming a counter keeps SQLite (no planner statistics) on the task's
  // index rather than the primary key, which would cover this query without narrowing it to the task.
  const windows = Prisma.sql`SELECT DISTINCT r."roomId", r."day" AS "from", r."day" AS "to" FROM ${worked} r WHERE r."roomId" <> '' AND r."calls" > 0`;
  return { totals, shares: await shares(actor.workspaceId, range, filters, totals), involvement: await involvement(windows) };
}

// Message.createdAt is ISO text on SQLite (Prisma's default; a day string sorts before its first
// instant) and a UTC timestamp on PostgreSQL: a message's day and a day's bounds differ per dialect.
const MESSAGE_TIME: Record<SqlDialect, { day: string; from: string; until: string }> = {
  sqlite: { day: `substr(m."createdAt", 1, 10)`, from: `w."from"`, until: `date(w."to", '+1 day')` },
  postgresql: { day: `to_char(m."createdAt", 'YYYY-MM-DD')`, from: `CAST(w."from" AS timestamp)`, until: `(CAST(w."to" AS timestamp) + INTERVAL '1 day')` },
};

/**
 * People's and agents' messages (text, not deleted) per day, in windows of (room, first day, last
 * day): one grouped query reading each window by the (roomId, createdAt, ...) index, which covers
 * every column it needs. CROSS JOIN keeps SQLite's planner on the windows first (PostgreSQL treats it
 * as a plain join).
 */
async function involvement(windows: Prisma.Sql) {
  const t = MESSAGE_TIME[currentDialect()];
  const rows = await getDb().$queryRaw<{ day: string; people: number | bigint; agents: number | bigint }[]>`
    SELECT ${Prisma.raw(t.day)} AS "day",
      SUM(CASE WHEN p."kind" = 'human' THEN 1 ELSE 0 END) AS "people",
      SUM(CASE WHEN p."kind" = 'agent' THEN 1 ELSE 0 END) AS "agents"
    FROM (${windows}) w
    CROSS JOIN ${Prisma.raw(sqlTable("Message"))} m
    JOIN ${Prisma.raw(sqlTable("Participant"))} p ON p."id" = m."authorId"
    WHERE m."roomId" = w."roomId" AND m."createdAt" >= ${Prisma.raw(t.from)} AND m."createdAt" < ${Prisma.raw(t.until)}
      AND m."kind" = 'text' AND m."deletedAt" IS NULL
    GROUP BY 1 ORDER BY 1`;
  const series = rows.map((r) => ({ day: r.day, people: Number(r.people), agents: Number(r.agents) }));
  const people = series.reduce((n, s) => n + s.people, 0);
  const agents = series.reduce((n, s) => n + s.agents, 0);
  return { people, agents, peopleShare: people + agents ? round(people / (people + agents)) : 0, series };
}

const COLUMNS = ["costUsd", "inputTokens", "outputTokens", "cachedTokens", "calls", "unpricedCalls"] as const;

/** Any breakdown of the overview as CSV, or the detail: every dimension as a column. */
export async function exportUsage(actor: Actor, q: UsageQuery, view: UsageCsvView): Promise<string> {
  if (view === "detail") return exportDetail(actor, q);
  const overview = await usageOverview(actor, q);
  const cells = (head: unknown[], s: Sums) => [...head, ...COLUMNS.map((c) => s[c])];
  const [head, rows] =
    view === "series" ? [["bucket"], overview.series.map((s) => cells([s.bucket], s))] : [["name", "id"], overview[view].map((r) => cells([r.name, r.id], r))];
  return csvFile([...head, ...COLUMNS], rows);
}

/** The detail export stops here; a narrower range or filter reads the rest. */
export const DETAIL_ROWS = 100_000;

/**
 * Every call's attribution as columns, summed per bucket: agent, owned by, requested by, room, task
 * and model, each with its name and id, so a spreadsheet pivots any way ("what did Bea's requests
 * cost, per agent, per week"). Within the viewer's usage scope, like the dashboard.
 */
async function exportDetail(actor: Actor, q: UsageQuery): Promise<string> {
  const rows = await sumEveryDimension({ workspaceId: actor.workspaceId, from: q.from, to: q.to, filters: scope(actor, q), bucket: q.bucket }, DETAIL_ROWS);
  const names = await namesOf(rows.flatMap((r) => [r.agentId, r.ownerId, r.requesterId]).filter(Boolean));
  const rooms = await roomNames([...new Set(rows.map((r) => r.roomId).filter(Boolean))]);
  const person = (id: string, none: string) => (id ? (names.get(id) ?? "unknown") : none);
  const head = ["bucket", "agent", "agentId", "ownedBy", "ownerId", "requestedBy", "requesterId", "room", "roomId", "taskId", "model"];
  const cells = rows.map((r) => [
    r.bucket,
    person(r.agentId, "unknown"),
    r.agentId,
    person(r.ownerId, "No owner"),
    r.ownerId,
    person(r.requesterId, NO_REQUESTER),
    r.requesterId,
    r.roomId ? (rooms.get(r.roomId) ?? "a room you cannot see") : "No room",
    r.roomId,
    r.taskId,
    r.model,
    ...COLUMNS.map((c) => r[c]),
  ]);
  return csvFile([...head, ...COLUMNS], cells);
}
