// How many MCP sessions a participant may hold open, and for how long one nobody uses is kept: the
// MCP bridge (bridges/mcp/endpoint.ts) keeps sessions in its process's memory and asks here which to close.

/** A session nobody used for this long is closed; its client starts a new one (HTTP 404, as MCP says). */
export const MCP_SESSION_IDLE_MS = 60 * 60 * 1000;
/** Sessions one participant may hold open in one process; a new one closes its least recently used. */
export const MCP_SESSIONS_PER_PARTICIPANT = 10;

interface Held {
  participantId: string;
  lastUsed: number;
}

/** Of the sessions open, those to close before `participantId` opens another: its least recently used past the limit. */
export function sessionsToCloseForNew<S extends Held>(open: Iterable<S>, participantId: string): S[] {
  const mine = [...open].filter((s) => s.participantId === participantId).sort((a, b) => a.lastUsed - b.lastUsed);
  return mine.slice(0, Math.max(0, mine.length - MCP_SESSIONS_PER_PARTICIPANT + 1));
}

/** Of the sessions open, those nobody used within MCP_SESSION_IDLE_MS of `now`. */
export function idleSessions<S extends Held>(open: Iterable<S>, now = Date.now()): S[] {
  const cutoff = now - MCP_SESSION_IDLE_MS;
  return [...open].filter((s) => s.lastUsed < cutoff);
}
