// The states that show side by side: an offline agent's work state is history unless a heartbeat keeps
// it (agents fed over HTTP have no socket); an agent never seen has never connected; a pasted invite
// link gives its token.
import { describe, expect, it } from "vitest";
import type { WorkStatusView } from "@switchboard/sdk/work";
import { inviteTokenOf } from "../../components/auth/invite-link-form";
import { lifecycleOf } from "../../components/ui/participant-states";
import { shownStatus } from "../../components/work/work-state";

const NOW = Date.parse("2026-12-07T12:00:00.000Z");
const status = (state: WorkStatusView["state"], untilMin: number | null): WorkStatusView => ({
  participantId: "a",
  state,
  text: "Fixing the login test",
  waitingFor: null,
  since: "2026-12-07T11:00:00.000Z",
  until: untilMin === null ? null : new Date(NOW + untilMin * 60_000).toISOString(),
});

describe("shownStatus", () => {
  it("shows an online agent's status, and an unknown presence's, as reported", () => {
    const working = status("working", 24 * 60);
    expect(shownStatus(working, true, NOW)).toEqual({ status: working, last: null });
    expect(shownStatus(working, undefined, NOW)).toEqual({ status: working, last: null });
  });

  it("makes an offline agent's status history when nothing keeps it alive", () => {
    const seeded = status("working", 24 * 60);
    const shown = shownStatus(seeded, false, NOW);
    expect(shown.status).toMatchObject({ state: "idle", text: "", waitingFor: null });
    expect(shown.last).toBe(seeded);
    expect(shownStatus(status("blocked", null), false, NOW).status.state).toBe("idle");
  });

  it("keeps a status a heartbeat renews (hooks, MCP, the SDK) though the agent has no socket", () => {
    expect(shownStatus(status("working", 2), false, NOW).status.state).toBe("working");
    expect(shownStatus(status("working", 30), false, NOW).status.state).toBe("working");
    expect(shownStatus(status("working", 33), false, NOW).status.state).toBe("working"); // the browser's clock a little behind
    expect(shownStatus(status("working", 60), false, NOW).status.state).toBe("idle");
    expect(shownStatus(status("waiting", 3 * 60), false, NOW).status.state).toBe("waiting");
    expect(shownStatus(status("idle", null), false, NOW)).toMatchObject({ last: null });
  });
});

describe("lifecycleOf", () => {
  it("is suspended, never connected, or active", () => {
    expect(lifecycleOf({ status: "suspended", lastSeenAt: null })).toBe("suspended");
    expect(lifecycleOf({ status: "active", lastSeenAt: null })).toBe("never_connected");
    expect(lifecycleOf({ status: "active", lastSeenAt: "2026-12-07T11:00:00.000Z" })).toBe("active");
    expect(lifecycleOf({ status: "active" })).toBe("active"); // not known: no claim
  });
});

describe("inviteTokenOf", () => {
  it("finds the token in a link or takes a bare one", () => {
    const token = "AbCdEfGhIjKlMnOpQrStUvWxYz012345";
    expect(inviteTokenOf(`https://chat.example.com/invite/${token}`)).toBe(token);
    expect(inviteTokenOf(`  https://chat.example.com/invite/${token}/?utm=x `)).toBe(token);
    expect(inviteTokenOf(token)).toBe(token);
    expect(inviteTokenOf("https://chat.example.com/signin")).toBeNull();
    expect(inviteTokenOf("hello")).toBeNull();
  });
});
