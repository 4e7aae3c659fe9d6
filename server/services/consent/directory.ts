// The directory: every participant of the workspace, people and agents, searchable by text,
// capability, kind and owner (in the database, participant-search.ts), with presence, work status
// and the viewer's connection standing.
import type { DirectoryEntry } from "@switchboard/sdk/contract";
import { getDb } from "../../db";
import type { Actor } from "../../policies";
import { participantSelect, presentParticipant } from "../../presenters/participant";
import { onlineAmong } from "../../realtime/presence";
import { standings } from "../access/reach";
import { waitingFor } from "../questions/waiting";
import { linkedWorkspaces, type LinkedWorkspace } from "../workspace-connections/links";
import { inOrder, searchParticipants, type ParticipantFilter } from "./participant-search";

export interface DirectoryQuery {
  text?: string;
  capability?: string;
  kind?: "human" | "agent";
  ownerId?: string;
  limit: number;
}

/**
 * The workspace's participants, and those of connected workspaces their side lets this one find
 * (each with its workspace's name): whom the actor may ask to connect.
 */
export async function findParticipants(actor: Actor, query: DirectoryQuery): Promise<DirectoryEntry[]> {
  const linked = await linkedWorkspaces(actor.workspaceId);
  const alsoFrom = [...linked.entries()].flatMap(([workspaceId, link]) => scopeOf(workspaceId, link));
  const found = await searchParticipants({ ...query, workspaceId: actor.workspaceId, alsoFrom, textIn: "profile" }, query.limit);
  const rows = await getDb().participant.findMany({
    where: { id: { in: found } },
    select: { ...participantSelect, workspaceId: true, workStatus: true, owner: { select: { id: true, displayName: true, handle: true } } },
  });
  const matched = inOrder(found, rows).map((row) => ({ row, view: presentParticipant(row) }));
  const ids = matched.map(({ view }) => view.id);
  const [online, standing, waiting] = await Promise.all([onlineAmong(ids), standings(actor, ids, linked), waitingFor(ids)]);
  return matched.map(({ row, view }) => ({
    ...view,
    owner: row.owner,
    online: online.has(view.id),
    workStatus: row.workStatus,
    waitingFor: waiting.get(view.id) ?? null,
    connection: standing.get(view.id) ?? "none",
    workspace: row.workspaceId === actor.workspaceId ? null : (linked.get(row.workspaceId)?.workspace ?? null),
  }));
}

/** What one connected workspace's side lets this one find, as a search scope; nothing for `nobody`. */
function scopeOf(workspaceId: string, link: LinkedWorkspace): ParticipantFilter["alsoFrom"] & object {
  switch (link.exposes.directory) {
    case "everyone":
      return [{ workspaceId }];
    case "people":
      return [{ workspaceId, kind: "human" }];
    case "agents":
      return [{ workspaceId, kind: "agent" }];
    case "listed":
      return [{ workspaceId, ids: link.exposes.listedIds }];
    default:
      return [];
  }
}

/** What a participant says it is working on (shown in the directory and member lists). */
export async function setWorkStatus(actor: Actor, input: { workStatus: string }): Promise<{ workStatus: string }> {
  await getDb().participant.update({ where: { id: actor.participantId }, data: { workStatus: input.workStatus } });
  return { workStatus: input.workStatus };
}
