// The audit log: append-only, one hash chain per workspace. Each entry's hash covers its content and
// the previous entry's hash, so editing or deleting a row breaks every later link.
import { createHash } from "node:crypto";
import type { Prisma, Tx } from "../../db";
import { newId } from "../../ids";

export interface AuditInput {
  workspaceId: string;
  actorId: string | null;
  action: string;
  subjectType: string;
  subjectId?: string | null;
  data?: Record<string, unknown>;
  address?: string | null;
}

/** JSON with keys sorted at every level: the same content always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

export function auditHash(entry: {
  workspaceId: string;
  seq: number;
  actorId: string | null;
  action: string;
  subjectType: string;
  subjectId: string | null;
  data: unknown;
  address: string | null;
  createdAt: Date;
  prevHash: string;
}): string {
  const { prevHash, ...content } = entry;
  return createHash("sha256")
    .update(prevHash)
    .update(canonicalJson({ ...content, createdAt: content.createdAt.toISOString() }))
    .digest("hex");
}

/** Appends an entry in the caller's transaction; the workspace row serializes concurrent appends. */
export async function recordAudit(tx: Tx, input: AuditInput): Promise<void> {
  const head = await tx.workspace.update({
    where: { id: input.workspaceId },
    data: { auditSeq: { increment: 1 } },
    select: { auditSeq: true, auditHead: true },
  });
  const entry = {
    workspaceId: input.workspaceId,
    seq: head.auditSeq,
    actorId: input.actorId,
    action: input.action,
    subjectType: input.subjectType,
    subjectId: input.subjectId ?? null,
    data: input.data ?? null,
    address: input.address ?? null,
    createdAt: new Date(),
    prevHash: head.auditHead,
  };
  const hash = auditHash(entry);
  await tx.auditEvent.create({ data: { id: newId(), ...entry, data: (entry.data ?? undefined) as Prisma.InputJsonValue | undefined, hash } });
  await tx.workspace.update({ where: { id: input.workspaceId }, data: { auditHead: hash } });
}
