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

describe("titles of large groups", () => {
  const many = Array.from({ length: 10 }, (_, i) => ({ participantId: `p${i}`, displayName: `Name ${String.fromCharCode(74 - i)}` }));

  it("names the first eight others to have joined, and counts the rest", () => {
    const room = { ...base, kind: "group" };
    // The viewer among the members read: eight others named, the rest counted.
    expect(presentRoom(room, many.slice(0, 9), "p0", 40).title).toBe("Name B, Name C, Name D, Name E, Name F, Name G, Name H, Name I and 31 more");
    // The viewer joined later: the first eight others named.
    expect(presentRoom(room, many.slice(0, 9), "late", 40).title).toBe("Name C, Name D, Name E, Name F, Name G, Name H, Name I, Name J and 31 more");
    expect(presentRoom(room, many.slice(0, 9), "p0", 9)).toMatchObject({ title: "Name B, Name C, Name D, Name E, Name F, Name G, Name H, Name I", memberCount: 9 });
    expect(presentRoom({ ...base, kind: "channel", name: "big" }, [], "p0", 5000)).toMatchObject({ title: "big", memberCount: 5000 });
  });
});

