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
} as const;
