import type { ConnectionStatus, ConnectionView } from "../../sdk/contract";
import { participantSelect, presentParticipant } from "./participant";

const sideSelect = { ...participantSelect, workspaceId: true, consentPolicy: true, owner: { select: { id: true, displayName: true } } } as const;

/** The relations a presented connection needs, for Prisma `include`. */
export const connectionInclude = {
  requester: { select: sideSelect },
  addressee: { select: sideSelect },
} as const;

type Side = Parameters<typeof presentParticipant>[0] & { owner: { id: string; displayName: string } | null };

interface ConnectionRow {
  id: string;
  status: string;
  requester: Side;
  addressee: Side;
  message: string;
  scope: unknown;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  decidedAt: Date | null;
  decidedById: string | null;
  endedById: string | null;
}

/** Statuses a connection reaches by being ended (rather than decided): their last update is the end. */
const ENDED: ReadonlySet<string> = new Set<ConnectionStatus>(["cancelled", "revoked"]);

/**
 * A connection as every transport returns it. `deciders` names the people who decided connections
 * (looked up once per page by the caller). The store has no end time of its own: nothing updates a
 * cancelled or revoked connection again, so its `updatedAt` is when it ended.
 */
export function presentConnection(row: ConnectionRow, deciders: ReadonlyMap<string, { id: string; displayName: string }>): ConnectionView {
  const ended = ENDED.has(row.status);
  return {
    id: row.id,
    status: row.status as ConnectionStatus,
    requester: { ...presentParticipant(row.requester), owner: row.requester.owner },
    addressee: { ...presentParticipant(row.addressee), owner: row.addressee.owner },
    message: row.message,
    scope: (row.scope as ConnectionView["scope"]) ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decidedBy: (row.decidedById && deciders.get(row.decidedById)) || null,
    endedAt: ended ? row.updatedAt.toISOString() : null,
    endedBy: ended ? row.endedById : null,
  };
}
