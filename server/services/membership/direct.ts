// Direct conversations: one room per set of people, found by its key (the sorted participant ids),
// created on first use and reopened after. Nothing here asks for approval; rooms.openDirect does.
import type { RoomView } from "@switchboard/sdk/contract";
import { getDb } from "../../db";
import { isUniqueViolation } from "../../errors";
import { newId } from "../../ids";
import type { Actor } from "../../policies";
import { assertCanReach } from "../access/reach";
import { roomView } from "../access/views";
import { transaction, TX_OPTIONS, type Committed } from "../../transaction";
import { addMembers, announceAdded, announceJoined, conversationParticipants, newMemberships, subscribeNewMembers } from "./members";

/**
 * Opens (or finds) the direct conversation between the actor and `participantIds`. `beforeCreate`
 * runs only when the conversation is new, with whom it reaches (the approvals gate, for rooms.openDirect).
 */
export async function openDirectRoom(actor: Actor, participantIds: string[], beforeCreate?: (reaches: string[]) => Promise<void>): Promise<RoomView> {
  const { ids, workspaceIds } = await conversationParticipants(actor, [actor.participantId, ...participantIds]);
  await assertCanReach(actor, ids);
  const sorted = [...ids].sort();
  const directKey = sorted.join(",");
  const db = getDb();
  // A conversation across workspaces belongs to whichever side opened it first: found from either.
  const existing = await db.room.findFirst({ where: { directKey, workspaceId: { in: workspaceIds } }, orderBy: { createdAt: "asc" } });
  if (existing) return reopen(actor, existing.id);
  const reaches = sorted.filter((id) => id !== actor.participantId);
  await beforeCreate?.(reaches);
  const roomId = newId();
  let committed: Committed;
  try {
    [, committed] = await transaction(async (tx) => {
      await tx.room.create({
        data: {
          id: roomId,
          workspaceId: actor.workspaceId,
          kind: sorted.length > 2 ? "group" : "dm",
          visibility: "private",
          directKey,
          createdById: actor.participantId,
        },
      });
      await tx.roomMember.createMany({ data: await newMemberships(tx, roomId, sorted) });
    }, TX_OPTIONS);
  } catch (error) {
    if (isUniqueViolation(error)) {
      const raced = await db.room.findUniqueOrThrow({ where: { workspaceId_directKey: { workspaceId: actor.workspaceId, directKey } } });
      return reopen(actor, raced.id);
    }
    throw error;
  }
  await subscribeNewMembers(roomId, sorted);
  await announceAdded(committed, roomId, sorted);
  return roomView(roomId, actor.participantId);
}

/**
 * The actor's direct conversation with the same people, opened again. Whoever left a group is one of
 * its people still (the conversation is theirs by its key): opening it brings them back in, as a room
 * event, rather than handing them a room they cannot read.
 */
async function reopen(actor: Actor, roomId: string): Promise<RoomView> {
  const db = getDb();
  const membership = await db.roomMember.findUnique({ where: { roomId_participantId: { roomId, participantId: actor.participantId } } });
  if (!membership) {
    try {
      const [event, committed] = await transaction((tx) => addMembers(tx, roomId, actor.participantId, [actor.participantId], "member.joined"), TX_OPTIONS);
      await announceJoined(committed, roomId, event, [actor.participantId]);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error; // opened twice at once: the other call brought them back
    }
  }
  return roomView(roomId, actor.participantId);
}
