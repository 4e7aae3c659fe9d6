// An agent as its owner and the workspace's admins manage it: its profile, consent policy and keys
// (prefixes only: a key's secret is shown once, when it is issued, and never stored).
import type { AgentView, ConsentPolicy } from "@switchboard/sdk/contract";
import { presentParticipant } from "./participant";

/** The relations a presented agent needs, for Prisma `include` (never a key's hash). */
export const agentInclude = {
  owner: { select: { id: true, displayName: true, handle: true } },
  apiKeys: { select: { id: true, prefix: true, label: true, createdAt: true, lastUsedAt: true, revokedAt: true }, orderBy: { createdAt: "desc" } },
} as const;

type AgentRow = Parameters<typeof presentParticipant>[0] & {
  consentPolicy: ConsentPolicy;
  a2aServed: boolean;
  lastSeenAt: Date | null;
  owner: { id: string; displayName: string; handle: string } | null;
  apiKeys: { id: string; prefix: string; label: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }[];
};

export function presentAgent(row: AgentRow): AgentView {
  return {
    ...presentParticipant(row),
    consentPolicy: row.consentPolicy,
    a2aServed: row.a2aServed,
    owner: row.owner,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    keys: row.apiKeys.map((k) => ({
      id: k.id,
      prefix: `sb_${k.prefix}`,
      label: k.label,
      createdAt: k.createdAt.toISOString(),
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
      revokedAt: k.revokedAt?.toISOString() ?? null,
    })),
  };
}
