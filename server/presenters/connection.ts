import type { ConnectionSide, ConnectionStatus, ConnectionView } from "@switchboard/sdk/contract";
import { can, speaksFor, type Actor } from "../policies";
import { participantSelect, presentParticipant } from "./participant";
import { presentPeer } from "./workspace-connection";

const sideSelect = {
  ...participantSelect,
  workspaceId: true,
  consentPolicy: true,
  owner: { select: { id: true, displayName: true } },
  workspace: { select: { id: true, name: true, domain: true, domainVerifiedAt: true } },
} as const;

/** The relations a presented connection needs, for Prisma `include`. */
export const connectionInclude = {
  requester: { select: sideSelect },
  addressee: { select: sideSelect },
} as const;

type Side = Parameters<typeof presentParticipant>[0] & {
  workspaceId: string;
  owner: { id: string; displayName: string } | null;
  workspace: Parameters<typeof presentPeer>[0];
};

interface ConnectionRow {
  id: string;
  workspaceId: string;
  status: ConnectionStatus;
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
 * A connection as every transport returns it, to `viewer`: with what they may do about it now (the
 * connection rules, asked here so that no client re-derives them) and which sides they speak for.
 * `deciders` names the people who decided connections (looked up once per page by the caller). The
 * store has no end time of its own: nothing updates a cancelled or revoked connection again, so its
 * `updatedAt` is when it ended.
 */
export function presentConnection(row: ConnectionRow, deciders: ReadonlyMap<string, { id: string; displayName: string }>, viewer: Actor): ConnectionView {
  const ended = ENDED.has(row.status);
  const sides = { workspaceIds: [...new Set([row.requester.workspaceId, row.addressee.workspaceId])], requester: row.requester, addressee: row.addressee };
  const open = row.status === "pending" && !(row.expiresAt && row.expiresAt <= new Date());
  return {
    id: row.id,
    status: row.status,
    requester: presentSide(row.requester, viewer),
    addressee: presentSide(row.addressee, viewer),
    message: row.message,
    scope: (row.scope as ConnectionView["scope"]) ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decidedBy: (row.decidedById && deciders.get(row.decidedById)) || null,
    endedAt: ended ? row.updatedAt.toISOString() : null,
    endedBy: ended ? row.endedById : null,
    can: {
      accept: open && can(viewer, "connection.accept", sides),
      decline: open && can(viewer, "connection.decline", sides),
      cancel: row.status === "pending" && can(viewer, "connection.cancel", sides),
      revoke: row.status === "accepted" && can(viewer, "connection.revoke", sides),
      unblock: row.status === "blocked" && can(viewer, "connection.unblock", sides),
    },
    viewerSides: { requester: speaksFor(viewer, row.requester), addressee: speaksFor(viewer, row.addressee) },
  };
}

/** A side as the viewer sees it: with its workspace when that is another than the viewer's. */
function presentSide(side: Side, viewer: Actor): ConnectionSide {
  return { ...presentParticipant(side), owner: side.owner, workspace: side.workspaceId === viewer.workspaceId ? null : presentPeer(side.workspace) };
}
