// A workspace connection as one of its sides' admins sees it (sdk/workspace-connections.ts).
import type {
  ConnectionSideView,
  DirectoryExposure,
  OtherSideRight,
  PeerWorkspaceView,
  WorkspaceConnectionStatus,
  WorkspaceConnectionView,
} from "@switchboard/sdk/workspace-connections";

export const connectionInclude = {
  sides: true,
  inviter: { select: { id: true, name: true, domain: true, domainVerifiedAt: true } },
  accepter: { select: { id: true, name: true, domain: true, domainVerifiedAt: true } },
} as const;

interface SideRow {
  workspaceId: string;
  directory: string;
  listedIds: unknown;
  otherMay: string;
  approveRooms: boolean;
}

interface WorkspaceRow {
  id: string;
  name: string;
  domain: string | null;
  domainVerifiedAt: Date | null;
}

export interface ConnectionRow {
  id: string;
  inviterId: string;
  accepterId: string | null;
  status: "pending" | "active" | "disconnected" | "revoked";
  codePrefix: string;
  expiresAt: Date;
  createdAt: Date;
  acceptedAt: Date | null;
  endedAt: Date | null;
  endedByWorkspaceId: string | null;
  sides: SideRow[];
  inviter: WorkspaceRow;
  accepter: WorkspaceRow | null;
}

/** A pending invite past its expiry reads as expired; nothing else about it changes. */
export function connectionStatus(row: Pick<ConnectionRow, "status" | "expiresAt">, now = new Date()): WorkspaceConnectionStatus {
  return row.status === "pending" && row.expiresAt <= now ? "expired" : row.status;
}

export function presentSide(side: SideRow | undefined): ConnectionSideView {
  return {
    directory: (side?.directory ?? "agents") as DirectoryExposure,
    listedIds: Array.isArray(side?.listedIds) ? (side.listedIds as string[]) : [],
    otherMay: (side?.otherMay ?? "post") as OtherSideRight,
    approveRooms: side?.approveRooms ?? true,
  };
}

export function presentPeer(w: WorkspaceRow): PeerWorkspaceView {
  return { id: w.id, name: w.name, verifiedDomain: w.domainVerifiedAt && w.domain ? w.domain : null };
}

/** `workspaceId`: the side looking. */
export function presentConnection(row: ConnectionRow, workspaceId: string): WorkspaceConnectionView {
  const invitedByUs = row.inviterId === workspaceId;
  const peer = invitedByUs ? row.accepter : row.inviter;
  const peerId = invitedByUs ? row.accepterId : row.inviterId;
  const theirs = peerId ? row.sides.find((s) => s.workspaceId === peerId) : undefined;
  return {
    id: row.id,
    status: connectionStatus(row),
    invitedByUs,
    peer: peer ? presentPeer(peer) : null,
    codePrefix: row.codePrefix,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    endedByUs: row.endedByWorkspaceId ? row.endedByWorkspaceId === workspaceId : null,
    ours: presentSide(row.sides.find((s) => s.workspaceId === workspaceId)),
    theirs: theirs ? presentSide(theirs) : null,
  };
}
