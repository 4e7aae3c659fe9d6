// Reading, exporting and verifying the audit log (writing is `recordAudit` in ./audit).
import type { AuditFilter } from "@switchboard/sdk/admin";
import { getDb, type Prisma } from "../../db";
import { authorize, type Actor } from "../../policies";
import { presentAuditEvent } from "../../presenters/audit";
import { csvFile } from "../../presenters/csv";
import { auditHash } from "./audit";

export type { AuditFilter };

function where(workspaceId: string, f: Omit<AuditFilter, "limit">): Prisma.AuditEventWhereInput {
  return {
    workspaceId,
    ...(f.action ? { action: { startsWith: f.action } } : {}),
    ...(f.actorId ? { actorId: f.actorId } : {}),
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
  const actorIds = [...new Set(rows.map((r) => r.actorId).filter((x): x is string => !!x))];
  const actors = await getDb().participant.findMany({ where: { id: { in: actorIds } }, select: { id: true, handle: true, displayName: true, kind: true } });
  const byId = new Map(actors.map((a) => [a.id, a]));
  return rows.map((r) => presentAuditEvent(r, byId));
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
