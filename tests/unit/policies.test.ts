import { describe, expect, it } from "vitest";
import { can, type Actor } from "../../server/policies";

const actor = (role: Actor["role"], over: Partial<Actor> = {}): Actor => ({
  participantId: "me",
  workspaceId: "w1",
  kind: "human",
  role,
  handle: "me",
  ...over,
});
const room = (kind: string, visibility: string, over: object = {}) => ({
  workspaceId: "w1",
  kind,
  visibility,
  archivedAt: null as Date | null,
  ...over,
});
const member = { role: "member" };

describe("room policies", () => {
  // action, role, room, membership, expected
  const table: [Parameters<typeof can>[1], Actor["role"], ReturnType<typeof room>, typeof member | null, boolean][] = [
    ["room.read", "member", room("channel", "public"), null, true],
    ["room.read", "guest", room("channel", "public"), null, false],
    ["room.read", "member", room("channel", "private"), null, false],
    ["room.read", "owner", room("channel", "private"), null, false],
    ["room.read", "guest", room("channel", "private"), member, true],
    ["room.read", "member", room("channel", "public", { workspaceId: "w2" }), null, false],
    ["room.post", "member", room("channel", "public"), null, false],
    ["room.post", "member", room("channel", "public"), member, true],
    ["room.post", "member", room("channel", "public", { archivedAt: new Date() }), member, false],
    ["room.join", "member", room("channel", "public"), null, true],
    ["room.join", "guest", room("channel", "public"), null, false],
    ["room.join", "admin", room("channel", "private"), null, false],
    ["room.join", "member", room("dm", "private"), null, false],
    ["room.invite", "member", room("channel", "private"), member, true],
    ["room.invite", "member", room("channel", "private"), null, false],
    ["room.invite", "guest", room("channel", "public"), member, false],
    ["room.invite", "member", room("dm", "private"), member, false],
    ["room.invite", "member", room("group", "private"), member, true],
    ["room.leave", "member", room("dm", "private"), member, false],
    ["room.leave", "member", room("group", "private"), member, true],
  ];
  it.each(table)("%s by %s", (action, role, r, membership, expected) => {
    expect(can(actor(role), action as "room.read", { room: r, membership })).toBe(expected);
  });
});

describe("message policies", () => {
  const subject = (authorId: string, over: object = {}) => ({
    room: room("channel", "public"),
    membership: member,
    message: { authorId, kind: "text", deletedAt: null as Date | null, ...over },
  });
  it("lets only the author edit, and not events or deleted messages", () => {
    expect(can(actor("member"), "message.edit", subject("me"))).toBe(true);
    expect(can(actor("owner"), "message.edit", subject("other"))).toBe(false);
    expect(can(actor("member"), "message.edit", subject("me", { kind: "event" }))).toBe(false);
    expect(can(actor("member"), "message.edit", subject("me", { deletedAt: new Date() }))).toBe(false);
  });
  it("lets the author or an admin delete", () => {
    expect(can(actor("member"), "message.delete", subject("me"))).toBe(true);
    expect(can(actor("member"), "message.delete", subject("other"))).toBe(false);
    expect(can(actor("admin"), "message.delete", subject("other"))).toBe(true);
    expect(can(actor("admin"), "message.delete", { ...subject("other"), membership: null })).toBe(false);
  });
});

describe("workspace policies", () => {
  it("lets owners and admins (people) create invite links", () => {
    expect(can(actor("owner"), "invite.create", undefined)).toBe(true);
    expect(can(actor("admin"), "invite.create", undefined)).toBe(true);
    expect(can(actor("member"), "invite.create", undefined)).toBe(false);
    expect(can(actor("admin", { kind: "agent" }), "invite.create", undefined)).toBe(false);
  });
  it("keeps guests from creating channels", () => {
    expect(can(actor("guest"), "channel.create", undefined)).toBe(false);
    expect(can(actor("member"), "channel.create", undefined)).toBe(true);
  });
});
