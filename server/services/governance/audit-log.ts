// Reading, exporting and verifying the audit log (writing is `recordAudit` in ./audit).
import type { AuditFilter } from "@switchboard/sdk/admin";
import { getDb, type Prisma } from "../../db";
import { authorize, type Actor } from "../../policies";
import { idsToName, presentAuditEvent, subjectLabel, type AuditNames } from "../../presenters/audit";
import { csvFile } from "../../presenters/csv";
import { auditHash } from "./audit";

export type { AuditFilter };

function where(workspaceId: string, f: Omit<AuditFilter, "limit">): Prisma.AuditEventWhereInput {
  return {
    workspaceId,
    ...(f.action ? { action: { startsWith: f.action } } : {}),
    ...(f.actorId ? { actorId: f.actorId } : {}),
    ...(f.subjectType ? { subjectType: f.subjectType } : {}),
    ...(f.subjectId ? { subjectId: f.subjectId } : {}),
    ...(f.from || f.to ? { createdAt: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lte: f.to } : {}) } } : {}),
    ...(f.beforeSeq ? { seq: { lt: f.beforeSeq } } : {}),
  };
}

export async function listAudit(actor: Actor, filter: AuditFilter) {
  authorize(actor, "audit.read", { workspaceId: actor.workspaceId });
  const rows = await getDb().auditEvent.findMany({
    where: where(actor.workspaceId, filter),
    orderBy: { seq: "desc" },
    take: filter.limit,
  });
  const names = await auditNames(actor.workspaceId, idsToName(rows));
  return rows.map((r) => presentAuditEvent(r, names));
}

/** The participants and rooms of the workspace among `ids`, by id (another workspace's never name anything). */
async function auditNames(workspaceId: string, ids: { participants: string[]; rooms: string[] }): Promise<AuditNames> {
  const db = getDb();
  // An id in data whose key does not say its table (`createdById`) may be a room's: ask both tables for those.
  const roomIds = [...new Set([...ids.rooms, ...ids.participants])];
  const [participants, rooms] = await Promise.all([
    ids.participants.length
      ? db.participant.findMany({ where: { workspaceId, id: { in: ids.participants } }, select: { id: true, handle: true, displayName: true, kind: true } })
      : [],
    roomIds.length ? db.room.findMany({ where: { workspaceId, id: { in: roomIds } }, select: { id: true, kind: true, name: true } }) : [],
  ]);
  return { participants: new Map(participants.map((p) => [p.id, p])), rooms: new Map(rooms.map((r) => [r.id, r])) };
}

/** At most this many subjects are offered to filter by. */
const FACET_SUBJECTS = 500;

/**
 * What the log can be filtered by: every action recorded, and the named subjects (people, agents,
 * rooms) that entries are about, most written about first.
 */
export async function auditFacets(actor: Actor) {
  authorize(actor, "audit.read", { workspaceId: actor.workspaceId });
  const db = getDb();
  const [actions, subjects] = await Promise.all([
    db.auditEvent.groupBy({ by: ["action"], where: { workspaceId: actor.workspaceId }, orderBy: { action: "asc" } }),
    db.auditEvent.groupBy({
      by: ["subjectType", "subjectId"],
      where: { workspaceId: actor.workspaceId, subjectType: { in: ["participant", "person", "room"] }, subjectId: { not: null } },
      _count: { _all: true },
      orderBy: { _count: { subjectId: "desc" } },
      take: FACET_SUBJECTS,
    }),
  ]);
  const ids = subjects.map((s) => s.subjectId!);
  const names = await auditNames(actor.workspaceId, {
    participants: subjects.filter((s) => s.subjectType !== "room").map((s) => s.subjectId!),
    rooms: subjects.filter((s) => s.subjectType === "room").map((s) => s.subjectId!),
  });
  const seen = new Set<string>();
  const named = ids.flatMap((id, i) => {
    const label = subjectLabel(subjects[i].subjectType, id, names);
    if (!label || seen.has(id)) return [];
    seen.add(id);
    return [{ id, type: subjects[i].subjectType === "room" ? ("room" as const) : ("participant" as const), label }];
  });
  return { actions: actions.map((a) => a.action), subjects: named.sort((a, b) => a.label.localeCompare(b.label)) };
}

