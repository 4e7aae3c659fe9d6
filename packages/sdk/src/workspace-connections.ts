// Workspace connections (tRPC `workspaceConnections.*`): two workspaces of one deployment connected
// the way Slack Connect connects companies, for agents and people alike. An admin of one makes an
// invite code that expires; an admin of the other accepts it. Each side says what it allows the other;
// either side's admin ends it at any moment. The rules are in server/services/workspace-connections.
import { z } from "zod";

const id = z.string().min(1).max(64);

/** Whom of a side the other side may find in its directory (and so ask to connect with). */
export const directoryExposures = ["everyone", "people", "agents", "listed", "nobody"] as const;
export type DirectoryExposure = (typeof directoryExposures)[number];
/** What the other side may do in this side's shared rooms: post only, or also invite its own people and agents. */
export const otherSideRights = ["post", "invite"] as const;
export type OtherSideRight = (typeof otherSideRights)[number];

export const CONNECTION_LISTED_MAX = 200;
export const CONNECTION_CODE_MAX = 200;

/** One side's choices; each field absent keeps what it was (on creation: the defaults). */
export const connectionSideInput = z.strictObject({
  /** Default `agents`: the other side finds this side's agents, not its people. */
  directory: z.enum(directoryExposures).optional(),
  /** With `listed`: the participants (people or agents) of this side the other may find. */
  listedIds: z.array(id).max(CONNECTION_LISTED_MAX).optional(),
  /** Default `post`. */
  otherMay: z.enum(otherSideRights).optional(),
  /** Default true: a room shared across waits for this side's admin to approve it. */
  approveRooms: z.boolean().optional(),
});
export type ConnectionSideInput = z.output<typeof connectionSideInput>;

/** An admin makes an invite code (and link) for another workspace; it expires (14 days unless said). */
export const createConnectionInviteInput = z.strictObject({
  expiresInDays: z.number().int().min(1).max(30).default(14),
  side: connectionSideInput.default({}),
});
export type CreateConnectionInviteInput = z.output<typeof createConnectionInviteInput>;

/** An admin of another workspace accepts a code, with their own side's choices. */
export const acceptConnectionInput = z.strictObject({
  code: z.string().trim().min(1).max(CONNECTION_CODE_MAX),
  side: connectionSideInput.default({}),
});
export type AcceptConnectionInput = z.output<typeof acceptConnectionInput>;

/** What a code would connect to, before accepting it (the page a link opens). */
export const previewConnectionInput = z.strictObject({ code: z.string().trim().min(1).max(CONNECTION_CODE_MAX) });

export const connectionIdInput = z.strictObject({ connectionId: id });

export const updateConnectionSideInput = connectionSideInput.extend({ connectionId: id });
export type UpdateConnectionSideInput = z.output<typeof updateConnectionSideInput>;

export type WorkspaceConnectionStatus = "pending" | "active" | "disconnected" | "revoked" | "expired";

export interface ConnectionSideView {
  directory: DirectoryExposure;
  listedIds: string[];
  otherMay: OtherSideRight;
  approveRooms: boolean;
}

/** The other workspace, as this side sees it: its name, and its domain once verified. */
export interface PeerWorkspaceView {
  id: string;
  name: string;
  /** Shown only once verified (a DNS TXT record, or an operator of this deployment). */
  verifiedDomain: string | null;
}

/** A connection as one of its sides' admins sees it. */
export interface WorkspaceConnectionView {
  id: string;
  status: WorkspaceConnectionStatus;
  /** Whether this side made the invite. */
  invitedByUs: boolean;
  /** The other workspace; null while an invite waits. */
  peer: PeerWorkspaceView | null;
  /** The code's first characters, to tell invites apart (the code itself is shown once). */
  codePrefix: string;
  expiresAt: string;
  createdAt: string;
  acceptedAt: string | null;
  endedAt: string | null;
  /** Which side ended it (disconnected or revoked), when it ended. */
  endedByUs: boolean | null;
  ours: ConnectionSideView;
  /** The other side's choices; null while an invite waits. */
  theirs: ConnectionSideView | null;
}

/** A new invite: the code and the link to hand the other workspace's admin, shown this once. */
export interface ConnectionInviteView {
  connection: WorkspaceConnectionView;
  code: string;
}

/** What a code connects to, before it is accepted. */
export interface ConnectionPreview {
  workspace: PeerWorkspaceView;
  invitedBy: string;
  expiresAt: string;
  theirs: ConnectionSideView;
}

/** Share a channel of your workspace with a connected one (tRPC `workspaceConnections.share`), or stop (`unshare`). */
export const shareRoomInput = z.strictObject({ roomId: id, workspaceId: id });
/** The guest side's admin approves or declines a channel shared with their workspace. */
export const decideShareInput = z.strictObject({ roomId: id, approve: z.boolean() });
/** The guest side's admin takes their workspace out of a shared channel. */
export const leaveShareInput = z.strictObject({ roomId: id });

/** A channel shared between two workspaces, as one of their admins sees it. */
export interface RoomShareView {
  roomId: string;
  name: string;
  topic: string;
  /** Your workspace's channel, shared with `workspace`; false: `workspace`'s channel, shared with yours. */
  ours: boolean;
  workspace: { id: string; name: string };
  /** `pending`: waiting for the guest side's admin. */
  status: "pending" | "active";
  sharedBy: string;
  since: string;
}

/** A channel's sharing, as its settings show it to its owner or an admin (tRPC `workspaceConnections.roomSharing`). */
export const roomSharingInput = z.strictObject({ roomId: id });
export interface RoomSharingView {
  /** With whom it is shared, or waits to be. */
  shares: RoomShareView[];
  /**
   * The connected workspaces it is not shared with. `mayShare` false: this workspace's side asks that
   * an admin share each channel with that one, and the viewer is not an admin.
   */
  targets: { workspace: PeerWorkspaceView; mayShare: boolean }[];
}

/** A domain name a workspace says is its own (acme.com): letters, digits and hyphens, at least one dot. */
export const DOMAIN_MAX = 253;
export const setDomainInput = z.strictObject({
  /** Compared in lower case. */
  domain: z
    .string()
    .trim()
    .max(DOMAIN_MAX)
    .regex(/^([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/, "a domain name, such as acme.com")
    .nullable(),
});

/** A workspace's domain as its admins see it: the TXT record that proves it, and whether it is verified. */
export interface WorkspaceDomainView {
  domain: string | null;
  /** Publish this TXT record, then ask to verify. */
  record: { name: string; value: string } | null;
  verifiedAt: string | null;
  /** How: the TXT record found ("dns"), or an operator of this deployment ("operator"). */
  verifiedBy: "dns" | "operator" | null;
}
