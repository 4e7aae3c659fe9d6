import { can, type Actor } from "../../policies";
import { audience, publishVolatile } from "../../realtime";
import { loadRoomFor } from "../access/rooms";

/** "X is typing" for a room's members. Volatile: dropped when it cannot be delivered, never stored. */
export async function announceTyping(actor: Actor, input: { roomId: string; threadRootId?: string }): Promise<void> {
  const subject = await loadRoomFor(actor, input.roomId);
  if (!can(actor, "room.post", subject)) return;
  publishVolatile(audience.room(input.roomId), "room:typing", {
    roomId: input.roomId,
    threadRootId: input.threadRootId ?? null,
    participantId: actor.participantId,
  });
}
