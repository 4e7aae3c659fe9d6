// An audit log entry as owners and admins read and export it.

interface AuditRow {
  id: string;
  seq: number;
  action: string;
  actorId: string | null;
  subjectType: string;
  subjectId: string | null;
  data: unknown;
  address: string | null;
  createdAt: Date;
  hash: string;
}

type AuditActor = { id: string; handle: string; displayName: string; kind: string };

/**
 * `data` is what the service that recorded the entry said about it: a JSON object (or nothing), shown
 * as recorded, since the hash chain covers exactly it. `actors` names the entries' actors.
 */
export function presentAuditEvent(r: AuditRow, actors: ReadonlyMap<string, AuditActor>) {
  return {
    id: r.id,
    seq: r.seq,
    action: r.action,
    actor: r.actorId ? (actors.get(r.actorId) ?? { id: r.actorId, handle: "unknown", displayName: "Unknown", kind: "human" }) : null,
    subjectType: r.subjectType,
    subjectId: r.subjectId,
    data: isRecord(r.data) ? r.data : null,
    address: r.address,
    createdAt: r.createdAt.toISOString(),
    hash: r.hash,
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
