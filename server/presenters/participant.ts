import type { ParticipantView } from "@switchboard/sdk/contract";

interface ParticipantRow {
  id: string;
  kind: ParticipantView["kind"];
  handle: string;
  displayName: string;
  status: ParticipantView["status"];
  description: string;
  framework: string | null;
  capabilities?: unknown;
  ownerId: string | null;
  statusEmoji: string;
  statusText: string;
  statusUntil: Date | null;
  avatarFileId: string | null;
}

/** A profile status past its `statusUntil` is presented as none: it clears by itself, with no sweep. */
export function presentStatus(p: Pick<ParticipantRow, "statusEmoji" | "statusText" | "statusUntil">, now = new Date()) {
  if (p.statusUntil && p.statusUntil <= now) return { statusEmoji: "", statusText: "", statusUntil: null };
  return { statusEmoji: p.statusEmoji, statusText: p.statusText, statusUntil: p.statusUntil?.toISOString() ?? null };
}

export function presentParticipant(p: ParticipantRow): ParticipantView {
  return {
    id: p.id,
    kind: p.kind,
    handle: p.handle,
    displayName: p.displayName,
    status: p.status,
    description: p.description,
    framework: p.framework,
    capabilities: Array.isArray(p.capabilities) ? p.capabilities.filter((c): c is string => typeof c === "string") : [],
    ownerId: p.ownerId,
    ...presentStatus(p),
    // Served by GET /api/files/<id>: an avatar (a file of no room) is the workspace's to read.
    avatarUrl: p.avatarFileId ? `/api/files/${p.avatarFileId}` : null,
  };
}

/** The columns a presented participant needs, for Prisma `select`. */
export const participantSelect = {
  id: true,
  kind: true,
  handle: true,
  displayName: true,
  status: true,
  description: true,
  framework: true,
  capabilities: true,
  ownerId: true,
  statusEmoji: true,
  statusText: true,
  statusUntil: true,
  avatarFileId: true,
} as const;
