import { PARTICIPANTS_PAGE, type UpdateSettingsInput } from "@switchboard/sdk/admin";
import type { MessageView } from "@switchboard/sdk/contract";
import { getDb, type Prisma, type Tx } from "../../db";
import { newId } from "../../ids";
import { authorize, type Actor } from "../../policies";
import { participantSelect, presentParticipant } from "../../presenters/participant";
import { workspaceCan } from "../../presenters/workspace";
import { onlineAmong } from "../../realtime/presence";
import { recordAudit } from "../governance/audit";
import { bumpRoomVersion } from "../messaging/room-version";
import { inOrder, searchParticipants } from "../consent/participant-search";
import { seedPrices } from "../usage/usage";

export const DEFAULT_CHANNEL = "general";
/** A new, empty workspace; its first member creates #general by joining it. */
export async function createWorkspace(tx: Tx, name: string): Promise<string> {
  const workspaceId = newId();
  await tx.workspace.create({ data: { id: workspaceId, name } });
  await seedPrices(tx, workspaceId);
  return workspaceId;
}

/**
 * Everyone who joins lands in #general. The first person creates it; its creation is its first event.
 * Returns the room and its event (the room created, or the person joined), for the caller to publish.
 */
export async function addToDefaultChannels(
  tx: Tx,
  workspaceId: string,
  participantId: string,
): Promise<{ roomId: string; event: MessageView; created: boolean }> {
  let room = await tx.room.findUnique({ where: { workspaceId_name: { workspaceId, name: DEFAULT_CHANNEL } } });
  if (!room) {
    room = await tx.room.create({
      data: {
        id: newId(),
        workspaceId,
        kind: "channel",
        visibility: "public",
        name: DEFAULT_CHANNEL,
        topic: "Everyone, people and agents",
        createdById: participantId,
      },
    });
    await tx.roomMember.create({ data: { roomId: room.id, participantId, role: "owner" } });
    const event = await bumpRoomVersion(tx, room.id, participantId, { type: "room.created", name: DEFAULT_CHANNEL, visibility: "public" });
    return { roomId: room.id, event, created: true };
  }
  await tx.roomMember.create({ data: { roomId: room.id, participantId } });
  const event = await bumpRoomVersion(tx, room.id, participantId, { type: "member.joined", participantIds: [participantId] });
  return { roomId: room.id, event, created: false };
}

export async function describeWorkspace(actor: Actor) {
  const db = getDb();
  const [workspace, me] = await Promise.all([
    db.workspace.findUniqueOrThrow({ where: { id: actor.workspaceId } }),
    db.participant.findUniqueOrThrow({ where: { id: actor.participantId }, select: participantSelect }),
  ]);
  return {
    workspace: { id: workspace.id, name: workspace.name, peopleTalkFreely: workspace.peopleTalkFreely },
    me: presentParticipant(me),
    role: actor.role,
    can: workspaceCan(actor),
  };
}

export async function updateSettings(actor: Actor, input: UpdateSettingsInput) {
  authorize(actor, "workspace.configure", { workspaceId: actor.workspaceId });
  await getDb().$transaction(async (tx) => {
    await tx.workspace.update({ where: { id: actor.workspaceId }, data: input });
    await recordAudit(tx, {
      workspaceId: actor.workspaceId,
      actorId: actor.participantId,
      action: "workspace.settings",
      subjectType: "workspace",
      subjectId: actor.workspaceId,
      data: input,
    });
  });
  return describeWorkspace(actor);
}

/**
 * The workspace's people and agents, for pickers and the member list: all of them, or with `query`
 * the first `limit` whose handle or display name holds it (searched in the database).
 */
export async function listParticipants(actor: Actor, input: { query?: string; limit?: number } = {}) {
  const query = input.query?.trim();
  const matched = query
    ? await named(actor.workspaceId, query, input.limit ?? PARTICIPANTS_PAGE)
    : [
        ...(await getDb().participant.findMany({ where: { workspaceId: actor.workspaceId }, select: participantSelect, orderBy: ORDER })),
        ...(await alongside(actor)),
      ];
  const online = await onlineAmong(matched.map((p) => p.id));
  return matched.map((p) => ({
    ...presentParticipant(p),
    online: online.has(p.id),
    // Someone of another workspace (in a room shared with it): its name, shown beside theirs.
    workspace: "workspace" in p ? (p.workspace as { id: string; name: string }) : null,
  }));
}

const ORDER = [{ kind: "asc" }, { handle: "asc" }] as const satisfies Prisma.ParticipantOrderByWithRelationInput[];

/**
 * People and agents of other workspaces in a room with the actor (a channel shared across): named in
 * its messages and member list like the workspace's own, with their workspace.
 */
function alongside(actor: Actor) {
  return getDb().participant.findMany({
    where: {
      workspaceId: { not: actor.workspaceId },
      roomMembers: { some: { room: { members: { some: { participantId: actor.participantId } } } } },
    },
    select: { ...participantSelect, workspace: { select: { id: true, name: true } } },
    orderBy: ORDER,
  });
}

/** The first `limit` participants whose handle or display name holds `text`. */
async function named(workspaceId: string, text: string, limit: number) {
  const ids = await searchParticipants({ workspaceId, text, textIn: "names" }, limit);
  return inOrder(ids, await getDb().participant.findMany({ where: { id: { in: ids } }, select: participantSelect }));
}