const CSV_COLUMNS = ["seq", "createdAt", "action", "actorHandle", "subjectType", "subjectId", "address", "data", "hash"] as const;

export async function exportAudit(actor: Actor, filter: Omit<AuditFilter, "limit">, format: "csv" | "json"): Promise<string> {
  const rows = await listAudit(actor, { ...filter, limit: 100_000 });
  if (format === "json") return JSON.stringify(rows, null, 2);
  return csvFile(
    CSV_COLUMNS,
    rows.map((r) => [r.seq, r.createdAt, r.action, r.actor?.handle ?? "", r.subjectType, r.subjectId, r.address, r.data, r.hash]),
  );
}

export interface ChainReport {
  workspaceId: string;
  checked: number;
  ok: boolean;
  firstBroken: { seq: number; id: string | null; reason: string } | null;
  /** The last entry's seq and hash: kept outside the database, it anchors later checks. */
  head: ChainHead;
}

export interface ChainHead {
  seq: number;
  hash: string;
}

/**
 * Walks a workspace's chain from the start; names the first entry that is missing or altered. The
 * chain alone cannot show a rewrite from some entry to the end (whoever can write the tables can
 * recompute the hashes), so `anchor`, a head recorded outside the database earlier, must still be
 * in the chain as it was: that proves nothing up to it was rewritten, truncated or replaced.
 */
export async function verifyChain(workspaceId: string, anchor?: ChainHead): Promise<ChainReport> {
  const db = getDb();
  const ws = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { auditSeq: true, auditHead: true } });
  let prevHash = "";
  let expectedSeq = 1;
  let checked = 0;
  const broken = (seq: number, id: string | null, reason: string): ChainReport => ({
    workspaceId,
    checked,
    ok: false,
    firstBroken: { seq, id, reason },
    head: { seq: ws.auditSeq, hash: ws.auditHead },
  });
  for (let cursor = 0; ;) {
    const page = await db.auditEvent.findMany({ where: { workspaceId, seq: { gt: cursor } }, orderBy: { seq: "asc" }, take: 1000 });
    if (page.length === 0) break;
    for (const row of page) {
      if (row.seq !== expectedSeq) return broken(expectedSeq, null, `entry ${expectedSeq} is missing (deleted)`);
      if (row.prevHash !== prevHash) return broken(row.seq, row.id, "its link to the previous entry does not match");
      const recomputed = auditHash({
        workspaceId: row.workspaceId,
        seq: row.seq,
        actorId: row.actorId,
        action: row.action,
        subjectType: row.subjectType,
        subjectId: row.subjectId,
        data: row.data ?? null,
        address: row.address,
        createdAt: row.createdAt,
        prevHash: row.prevHash,
      });
      if (recomputed !== row.hash) return broken(row.seq, row.id, "its content was changed after it was written");
      if (anchor?.seq === row.seq && anchor.hash !== row.hash)
        return broken(row.seq, row.id, "it is not the entry recorded outside the database (the chain was rewritten from here or before)");
      prevHash = row.hash;
      expectedSeq++;
      checked++;
    }
    cursor = page[page.length - 1].seq;
  }
  if (checked !== ws.auditSeq) return broken(checked + 1, null, `entries after ${checked} are missing (deleted)`);
  if (prevHash !== ws.auditHead) return broken(checked, null, "the chain's head does not match the last entry");
  if (anchor && anchor.seq > checked)
    return broken(checked + 1, null, `the chain ends before entry ${anchor.seq}, recorded outside the database (entries were removed)`);
  return { workspaceId, checked, ok: true, firstBroken: null, head: { seq: ws.auditSeq, hash: ws.auditHead } };
}

export async function verifyWorkspaceChain(actor: Actor): Promise<ChainReport> {
  authorize(actor, "audit.read", { workspaceId: actor.workspaceId });
  return verifyChain(actor.workspaceId);
}

/** `anchors`: heads recorded earlier, by workspace id. */
export async function verifyAllChains(anchors: Map<string, ChainHead> = new Map()): Promise<ChainReport[]> {
  const workspaces = await getDb().workspace.findMany({ select: { id: true } });
  return Promise.all(workspaces.map((w) => verifyChain(w.id, anchors.get(w.id))));
}
