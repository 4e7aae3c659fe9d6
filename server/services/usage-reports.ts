// Dashboards over usage records, aggregated in the database (grouped by the indexed `day` / `month`
// columns and by attribution), never by loading records into JavaScript. Members see their own agents'
// usage; owners and admins see the whole workspace.
import { getDb, type Prisma } from "../db";
import { authorize, isAdmin, type Actor } from "../policies";
import { loadRoomFor } from "./room-access";

export interface UsageQuery {
  from: string; // YYYY-MM-DD, inclusive
  to: string;
  bucket: "day" | "week" | "month";
  agentId?: string;
  ownerId?: string;
  roomId?: string;
  taskId?: string;
  model?: string;
}

interface Sums {
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  calls: number;
}

function scope(actor: Actor, q: UsageQuery): Prisma.UsageRecordWhereInput {
  return {
    workspaceId: actor.workspaceId,
    day: { gte: q.from, lte: q.to },
    ...(q.agentId ? { agentId: q.agentId } : {}),
    ...(q.roomId ? { roomId: q.roomId } : {}),
    ...(q.taskId ? { taskId: q.taskId } : {}),
    ...(q.model ? { model: q.model } : {}),
    // Members: only what their own agents spent.
    ...(isAdmin(actor) ? (q.ownerId ? { ownerId: q.ownerId } : {}) : { ownerId: actor.participantId }),
  };
}

const SUM = { costUsd: true, inputTokens: true, outputTokens: true, cachedTokens: true } as const;

function sums(row: { _sum: Partial<Record<keyof typeof SUM, number | null>>; _count: { _all: number } }): Sums {
  return {
    costUsd: round(row._sum.costUsd ?? 0),
    inputTokens: row._sum.inputTokens ?? 0,
    outputTokens: row._sum.outputTokens ?? 0,
    cachedTokens: row._sum.cachedTokens ?? 0,
    calls: row._count._all,
  };
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** The Monday of an ISO day, as YYYY-MM-DD. */
export function weekOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

async function groupBy<K extends "day" | "month" | "agentId" | "ownerId" | "roomId" | "taskId" | "model">(where: Prisma.UsageRecordWhereInput, key: K) {
  // Prisma's groupBy types are too deep for a generic key; the result shape is fixed here.
  const rows = (await (getDb().usageRecord.groupBy as (args: unknown) => Promise<unknown[]>)({
    by: [key],
    where,
    _sum: SUM,
    _count: { _all: true },
  })) as ({ [k in K]: string | null } & { _sum: Record<string, number | null>; _count: { _all: number } })[];
  return rows.map((r) => ({ key: r[key], ...sums(r) }));
}

export async function usageOverview(actor: Actor, q: UsageQuery) {
  authorize(actor, "workspace.read", { workspaceId: actor.workspaceId });
  const where = scope(actor, q);
  const db = getDb();
  const [total, series, byAgent, byPerson, byRoom, byTask, byModel] = await Promise.all([
    db.usageRecord.aggregate({ where, _sum: SUM, _count: { _all: true } }),
    groupBy(where, q.bucket === "month" ? "month" : "day"),
    groupBy(where, "agentId"),
    groupBy(where, "ownerId"),
    groupBy(where, "roomId"),
    groupBy(where, "taskId"),
    groupBy(where, "model"),
  ]);
  const names = await namesOf([...byAgent, ...byPerson].map((r) => r.key).filter((k): k is string => !!k));
  const rooms = await roomNames(byRoom.map((r) => r.key).filter((k): k is string => !!k));
  const byCost = <T extends Sums>(rows: T[]) => rows.sort((a, b) => b.costUsd - a.costUsd);
  return {
    totals: sums(total),
    series: bucketed(series, q.bucket),
    byAgent: byCost(byAgent.map((r) => ({ ...r, id: r.key!, name: names.get(r.key!) ?? "unknown" }))),
    byPerson: byCost(byPerson.map((r) => ({ ...r, id: r.key, name: r.key ? (names.get(r.key) ?? "unknown") : "No owner" }))),
    byRoom: byCost(byRoom.map((r) => ({ ...r, id: r.key, name: r.key ? (rooms.get(r.key) ?? "a room you cannot see") : "No room" }))),
    byTask: byCost(byTask.map((r) => ({ ...r, id: r.key, name: r.key ?? "No task" }))),
    byModel: byCost(byModel.map((r) => ({ ...r, id: r.key, name: r.key ?? "" }))),
  };
}

function bucketed(rows: ({ key: string | null } & Sums)[], bucket: UsageQuery["bucket"]) {
  const merged = new Map<string, Sums>();
  for (const r of rows) {
    const key = bucket === "week" ? weekOf(r.key!) : r.key!;
    const m = merged.get(key) ?? { costUsd: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0, calls: 0 };
    merged.set(key, {
      costUsd: round(m.costUsd + r.costUsd),
      inputTokens: m.inputTokens + r.inputTokens,
      outputTokens: m.outputTokens + r.outputTokens,
      cachedTokens: m.cachedTokens + r.cachedTokens,
      calls: m.calls + r.calls,
    });
  }
  return [...merged.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([bucketKey, s]) => ({ bucket: bucketKey, ...s }));
}

async function namesOf(ids: string[]): Promise<Map<string, string>> {
  const rows = await getDb().participant.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, displayName: true, handle: true } });
  return new Map(rows.map((r) => [r.id, `${r.displayName} (@${r.handle})`]));
}

