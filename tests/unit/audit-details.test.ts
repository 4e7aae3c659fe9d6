// The audit log in words: ids named (@handle, #room), values said plainly, subjects labelled, and the ids
// a page of entries needs names for.
import { describe, expect, it } from "vitest";
import { auditDetails, idsToName, labelOf, subjectLabel, valueOf, type AuditNames } from "../../server/presenters/audit";

const names: AuditNames = {
  participants: new Map([
    ["p-scout", { id: "p-scout", handle: "scout", displayName: "Scout", kind: "agent" }],
    ["p-bea", { id: "p-bea", handle: "bea", displayName: "Bea", kind: "human" }],
  ]),
  rooms: new Map([
    ["r-gen", { id: "r-gen", kind: "channel", name: "general" }],
    ["r-dm", { id: "r-dm", kind: "dm", name: null }],
  ]),
};

describe("audit details", () => {
  it("names ids by handle or room, and says the rest plainly", () => {
    expect(
      auditDetails({ agentId: "p-scout", roomId: "r-gen", participantIds: ["p-bea", "p-gone"], viaInvite: true, maxUses: null, amount: 1500 }, names),
    ).toEqual([
      { key: "agentId", label: "Agent", value: "@scout" },
      { key: "roomId", label: "Room", value: "#general" },
      { key: "participantIds", label: "Who", value: "@bea, p-gone" },
      { key: "viaInvite", label: "Through an invite link", value: "yes" },
      { key: "maxUses", label: "Uses allowed", value: "unlimited" },
      { key: "amount", label: "Amount", value: "1,500" },
    ]);
    expect(auditDetails(null, names)).toEqual([]);
  });

  it("words keys and values it has no rule for", () => {
    expect(labelOf("peopleBurst")).toBe("People burst");
    expect(labelOf("consent_policy")).toBe("Consent policy");
    expect(valueOf("expiresAt", "2026-12-14T09:30:00.000Z", names)).toBe("2026-12-14 09:30 UTC");
    expect(valueOf("card", { a: 1 }, names)).toBe('{"a":1}');
    expect(valueOf("reason", "", names)).toBe("none");
    expect(valueOf("createdById", "r-dm", names)).toBe("a direct message");
  });

  it("labels participants and rooms, and nothing else", () => {
    expect(subjectLabel("participant", "p-scout", names)).toBe("@scout");
    expect(subjectLabel("person", "p-bea", names)).toBe("@bea");
    expect(subjectLabel("room", "r-gen", names)).toBe("#general");
    expect(subjectLabel("invite", "p-scout", names)).toBeNull();
    expect(subjectLabel("participant", "p-unknown", names)).toBeNull();
    expect(subjectLabel("participant", null, names)).toBeNull();
  });

  it("collects the ids a page needs names for", () => {
    const ids = idsToName([
      { actorId: "a1", subjectType: "participant", subjectId: "p1", data: { agentId: "p2", roomId: "r1", prefix: "sb_x" } },
      { actorId: null, subjectType: "room", subjectId: "r2", data: { participantIds: ["p3"] } },
      { actorId: "a1", subjectType: "api_key", subjectId: "k1", data: null },
    ]);
    expect(ids.participants.sort()).toEqual(["a1", "p1", "p2", "p3"]);
    expect(ids.rooms.sort()).toEqual(["r1", "r2"]);
  });
});
