import { describe, expect, it } from "vitest";
import { countsAsUnread } from "@switchboard/sdk/contract";
import { presentRoom, roomCan } from "../../server/presenters/room";

const base = { id: "r", visibility: "private" as const, name: null, topic: "", lastSeq: 3 };
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
    const room = { ...base, kind: "group" as const };
    // The viewer among the members read: eight others named, the rest counted.
    expect(presentRoom(room, many.slice(0, 9), "p0", 40).title).toBe("Name B, Name C, Name D, Name E, Name F, Name G, Name H, Name I and 31 more");
    // The viewer joined later: the first eight others named.
    expect(presentRoom(room, many.slice(0, 9), "late", 40).title).toBe("Name C, Name D, Name E, Name F, Name G, Name H, Name I, Name J and 31 more");
    expect(presentRoom(room, many.slice(0, 9), "p0", 9)).toMatchObject({
      title: "Name B, Name C, Name D, Name E, Name F, Name G, Name H, Name I",
      memberCount: 9,
    });
    expect(presentRoom({ ...base, kind: "channel", name: "big" }, [], "p0", 5000)).toMatchObject({ title: "big", memberCount: 5000 });
  });
});

describe("a room's can flags", () => {
  const viewer = (role: "owner" | "admin" | "member" | "guest") => ({ participantId: "me", workspaceId: "w1", kind: "human" as const, role, handle: "me" });
  const channel = { workspaceId: "w1", kind: "channel", visibility: "public", archivedAt: null };
  it("lets owners and admins delete others' messages, and everyone their own", () => {
    const member = { role: "member" };
    expect(roomCan(viewer("admin"), { room: channel, membership: member })).toMatchObject({ post: true, deleteOwn: true, editOwn: true, deleteOthers: true });
    expect(roomCan(viewer("owner"), { room: channel, membership: member }).deleteOthers).toBe(true);
    expect(roomCan(viewer("member"), { room: channel, membership: member })).toMatchObject({
      post: true,
      deleteOwn: true,
      deleteOthers: false,
      leave: true,
      invite: true,
      join: false,
    });
    expect(roomCan(viewer("guest"), { room: channel, membership: member })).toMatchObject({ post: true, invite: false });
  });
  it("offers a public channel's previewer a way in, and nothing else", () => {
    expect(roomCan(viewer("member"), { room: channel, membership: null })).toEqual({
      post: false,
      join: true,
      invite: false,
      leave: false,
      editOwn: false,
      deleteOwn: false,
      deleteOthers: false,
      react: false,
      pin: false,
      markUnread: false,
      update: false,
    });
    expect(roomCan(viewer("admin"), { room: { ...channel, kind: "dm", visibility: "private" }, membership: { role: "member" } })).toMatchObject({
      leave: false,
      invite: false,
    });
  });
});

describe("what counts as unread", () => {
  const message = {
    kind: "text" as const,
    threadRootId: null,
    deletedAt: null,
    author: { id: "them", handle: "them", displayName: "Them", kind: "human" as const },
  };
  it("is someone else's top-level text message that is not deleted", () => {
    expect(countsAsUnread(message, "me")).toBe(true);
    expect(countsAsUnread(message, "them")).toBe(false);
    expect(countsAsUnread({ ...message, deletedAt: "2026-12-01T00:00:00.000Z" }, "me")).toBe(false);
    expect(countsAsUnread({ ...message, threadRootId: "root" }, "me")).toBe(false);
    expect(countsAsUnread({ ...message, kind: "event" }, "me")).toBe(false);
  });
});