async function roomNames(ids: string[]): Promise<Map<string, string>> {
  const rows = await getDb().room.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, kind: true } });
  return new Map(rows.map((r) => [r.id, r.name ? `#${r.name}` : r.kind === "dm" ? "Direct message" : "Group"]));
}

/**
 * A room's cost with each participant's share, and how much people took part: their messages against
 * agents' messages per day.
 */
export async function roomUsage(actor: Actor, roomId: string, range: { from: string; to: string }) {
  authorize(actor, "room.read", await loadRoomFor(actor, roomId));
  const where: Prisma.UsageRecordWhereInput = { workspaceId: actor.workspaceId, roomId, day: { gte: range.from, lte: range.to } };
  const [total, shares] = await Promise.all([
    getDb().usageRecord.aggregate({ where, _sum: SUM, _count: { _all: true } }),
    groupBy(where, "agentId"),
  ]);
  const names = await namesOf(shares.map((s) => s.key!));
  const totals = sums(total);
  return {
    totals,
    shares: shares
      .map((s) => ({ ...s, id: s.key!, name: names.get(s.key!) ?? "unknown", share: totals.costUsd ? round(s.costUsd / totals.costUsd) : 0 }))
      .sort((a, b) => b.costUsd - a.costUsd),
    involvement: await involvement({ roomId }, range),
  };
}

/** A task's cost, shares, and people's involvement in the rooms where its work happened. */
export async function taskUsage(actor: Actor, taskId: string, range: { from: string; to: string }) {
  authorize(actor, "workspace.read", { workspaceId: actor.workspaceId });
  const where = scope(actor, { ...range, bucket: "day", taskId });
  const [total, shares, rooms] = await Promise.all([
    getDb().usageRecord.aggregate({ where, _sum: SUM, _count: { _all: true } }),
    groupBy(where, "agentId"),
    groupBy(where, "roomId"),
  ]);
  const names = await namesOf(shares.map((s) => s.key!));
  const totals = sums(total);
  const roomIds = rooms.map((r) => r.key).filter((k): k is string => !!k);
  return {
    totals,
    shares: shares.map((s) => ({ ...s, id: s.key!, name: names.get(s.key!) ?? "unknown", share: totals.costUsd ? round(s.costUsd / totals.costUsd) : 0 })),
    involvement: roomIds.length ? await involvement({ roomId: { in: roomIds } }, range) : { people: 0, agents: 0, peopleShare: 0, series: [] },
  };
}

/** People's and agents' messages (text, not deleted) per day, counted in the database. */
async function involvement(room: Prisma.MessageWhereInput, range: { from: string; to: string }) {
  const db = getDb();
  const since = new Date(`${range.from}T00:00:00Z`);
  const until = new Date(`${range.to}T23:59:59.999Z`);
  const base: Prisma.MessageWhereInput = { ...room, kind: "text", deletedAt: null, createdAt: { gte: since, lte: until } };
  const days: string[] = [];
  for (let d = new Date(since); d <= until && days.length < 400; d.setUTCDate(d.getUTCDate() + 1)) days.push(d.toISOString().slice(0, 10));
  const series = await Promise.all(
    days.map(async (day) => {
      const window = { gte: new Date(`${day}T00:00:00Z`), lte: new Date(`${day}T23:59:59.999Z`) };
      const [people, agents] = await Promise.all([
        db.message.count({ where: { ...base, createdAt: window, author: { kind: "human" } } }),
        db.message.count({ where: { ...base, createdAt: window, author: { kind: "agent" } } }),
      ]);
      return { day, people, agents };
    }),
  );
  const people = series.reduce((n, s) => n + s.people, 0);
  const agents = series.reduce((n, s) => n + s.agents, 0);
  return { people, agents, peopleShare: people + agents ? round(people / (people + agents)) : 0, series: series.filter((s) => s.people || s.agents) };
}

const CSV_HEAD = "name,id,costUsd,inputTokens,outputTokens,cachedTokens,calls";

/** Any breakdown of the overview as CSV. */
export async function exportUsage(actor: Actor, q: UsageQuery, view: "series" | "byAgent" | "byPerson" | "byRoom" | "byTask" | "byModel"): Promise<string> {
  const overview = await usageOverview(actor, q);
  const cell = (v: unknown) => `"${String(v ?? "").replace(/^[=+\-@]/, "'$&").replace(/"/g, '""')}"`;
  if (view === "series") {
    const lines = overview.series.map((s) => [s.bucket, s.costUsd, s.inputTokens, s.outputTokens, s.cachedTokens, s.calls].map(cell).join(","));
    return ["bucket,costUsd,inputTokens,outputTokens,cachedTokens,calls", ...lines].join("\n") + "\n";
  }
  const lines = overview[view].map((r) => [r.name, r.id, r.costUsd, r.inputTokens, r.outputTokens, r.cachedTokens, r.calls].map(cell).join(","));
  return [CSV_HEAD, ...lines].join("\n") + "\n";
}
