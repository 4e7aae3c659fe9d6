// What an active workspace connection lets each side see of the other: read by the rules about
// reaching someone (access/reach.ts), the directory and shared rooms. Nothing here writes.
import type { DirectoryExposure, PeerWorkspaceView } from "@switchboard/sdk/workspace-connections";
import { getDb } from "../../db";
import { presentPeer } from "../../presenters/workspace-connection";

/** One workspace connected with the viewer's: what that other side lets the viewer's side find. */
export interface LinkedWorkspace {
  connectionId: string;
  workspace: PeerWorkspaceView;
  /** The other side's choice of whom the viewer's side may find. */
  exposes: { directory: DirectoryExposure; listedIds: string[] };
}

/** The workspaces connected with `workspaceId` now, by id. One query. */
export async function linkedWorkspaces(workspaceId: string): Promise<Map<string, LinkedWorkspace>> {
  const rows = await getDb().workspaceConnection.findMany({
    where: { status: "active", OR: [{ inviterId: workspaceId }, { accepterId: workspaceId }] },
    select: {
      id: true,
      inviterId: true,
      sides: { where: { workspaceId: { not: workspaceId } }, select: { workspaceId: true, directory: true, listedIds: true } },
      inviter: { select: { id: true, name: true, domain: true, domainVerifiedAt: true } },
      accepter: { select: { id: true, name: true, domain: true, domainVerifiedAt: true } },
    },
  });
  const linked = new Map<string, LinkedWorkspace>();
  for (const row of rows) {
    const other = row.inviterId === workspaceId ? row.accepter : row.inviter;
    const side = row.sides[0];
    if (!other || !side) continue;
    linked.set(other.id, {
      connectionId: row.id,
      workspace: presentPeer(other),
      exposes: { directory: side.directory as DirectoryExposure, listedIds: Array.isArray(side.listedIds) ? (side.listedIds as string[]) : [] },
    });
  }
  return linked;
}

/** Whether a side's choice lets the other side find this participant. */
export function exposes(link: LinkedWorkspace, p: { id: string; kind: string }): boolean {
  switch (link.exposes.directory) {
    case "everyone":
      return true;
    case "people":
      return p.kind === "human";
    case "agents":
      return p.kind === "agent";
    case "listed":
      return link.exposes.listedIds.includes(p.id);
    default:
      return false;
  }
}

/**
 * What stands between the actor's workspace and each participant of another: whether the two
 * workspaces are connected now, and whether the other side lets the actor's side find them. Own
 * workspace's participants are left out. `known`: the connections, when the caller read them already.
 */
export async function acrossFacts(
  workspaceId: string,
  others: { id: string; kind: string; workspaceId: string }[],
  known?: Map<string, LinkedWorkspace>,
): Promise<Map<string, Across>> {
  const foreign = others.filter((p) => p.workspaceId !== workspaceId);
  if (foreign.length === 0) return new Map();
  const linked = known ?? (await linkedWorkspaces(workspaceId));
  return new Map(
    foreign.map((p) => {
      const link = linked.get(p.workspaceId);
      return [p.id, { linked: !!link, findable: !!link && exposes(link, p), workspace: link?.workspace ?? null }];
    }),
  );
}

export interface Across {
  /** The two workspaces are connected now. */
  linked: boolean;
  /** The other side lets the actor's side find this participant. */
  findable: boolean;
  /** The other workspace, while connected. */
  workspace: PeerWorkspaceView | null;
}

/**
 * A room of `roomWorkspaceId` as seen from `guestWorkspaceId`: whether it is a channel shared with
 * that workspace now (an active share over an active connection), and whether the room's side lets the
 * guest side invite into its shared rooms. Two queries, for actors of another workspace only.
 */
export async function sharingWith(roomId: string, roomWorkspaceId: string, guestWorkspaceId: string): Promise<{ shared: boolean; guestsMayInvite: boolean }> {
  const [share, side] = await Promise.all([
    getDb().roomShare.findUnique({
      where: { roomId_workspaceId: { roomId, workspaceId: guestWorkspaceId } },
      select: { status: true, connection: { select: { status: true } } },
    }),
    getDb().workspaceConnectionSide.findFirst({
      where: {
        workspaceId: roomWorkspaceId,
        connection: connectedNow(roomWorkspaceId, guestWorkspaceId),
      },
      select: { otherMay: true },
    }),
  ]);
  return { shared: share?.status === "active" && share.connection.status === "active", guestsMayInvite: side?.otherMay === "invite" };
}

/** The active connection between two workspaces, whichever invited the other, as a filter of `workspaceConnection`. */
export const connectedNow = (a: string, b: string) => ({
  status: "active" as const,
  OR: [
    { inviterId: a, accepterId: b },
    { inviterId: b, accepterId: a },
  ],
});

/** Rooms shared with a workspace now (approved, over an active connection), as a filter of `room.findMany`. */
export const sharedNowWith = (workspaceId: string) => ({
  shares: { some: { workspaceId, status: "active" as const, connection: { status: "active" as const } } },
});
