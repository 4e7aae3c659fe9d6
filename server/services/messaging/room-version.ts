// A room's `lastSeq` is its version. The send path decides a batch on one read of the facts it depends
// on (`MessageStore.batchFacts`) and stores it only if `lastSeq` has not moved since (sending.ts), so a
// write of a fact a batch is decided on moves `lastSeq` in its own transaction, here: it stores the room
// event that records the change, whose seq is the room's next (the version moves and the seqs stay
// without gaps). tests/unit/room-version.test.ts finds every write of those facts in server/ and fails
// for one that does not call this; the facts held another way are listed there and in architecture.md.
import type { DeliveryMode, MessageView } from "@switchboard/sdk/contract";
import type { Tx } from "../../db";
import { newId } from "../../ids";
import { appendToRoom } from "./messages";

/** A change to a room's members (or the room itself), as its event records it. */
export type RoomChange =
  | { type: "room.created"; name: string; visibility: string }
  | { type: "member.joined" | "member.added" | "member.left"; participantIds: string[] }
  | { type: "member.mode_changed"; participantIds: string[]; mode: DeliveryMode }
  | { type: "member.paused" | "member.resumed"; participantIds: string[] }
  /** Shared with another workspace (and, once it accepts, `active`), or no longer: `workspace` is its name. */
  | { type: "room.shared" | "room.share_accepted" | "room.unshared" | "room.share_left"; workspace: string };

/** Records `change`, made by `byId` in `tx`, as a room event: the room's version moves. Returns the event; the caller publishes it after commit. */
export function bumpRoomVersion(tx: Tx, roomId: string, byId: string, change: RoomChange): Promise<MessageView> {
  return appendToRoom(tx, { roomId, authorId: byId, kind: "event", body: "", clientMsgId: `event:${newId()}`, data: change });
}
