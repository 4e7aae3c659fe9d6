import { describe, expect, it } from "vitest";
import { presentRoom } from "../../server/presenters/room";

const base = { id: "r", visibility: "private", name: null, topic: "", lastSeq: 3 };
const people = [
  { participantId: "me", displayName: "Me" },
  { participantId: "b", displayName: "Zed" },
  { participantId: "c", displayName: "Amy" },
];

describe("room titles", () => {
  it("names a channel by its name and a conversation by the others, sorted", () => {
    expect(presentRoom({ ...base, kind: "channel", name: "general" }, people, "me").title).toBe("general");
    expect(presentRoom({ ...base, kind: "group" }, people, "me").title).toBe("Amy, Zed");
    expect(presentRoom({ ...base, kind: "dm" }, people.slice(0, 1), "me").title).toBe("Me");
  });
});
