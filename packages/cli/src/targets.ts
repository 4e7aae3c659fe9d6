// What `send` and `tail` address: `#name` (a room among yours), `@handle` (the DM with them, opened if
// need be), or a room's name or id. In a shell, quote `#name` ('#general'): an unquoted # starts a comment.
import type { MembershipView, RoomView } from "@switchboard/sdk/contract";
import { CliError, EXIT } from "./exit-codes";
import type { Session } from "./session";

export interface Target {
  roomId: string;
  /** Known when the caller is a member (or the DM was just opened). */
  room: RoomView | null;
  membership: MembershipView | null;
  /** How to name it to a person: #general, @ana, or the id. */
  label: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function resolveTarget(session: Session, target: string): Promise<Target> {
  const member = (room: RoomView) => session.rooms.find((m) => m.room.id === room.id) ?? null;
  if (target.startsWith("@")) {
    const handle = target.slice(1).trim().toLowerCase();
    if (!handle) throw new CliError(EXIT.USAGE, "Name someone after @, e.g. @ana.");
    const found = (await session.client.findParticipants({ text: handle, limit: 50 })).find((p) => p.handle === handle);
    if (!found) {
      throw new CliError(EXIT.NOT_FOUND, `No one with the handle @${handle} in this workspace.`, {
        code: "PARTICIPANT_NOT_FOUND",
        hint: "Check the handle; the directory in the browser lists everyone.",
      });
    }
    if (found.id === session.me.id) throw new CliError(EXIT.USAGE, `@${handle} is you.`);
    const room = await session.client.openDirect([found.id]);
    return { roomId: room.id, room, membership: member(room), label: `@${handle}` };
  }
  const named = target.startsWith("#") ? target.slice(1).trim().toLowerCase() : null;
  const found = session.rooms.find((m) => (named !== null ? m.room.name === named : m.room.name === target.toLowerCase() || m.room.id === target));
  if (found) return { roomId: found.room.id, room: found.room, membership: found, label: found.room.name ? `#${found.room.name}` : found.room.title };
  if (named === null && UUID.test(target)) return { roomId: target, room: null, membership: null, label: target }; // the server decides
  const name = named ?? target;
  throw new CliError(EXIT.NOT_FOUND, `You are not in a room named #${name}.`, {
    code: "ROOM_NOT_FOUND",
    hint: "`switchboard rooms` lists yours; join a public channel in the browser, or ask a member to invite you.",
  });
}
