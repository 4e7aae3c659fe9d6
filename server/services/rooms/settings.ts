// A channel's settings after creation: its name, its topic, and archiving (read-only, out of the
// sidebar, still listed in Browse channels). Each change is audited and posted in the room as a system
// message in the same transaction, and the members are told (`room:updated`) after commit.
import type { RoomView } from "@switchboard/sdk/contract";
import { getDb } from "../../db";
import { AppError, isUniqueViolation } from "../../errors";
import { newId } from "../../ids";
import { authorize, type Actor } from "../../policies";
import { audience, publish } from "../../realtime";
import { transaction, TX_OPTIONS } from "../../transaction";
import { loadRoomFor } from "../access/rooms";
import { roomView } from "../access/views";
import { auditRoom } from "../membership/members";
import { fanOutNew } from "../messaging/delivery";
import { appendToRoom } from "../messaging/messages";

export interface RoomUpdate {
  roomId: string;
  name?: string;
  topic?: string;
  archived?: boolean;
}

/** A change as its system message's `data` and its audit entry record it. */
type SettingChange =
  | { type: "room.unarchived" }
  | { type: "room.renamed"; name: string; previousName: string | null }
  | { type: "room.topic_changed"; topic: string }
  | { type: "room.archived" };

/** What the room reads for a change: "@dana renamed the channel to #ops". */
function describe(handle: string, change: SettingChange): string {
  switch (change.type) {
    case "room.renamed":
      return `@${handle} renamed the channel to #${change.name}`;
    case "room.topic_changed":
      return change.topic ? `@${handle} set the topic: ${change.topic}` : `@${handle} cleared the topic`;
    case "room.archived":
      return `@${handle} archived the channel`;
    case "room.unarchived":
      return `@${handle} unarchived the channel`;
  }
}

/**
 * Renames a channel, sets its topic, archives or unarchives it (`room.update`: its owner, workspace
 * admins). An archived channel changes nothing else until it is unarchived (ROOM_ARCHIVED); a name in
 * use is NAME_TAKEN. What already holds is no change, and posts nothing.
 */
export async function updateRoom(actor: Actor, input: RoomUpdate): Promise<RoomView> {
  const subject = await loadRoomFor(actor, input.roomId);
  authorize(actor, "room.update", subject);
  const { room } = subject;
  const archived = room.archivedAt !== null;
  const unarchiving = archived && input.archived === false;
  if (archived && !unarchiving && (input.name !== undefined || input.topic !== undefined)) {
    throw new AppError("ROOM_ARCHIVED", "The channel is archived: unarchive it first");
  }
  // In the order they read best: back in use first, put away last.
  const changes: SettingChange[] = [];
  if (unarchiving) changes.push({ type: "room.unarchived" });
  if (input.name !== undefined && input.name !== room.name) changes.push({ type: "room.renamed", name: input.name, previousName: room.name });
  if (input.topic !== undefined && input.topic !== room.topic) changes.push({ type: "room.topic_changed", topic: input.topic });
  const archiving = input.archived === true && !archived;
  if (archiving) changes.push({ type: "room.archived" });
  if (changes.length === 0) return roomView(room.id, actor.participantId);

  let done;
  try {
    done = await transaction(async (tx) => {
      await tx.room.update({
        where: { id: room.id },
        // Prisma leaves what is undefined as it is.
        data: { name: input.name, topic: input.topic, archivedAt: unarchiving ? null : archiving ? new Date() : undefined },
      });
      // As it is now: a socket's actor keeps the handle it connected with.
      const { handle } = await tx.participant.findUniqueOrThrow({ where: { id: actor.participantId }, select: { handle: true } });
      const events = [];
      for (const change of changes) {
        const { type, ...data } = change;
        await auditRoom(tx, room.id, actor.participantId, type, data);
        events.push(
          await appendToRoom(tx, {
            roomId: room.id,
            authorId: actor.participantId,
            kind: "system",
            body: describe(handle, change),
            clientMsgId: `event:${newId()}`,
            data: change,
          }),
        );
      }
      return events;
    }, TX_OPTIONS);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("NAME_TAKEN", `#${input.name} already exists`);
    throw error;
  }
  const [events, committed] = done;
  await fanOutNew(committed, ...events);
  const [view, members] = await Promise.all([
    roomView(room.id, actor.participantId),
    getDb().roomMember.findMany({ where: { roomId: room.id }, select: { participantId: true } }),
  ]);
  // A channel's view is the same for every member (its title is its name), so one view goes to all.
  publish(
    committed,
    members.map((m) => audience.participant(m.participantId)),
    "room:updated",
    { room: view },
  );
  return view;
}
