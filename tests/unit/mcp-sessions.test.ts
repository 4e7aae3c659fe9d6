import { describe, expect, it } from "vitest";
import { idleSessions, MCP_SESSION_IDLE_MS, MCP_SESSIONS_PER_PARTICIPANT, sessionsToCloseForNew } from "../../server/services/governance/mcp-sessions";

const session = (participantId: string, lastUsed: number) => ({ participantId, lastUsed });

describe("MCP session limits", () => {
  it("closes a participant's least recently used sessions past the limit, and no one else's", () => {
    const mine = Array.from({ length: MCP_SESSIONS_PER_PARTICIPANT }, (_, i) => session("me", 100 - i));
    const open = [...mine, session("other", 0)];
    expect(sessionsToCloseForNew(open, "me")).toEqual([mine.at(-1)]);
    expect(sessionsToCloseForNew(open.slice(1), "me")).toEqual([]);
    expect(sessionsToCloseForNew(open, "other")).toEqual([]);
  });

  it("closes the sessions nobody used within the idle time", () => {
    const now = 10 * MCP_SESSION_IDLE_MS;
    const fresh = session("me", now - MCP_SESSION_IDLE_MS);
    const stale = session("me", now - MCP_SESSION_IDLE_MS - 1);
    expect(idleSessions([fresh, stale], now)).toEqual([stale]);
  });
});
