// What each busy room's last batch of sends was stored on, kept in this process so the next batch can
// be decided without reading it again (PostgreSQL, where that read is a round trip). Nothing here is
// trusted: a batch decided on remembered facts is written with checks that they still hold, in the
// same statement as the write (`send-statements.storeBatch`), and decided again on a fresh read if
// they do not. Facts are remembered only while this process is the room's only writer: after a
// batch stored on a fresh read that shows nobody else moved the room since this process's previous
// batch, or after a batch stored on remembered facts.
import type { MemberRow, RoomFacts } from "./send-statements";
import type { LoopGuard, WorkspaceLimits } from "./limits";

/** Facts as a batch is decided on them. */
export interface RoomState {
  room: RoomFacts;
  workspace: WorkspaceLimits;
  /** Memberships of the authors seen lately, and the room's agents in `mentions` mode. */
  members: MemberRow[];
  /** The loop guard as the last batch left it, or null when unknown (the next agent's batch reads it). */
  guard: LoopGuard | null;
}

interface Entry {
  state: RoomState | null;
  /** The room's `lastSeq` after this process's last batch for it. */
  writtenSeq: number;
}

/** Rooms remembered at most; the least recently written is forgotten first. */
const MAX_ROOMS = 1000;
/** Memberships remembered per room at most (authors seen lately and `mentions`-mode agents). */
const MAX_MEMBERS = 500;

const entries = new Map<string, Entry>();

/**
 * The room's facts as its last batch left them, if they cover these authors (and, with agents among
 * them, the loop guard); else null, and the batch reads them.
 */
export function recall(roomId: string, authorIds: string[], agentAuthors: boolean): RoomState | null {
  const state = entries.get(roomId)?.state;
  if (!state || (agentAuthors && !state.guard)) return null;
  const known = new Set(state.members.map((m) => m.participantId));
  return authorIds.every((id) => known.has(id)) ? state : null;
}

/**
 * After a batch committed: the room's facts as it left them. `readAt`: the `lastSeq` the batch's
 * fresh read found, or null when it was decided on remembered facts (checked by its write).
 */
export function remember(roomId: string, after: RoomState, readAt: number | null): void {
  const previous = entries.get(roomId);
  const onlyWriter = readAt === null || previous?.writtenSeq === readAt;
  // Earlier authors are kept; which agents listen for mentions is as of this batch.
  const members = new Map((previous?.state?.members ?? []).filter((m) => !listensForMentions(m)).map((m) => [m.participantId, m]));
  for (const m of after.members) {
    members.delete(m.participantId); // the newer row wins, and counts as the most recent
    members.set(m.participantId, m);
  }
  const kept = [...members.values()].slice(-MAX_MEMBERS);
  entries.delete(roomId); // re-inserted last: the Map's order is the eviction order
  entries.set(roomId, { state: onlyWriter ? { ...after, members: kept } : null, writtenSeq: after.room.lastSeq });
  if (entries.size > MAX_ROOMS) entries.delete(entries.keys().next().value!);
}

/** The room's agents that are sent only what mentions them (the fan-out's listeners). */
export const listensForMentions = (m: MemberRow): boolean => m.deliveryMode === "mentions" && m.participant.kind === "agent";

/** The remembered facts no longer hold (another process wrote, a member joined): read them next time. */
export function forget(roomId: string): void {
  const entry = entries.get(roomId);
  if (entry) entry.state = null;
}
