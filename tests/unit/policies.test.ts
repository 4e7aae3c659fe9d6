import { describe, expect, it } from "vitest";
import { a2aTaskScope, assertMayWrite, can, decide, usageScope, type Actor } from "../../server/policies";

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

describe("channel settings (room.update)", () => {
  const owner = { role: "owner" };
  const archived = room("channel", "public", { archivedAt: new Date() });
  // who, room, membership, expected: true, or the error code
  const table: [string, Actor, ReturnType<typeof room>, { role: string } | null, true | string][] = [
    ["the channel's owner", actor("member"), room("channel", "public"), owner, true],
    ["the channel's owner, an agent", actor("member", { kind: "agent" }), room("channel", "private"), owner, true],
    ["a member of it", actor("member"), room("channel", "public"), member, "FORBIDDEN"],
    ["a workspace admin outside it", actor("admin"), room("channel", "public"), null, true],
    ["the workspace's owner outside a private one", actor("owner"), room("channel", "private"), null, "ROOM_NOT_FOUND"],
    ["a workspace admin in a private one", actor("admin"), room("channel", "private"), member, true],
    ["a member outside it", actor("member"), room("channel", "public"), null, "FORBIDDEN"],
    ["an agent whose role says admin", actor("admin", { kind: "agent" }), room("channel", "public"), member, "FORBIDDEN"],
    ["the owner of a group", actor("member"), room("group", "private"), owner, "FORBIDDEN"],
    ["the owner of an archived one (to unarchive it)", actor("member"), archived, owner, true],
    ["someone of another workspace", actor("admin"), room("channel", "public", { workspaceId: "w2" }), null, "ROOM_NOT_FOUND"],
  ];
  it.each(table)("by %s", (_who, a, r, membership, expected) => {
    const decision = decide(a, "room.update", { room: r, membership });
    expect(decision === true ? true : decision.code).toBe(expected);
  });

  it("makes an archived room read-only with ROOM_ARCHIVED: no posts, joins or invitations", () => {
    expect(decide(actor("member"), "room.post", { room: archived, membership: member })).toMatchObject({ code: "ROOM_ARCHIVED" });
    expect(decide(actor("member"), "room.join", { room: archived, membership: null })).toMatchObject({ code: "ROOM_ARCHIVED" });
    expect(decide(actor("member"), "room.invite", { room: archived, membership: member })).toMatchObject({ code: "ROOM_ARCHIVED" });
    expect(can(actor("member"), "room.read", { room: archived, membership: null })).toBe(true);
  });

  it("lets people change only their own name and handle; an agent's is its owner's to change", () => {
    const self = { workspaceId: "w1", participantId: "me" };
    expect(can(actor("guest"), "profile.update", self)).toBe(true);
    expect(can(actor("owner"), "profile.update", { ...self, participantId: "other" })).toBe(false);
    expect(can(actor("member", { kind: "agent" }), "profile.update", self)).toBe(false);
    expect(decide(actor("member", { readOnly: true }), "profile.update", self)).toMatchObject({ code: "INSUFFICIENT_SCOPE" });
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
  it("lets members react to any message not deleted, agents too, in a room not archived", () => {
    expect(can(actor("guest"), "message.react", subject("other", { kind: "question" }))).toBe(true);
    expect(can(actor("member", { kind: "agent" }), "message.react", subject("other"))).toBe(true);
    expect(decide(actor("owner"), "message.react", { ...subject("other"), membership: null })).toMatchObject({ code: "NOT_A_MEMBER" });
    expect(decide(actor("owner"), "message.react", { ...subject("other"), room: room("channel", "private"), membership: null })).toMatchObject({
      code: "ROOM_NOT_FOUND",
    });
    expect(decide(actor("member"), "message.react", subject("other", { deletedAt: new Date() }))).toMatchObject({ code: "FORBIDDEN" });
    expect(decide(actor("member"), "message.react", { ...subject("other"), room: room("channel", "public", { archivedAt: new Date() }) })).toMatchObject({
      code: "ROOM_ARCHIVED",
    });
  });
  it("lets members but guests pin; a deleted message may be unpinned, not pinned", () => {
    expect(can(actor("member"), "message.pin", { ...subject("other"), pinned: true })).toBe(true);
    expect(can(actor("member", { kind: "agent" }), "message.pin", { ...subject("other"), pinned: true })).toBe(true);
    expect(can(actor("guest"), "message.pin", { ...subject("other"), pinned: true })).toBe(false);
    expect(can(actor("member"), "message.pin", { ...subject("other", { deletedAt: new Date() }), pinned: true })).toBe(false);
    expect(can(actor("member"), "message.pin", { ...subject("other", { deletedAt: new Date() }), pinned: false })).toBe(true);
    expect(can(actor("admin"), "message.pin", { ...subject("other"), membership: null, pinned: true })).toBe(false);
  });
});

describe("workspace policies", () => {
  it("lets owners and admins (people) create invite links", () => {
    expect(can(actor("owner"), "invite.create", { role: "member" })).toBe(true);
    expect(can(actor("admin"), "invite.create", { role: "member" })).toBe(true);
    expect(can(actor("member"), "invite.create", { role: "member" })).toBe(false);
    expect(can(actor("admin", { kind: "agent" }), "invite.create", { role: "member" })).toBe(false);
  });
  it("keeps guests from creating channels", () => {
    expect(can(actor("guest"), "channel.create", undefined)).toBe(false);
    expect(can(actor("member"), "channel.create", undefined)).toBe(true);
  });
});

// ---- connections ----
// A request from agent R (owned by person RO) to agent A (owned by person AO); strangers own nothing
// of it. Each row: who acts, and whether the rule lets them.
const agentActor = (id: string): Actor => ({ participantId: id, workspaceId: "w1", kind: "agent", role: "member", handle: id });
const personActor = (id: string, role: Actor["role"] = "member"): Actor => ({ participantId: id, workspaceId: "w1", kind: "human", role, handle: id });
const who: Record<string, Actor> = {
  requester: agentActor("r"),
  "requester's owner": personActor("ro"),
  addressee: agentActor("a"),
  "addressee's owner": personActor("ao"),
  "admin stranger": personActor("adm", "admin"),
  "owner stranger": personActor("own", "owner"),
  "member stranger": personActor("mem"),
  "guest stranger": personActor("gst", "guest"),
  "agent stranger": agentActor("x"),
};
const sides = { workspaceIds: ["w1"], requester: { id: "r", ownerId: "ro" }, addressee: { id: "a", ownerId: "ao" } };
const connectionRows: Record<"connection.accept" | "connection.decline" | "connection.cancel" | "connection.revoke" | "connection.unblock", string[]> = {
  // An agent never accepts for itself; its owner (or its consent policy) does.
  "connection.accept": ["addressee's owner"],
  "connection.decline": ["addressee", "addressee's owner"],
  "connection.cancel": ["requester", "requester's owner"],
  "connection.revoke": ["requester", "requester's owner", "addressee", "addressee's owner"],
  // A block's requester is the blocker: it (or whoever speaks for it) lifts it, never the blocked side.
  "connection.unblock": ["requester", "requester's owner", "admin stranger", "owner stranger"],
};

describe("connection policies", () => {
  const cases = Object.entries(connectionRows).flatMap(([action, allowed]) => Object.keys(who).map((name) => [action, name, allowed.includes(name)] as const));
  it.each(cases)("%s by the %s: %s", (action, name, expected) => {
    expect(can(who[name], action as "connection.accept", sides)).toBe(expected);
  });

  it("never lets the blocked side lift a block, even when it is an admin", () => {
    const blockedAdmin = personActor("a", "admin");
    expect(decide(blockedAdmin, "connection.unblock", { ...sides, addressee: { id: "a", ownerId: null } })).toMatchObject({ code: "FORBIDDEN" });
    const ownerOfBlocked = personActor("ao", "owner");
    expect(can(ownerOfBlocked, "connection.unblock", sides)).toBe(false);
  });

  it("refuses connection decisions across workspaces", () => {
    expect(can(who["admin stranger"], "connection.unblock", { ...sides, workspaceIds: ["w2"] })).toBe(false);
    expect(can(who["requester"], "connection.cancel", { ...sides, workspaceIds: ["w2"] })).toBe(false);
  });

  const party = (id: string, over: Partial<{ kind: string; ownerId: string | null; workspaceId: string }> = {}) => ({
    id,
    kind: "agent",
    workspaceId: "w1",
    ownerId: null,
    handle: id,
    ...over,
  });
  const blockRows: [string, string, string | true][] = [
    // actor, blocker, outcome
    ["requester", "r", true],
    ["requester's owner", "r", true],
    ["addressee", "r", "FORBIDDEN"],
    ["admin stranger", "r", "FORBIDDEN"],
    ["member stranger", "r", "FORBIDDEN"],
    ["agent stranger", "r", "FORBIDDEN"],
  ];
  it.each(blockRows)("connection.block by the %s for %s: %s", (name, blocker, outcome) => {
    const subject = { blocker: party(blocker, { ownerId: "ro" }), target: party("a", { ownerId: "ao" }) };
    const got = decide(who[name], "connection.block", subject);
    expect(got === true ? true : got.code).toBe(outcome);
  });
  it("refuses blocking oneself or someone of another workspace", () => {
    expect(decide(who.requester, "connection.block", { blocker: party("r"), target: party("r") })).toMatchObject({ code: "INVALID_PAYLOAD" });
    expect(decide(who.requester, "connection.block", { blocker: party("r"), target: party("a", { workspaceId: "w2" }) })).toMatchObject({
      code: "PARTICIPANT_NOT_FOUND",
    });
  });

  // Reaching (a DM, an invitation, a mention) and asking to connect, between `me` and `other`.
  const person = (id: string) => party(id, { kind: "human" });
  const edge = (status: string, over: object = {}) => ({ status, expiresAt: null as Date | null, scope: null as unknown, ...over });
  type Pair = {
    me: ReturnType<typeof party>;
    other: ReturnType<typeof party>;
    peopleTalkFreely: boolean;
    edge: ReturnType<typeof edge> | null;
    roomId?: string;
  };
  const reachRows: [string, Pair, string | true][] = [
    ["people who talk freely", { me: person("p"), other: person("q"), peopleTalkFreely: true, edge: null }, true],
    ["people who talk freely, one blocked the other", { me: person("p"), other: person("q"), peopleTalkFreely: true, edge: edge("blocked") }, "NOT_CONNECTED"],
    ["people without the setting", { me: person("p"), other: person("q"), peopleTalkFreely: false, edge: null }, "NOT_CONNECTED"],
    ["an owner and their agent", { me: person("p"), other: party("b", { ownerId: "p" }), peopleTalkFreely: false, edge: null }, true],
    ["an agent and its owner", { me: party("b", { ownerId: "p" }), other: person("p"), peopleTalkFreely: false, edge: null }, true],
    ["agents with an accepted connection", { me: party("b"), other: party("c"), peopleTalkFreely: true, edge: edge("accepted") }, true],
    ["agents with a pending request", { me: party("b"), other: party("c"), peopleTalkFreely: true, edge: edge("pending") }, "NOT_CONNECTED"],
    [
      "agents whose connection expired",
      { me: party("b"), other: party("c"), peopleTalkFreely: true, edge: edge("accepted", { expiresAt: new Date(Date.now() - 1000) }) },
      "NOT_CONNECTED",
    ],
    [
      "agents scoped to the room",
      { me: party("b"), other: party("c"), peopleTalkFreely: true, edge: edge("accepted", { scope: { roomIds: ["r1"] } }), roomId: "r1" },
      true,
    ],
    [
      "agents scoped to another room",
      { me: party("b"), other: party("c"), peopleTalkFreely: true, edge: edge("accepted", { scope: { roomIds: ["r1"] } }), roomId: "r2" },
      "NOT_CONNECTED",
    ],
    [
      "agents scoped to a room, for a DM",
      { me: party("b"), other: party("c"), peopleTalkFreely: true, edge: edge("accepted", { scope: { roomIds: ["r1"] } }) },
      "NOT_CONNECTED",
    ],
    [
      "someone of another workspace",
      { me: person("p"), other: { ...person("q"), workspaceId: "w2" }, peopleTalkFreely: true, edge: null },
      "PARTICIPANT_NOT_FOUND",
    ],
  ];
  it.each(reachRows.map(([name, pair, outcome]) => [name, outcome, pair] as const))("connection.reach between %s: %s", (_name, outcome, pair) => {
    const got = decide(personActor(pair.me.id), "connection.reach", pair);
    expect(got === true ? true : got.code).toBe(outcome);
  });

  const requestRows: [string, Pair, string | true][] = [
    ["agents with no edge", { me: party("b"), other: party("c"), peopleTalkFreely: true, edge: null }, true],
    [
      "agents whose connection expired",
      { me: party("b"), other: party("c"), peopleTalkFreely: true, edge: edge("accepted", { expiresAt: new Date(Date.now() - 1000) }) },
      true,
    ],
    ["a participant and itself", { me: party("b"), other: party("b"), peopleTalkFreely: true, edge: null }, "INVALID_PAYLOAD"],
    ["a blocked pair", { me: party("b"), other: party("c"), peopleTalkFreely: true, edge: edge("blocked") }, "FORBIDDEN"],
    ["people who talk freely", { me: person("p"), other: person("q"), peopleTalkFreely: true, edge: null }, "CONFLICT"],
    ["people who talk freely, one blocked the other", { me: person("p"), other: person("q"), peopleTalkFreely: true, edge: edge("blocked") }, "FORBIDDEN"],
    ["an owner and their agent", { me: person("p"), other: party("b", { ownerId: "p" }), peopleTalkFreely: false, edge: null }, "CONFLICT"],
    ["someone of another workspace", { me: party("b"), other: party("c", { workspaceId: "w2" }), peopleTalkFreely: true, edge: null }, "PARTICIPANT_NOT_FOUND"],
  ];
  it.each(requestRows.map(([name, pair, outcome]) => [name, outcome, pair] as const))("connection.request between %s: %s", (_name, outcome, pair) => {
    const got = decide(agentActor(pair.me.id), "connection.request", pair);
    expect(got === true ? true : got.code).toBe(outcome);
  });
});

describe("invite link policies", () => {
  it("lets only the owner mint admin invite links, as only the owner manages admins", () => {
    expect(can(actor("owner"), "invite.create", { role: "admin" })).toBe(true);
    expect(decide(actor("admin"), "invite.create", { role: "admin" })).toMatchObject({ code: "FORBIDDEN", message: "Only the owner manages admins" });
    expect(can(actor("admin"), "invite.create", { role: "member" })).toBe(true);
    expect(can(actor("admin"), "invite.create", { role: "guest" })).toBe(true);
    expect(can(actor("member"), "invite.create", { role: "guest" })).toBe(false);
  });
});

describe("usage policies", () => {
  const agentOwnedByMe = { workspaceId: "w1", agent: { id: "bot", ownerId: "me" } };
  const othersAgent = { workspaceId: "w1", agent: { id: "bot", ownerId: "someone" } };
  it("lets the agent, its owner and admins see an agent's usage, and nobody else", () => {
    expect(can(actor("member"), "usage.read", agentOwnedByMe)).toBe(true);
    expect(can(actor("member"), "usage.read", othersAgent)).toBe(false);
    expect(can(actor("guest"), "usage.read", othersAgent)).toBe(false);
    expect(can(actor("admin"), "usage.read", othersAgent)).toBe(true);
    expect(can(actor("member", { kind: "agent", participantId: "bot" }), "usage.read", othersAgent)).toBe(true);
    expect(can(actor("admin", { kind: "agent" }), "usage.read", othersAgent)).toBe(false);
    expect(can(actor("owner"), "usage.read", { ...othersAgent, workspaceId: "w2" })).toBe(false);
  });
  it("scopes usage queries by the same rule", () => {
    expect(usageScope(actor("owner"))).toEqual({});
    expect(usageScope(actor("admin"))).toEqual({});
    expect(usageScope(actor("member"))).toEqual({ ownerId: "me" });
    expect(usageScope(actor("member", { kind: "agent" }))).toEqual({ agentId: "me" });
  });
  it("lets only agents report usage", () => {
    expect(can(actor("member", { kind: "agent" }), "usage.report", undefined)).toBe(true);
    expect(decide(actor("owner"), "usage.report", undefined)).toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("channel browsing", () => {
  it("lists public channels to everyone who may preview them: not guests", () => {
    expect(can(actor("member"), "channel.browse", undefined)).toBe(true);
    expect(can(actor("member", { kind: "agent" }), "channel.browse", undefined)).toBe(true);
    expect(can(actor("guest"), "channel.browse", undefined)).toBe(false);
    // The same people room.read lets preview a public channel they have not joined.
    for (const role of ["owner", "admin", "member", "guest"] as const) {
      expect(can(actor(role), "channel.browse", undefined)).toBe(can(actor(role), "room.read", { room: room("channel", "public"), membership: null }));
    }
  });
});

describe("access token policies", () => {
  const DAY = 24 * 60 * 60 * 1000;
  const inDays = (days: number) => new Date(Date.now() + days * DAY);
  const expiring = inDays(7);
  // Who acts: a person signed in, through a write token (expiring in 7 days, or never), through a
  // read token, and an agent.
  const session = actor("member");
  const writeToken = actor("member", { accessToken: { id: "t1", expiresAt: expiring } });
  const lastingWriteToken = actor("member", { accessToken: { id: "t2", expiresAt: null } });
  const readToken = actor("admin", { readOnly: true, accessToken: { id: "t3", expiresAt: null } });
  const agent = actor("member", { kind: "agent" });
  const outcome = (decision: ReturnType<typeof decide>) => (decision === true ? "OK" : decision.code);

  // who, scope, expiry, outcome
  const createRows: [string, Actor, "read" | "write", Date | null, string][] = [
    ["a session", session, "write", null, "OK"],
    ["a session", session, "read", inDays(365), "OK"],
    ["a guest's session", actor("guest"), "write", null, "OK"],
    ["a lasting write token", lastingWriteToken, "write", null, "OK"],
    ["an expiring write token, expiring sooner", writeToken, "write", inDays(1), "OK"],
    ["an expiring write token, expiring at the same time", writeToken, "read", expiring, "OK"],
    ["an expiring write token, expiring later", writeToken, "write", inDays(8), "FORBIDDEN"],
    ["an expiring write token, never expiring", writeToken, "read", null, "FORBIDDEN"],
    ["a read token, a read token", readToken, "read", inDays(1), "INSUFFICIENT_SCOPE"],
    ["a read token, a write token", readToken, "write", null, "INSUFFICIENT_SCOPE"],
    ["an agent", agent, "read", inDays(1), "FORBIDDEN"],
  ];
  it.each(createRows)("access_token.create by %s: %s until %s is %s", (_who, who, scope, expiresAt, expected) => {
    expect(outcome(decide(who, "access_token.create", { scope, expiresAt }))).toBe(expected);
  });

  const mine = { workspaceId: "w1", participantId: "me" };
  const others = { workspaceId: "w1", participantId: "someone" };
  const elsewhere = { workspaceId: "w2", participantId: "me" };
  // who, the token's owner, read outcome, revoke outcome
  const manageRows: [string, Actor, typeof mine, string, string][] = [
    ["a person, their own", session, mine, "OK", "OK"],
    ["a write token, its person's", writeToken, mine, "OK", "OK"],
    ["a read token, its person's", readToken, mine, "OK", "INSUFFICIENT_SCOPE"],
    ["an owner, someone else's", actor("owner"), others, "NOT_FOUND", "NOT_FOUND"],
    ["an admin, someone else's", actor("admin"), others, "NOT_FOUND", "NOT_FOUND"],
    ["a person, another workspace's", session, elsewhere, "NOT_FOUND", "NOT_FOUND"],
    ["an agent", actor("member", { kind: "agent", participantId: "me" }), mine, "FORBIDDEN", "FORBIDDEN"],
  ];
  it.each(manageRows)("access_token.read and .revoke by %s", (_who, who, token, read, revoke) => {
    expect(outcome(decide(who, "access_token.read", token))).toBe(read);
    expect(outcome(decide(who, "access_token.revoke", token))).toBe(revoke);
  });

  it("lets a read-only actor write nothing, and everyone else through", () => {
    expect(outcome(decide(readToken, "scope.write", undefined))).toBe("INSUFFICIENT_SCOPE");
    expect(() => assertMayWrite(readToken)).toThrow(expect.objectContaining({ code: "INSUFFICIENT_SCOPE" }));
    for (const who of [session, writeToken, lastingWriteToken, agent]) expect(() => assertMayWrite(who)).not.toThrow();
  });

  it("leaves what a read-only person may read to their role", () => {
    const publicChannel = { room: room("channel", "public"), membership: null };
    expect(can(readToken, "room.read", publicChannel)).toBe(true);
    expect(can(actor("guest", { readOnly: true }), "room.read", publicChannel)).toBe(false);
  });
});

describe("notification settings", () => {
  const own = { workspaceId: "w1", participantId: "me" };
  it("are a person's own: not an admin's to read or change, not an agent's", () => {
    expect(can(actor("member"), "notifications.read", own)).toBe(true);
    expect(can(actor("member"), "notifications.configure", own)).toBe(true);
    expect(can(actor("owner"), "notifications.read", { ...own, participantId: "someone" })).toBe(false);
    expect(can(actor("owner"), "notifications.configure", { ...own, participantId: "someone" })).toBe(false);
    expect(can(actor("member", { kind: "agent" }), "notifications.read", own)).toBe(false);
  });
  it("read with a read-only token, and are changed only with a write one", () => {
    expect(can(actor("member", { readOnly: true }), "notifications.read", own)).toBe(true);
    expect(decide(actor("member", { readOnly: true }), "notifications.configure", own)).toMatchObject({ code: "INSUFFICIENT_SCOPE" });
  });
});

describe("the workspace's work statuses and component map", () => {
  it("are every member's (guests and agents included) to read, and nobody's outside the workspace", () => {
    for (const role of ["owner", "member", "guest"] as const) expect(can(actor(role), "work.read_workspace", { workspaceId: "w1" })).toBe(true);
    expect(can(actor("member", { kind: "agent" }), "work.read_workspace", { workspaceId: "w1" })).toBe(true);
    expect(decide(actor("owner"), "work.read_workspace", { workspaceId: "w2" })).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("A2A calls and tasks", () => {
  it("call an agent of the caller's own workspace, never another's or the caller itself", () => {
    const agent = actor("member", { kind: "agent" });
    expect(can(agent, "a2a.call", { agent: { id: "helper", workspaceId: "w1" } })).toBe(true);
    expect(decide(agent, "a2a.call", { agent: { id: "helper", workspaceId: "w2" } })).toMatchObject({ code: "PARTICIPANT_NOT_FOUND" });
    expect(decide(agent, "a2a.call", { agent: { id: "me", workspaceId: "w1" } })).toMatchObject({ code: "FORBIDDEN" });
  });
  it("are read by their caller alone, with the agent it called: an owner of the workspace gets NOT_FOUND", () => {
    const task = { workspaceId: "w1", callerId: "me", agentId: "helper" };
    expect(can(actor("member"), "a2a.task.read", task)).toBe(true);
    expect(can(actor("member"), "a2a.task.read", { ...task, calledAgentId: "helper" })).toBe(true);
    expect(decide(actor("member"), "a2a.task.read", { ...task, calledAgentId: "other" })).toMatchObject({ code: "NOT_FOUND" });
    expect(decide(actor("owner", { participantId: "boss" }), "a2a.task.read", task)).toMatchObject({ code: "NOT_FOUND" });
    expect(decide(actor("member", { workspaceId: "w2" }), "a2a.task.read", task)).toMatchObject({ code: "NOT_FOUND" });
  });
  it("filter task lists to the caller's own, in its workspace", () => {
    expect(a2aTaskScope(actor("member"))).toEqual({ workspaceId: "w1", callerId: "me" });
  });
});

describe("steering agents in a room: Stop, pause, resume (agent.steer), and who runs turns", () => {
  const agentOf = (ownerId: string | null) => ({ id: "scout", ownerId });
  // role, kind, owns the agent, room lets members stop, in the room, expected
  const table: [Actor["role"], Actor["kind"], boolean, boolean, boolean, "OK" | "FORBIDDEN"][] = [
    ["owner", "human", false, false, false, "OK"], // the workspace's owner and admins, always
    ["admin", "human", false, false, false, "OK"],
    ["member", "human", true, false, false, "OK"], // the agent's owner, always
    ["guest", "human", true, false, true, "OK"],
    ["member", "human", false, false, true, "FORBIDDEN"], // a member, unless the room says so
    ["member", "human", false, true, true, "OK"],
    ["guest", "human", false, true, true, "OK"],
    ["member", "human", false, true, false, "FORBIDDEN"], // the setting is for the room's members
    ["guest", "human", false, false, true, "FORBIDDEN"],
    ["member", "agent", false, true, true, "FORBIDDEN"], // agents never, not even their own kind's owner
    ["admin", "agent", false, true, true, "FORBIDDEN"],
  ];
  it.each(table)("%s (%s), owner %s, members may stop %s, in the room %s: %s", (role, kind, owns, membersMayStop, inRoom, expected) => {
    const decision = decide(actor(role, { kind }), "agent.steer", {
      agent: agentOf(owns ? "me" : "dana"),
      membersMayStop,
      member: inRoom,
      roomWorkspaceId: "w1",
    });
    expect(decision === true ? "OK" : decision.code).toBe(expected);
  });
  it("gives an admin no steering in a room shared from another workspace: there they are a member like any other", () => {
    const steer = (membersMayStop: boolean) =>
      decide(actor("admin"), "agent.steer", { agent: agentOf("dana"), membersMayStop, member: true, roomWorkspaceId: "w2" });
    expect(steer(false)).toMatchObject({ code: "FORBIDDEN" });
    expect(steer(true)).toBe(true);
  });
  it("only the agent itself starts, reports and ends its turns; only a room's owner or an admin says whether members may stop them", () => {
    expect(can(actor("member", { kind: "agent", participantId: "scout" }), "turn.run", { agentId: "scout" })).toBe(true);
    expect(decide(actor("member", { kind: "agent", participantId: "pilot" }), "turn.run", { agentId: "scout" })).toMatchObject({ code: "FORBIDDEN" });
    expect(decide(actor("owner"), "turn.run", { agentId: "scout" })).toMatchObject({ code: "FORBIDDEN" });
    const channel = room("channel", "public");
    expect(can(actor("admin"), "room.configure", { room: channel, membership: null })).toBe(true);
    expect(can(actor("member"), "room.configure", { room: channel, membership: { role: "owner" } })).toBe(true);
    expect(decide(actor("member"), "room.configure", { room: channel, membership: member })).toMatchObject({ code: "FORBIDDEN" });
    expect(decide(actor("admin", { kind: "agent" }), "room.configure", { room: channel, membership: { role: "owner" } })).toMatchObject({ code: "FORBIDDEN" });
  });
});
