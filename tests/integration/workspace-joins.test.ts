// One account in several workspaces: a signed-in account joins another workspace by an invite link (a
// person of its own there, the invite's use counted), creates another where sign-up is open, and lists
// its workspaces with what is unread in each.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkspace, type Workspace } from "./factories";
import { apiClient, closeSockets, collect, dialects, errorCode, queryDb, sqlDate, waitFor, type Person, type TestServer } from "./harness";

const usesOf = async (server: TestServer, inviteId: string) =>
  Number((await queryDb<{ uses: number | string }>(server, `SELECT uses FROM "Invite" WHERE id = $1`, [inviteId]))[0].uses);

const generalOf = async (who: Person) => (await who.api.rooms.mine.query()).find((r) => r.name === "general")!;
const say = (who: Person, roomId: string, body: string) => who.api.messages.send.mutate({ roomId, body, clientMsgId: randomUUID() });

describe.each(dialects)("an account in several workspaces on %s", (dialect) => {
  let a: Workspace<"ada" | "bob">;
  let b: Workspace<"cleo" | "dan">;
  let ada: Person;
  let bob: Person;
  let cleo: Person;
  let dan: Person;
  let aId: string;
  let bId: string;

  beforeAll(async () => {
    // Two workspaces on the worker's shared server (WORKSPACE_SIGNUP=open); one after the other, since
    // the first use of the shared server starts it, and two at once would each start one.
    a = await startWorkspace(dialect, { people: { ada: "owner", bob: "member" } });
    b = await startWorkspace(dialect, { people: { cleo: "owner", dan: "member" } });
    expect(b.server.url).toBe(a.server.url);
    ({ ada, bob } = a.people);
    ({ cleo, dan } = b.people);
    aId = (await ada.api.workspace.me.query())!.workspace.id;
    bId = (await cleo.api.workspace.me.query())!.workspace.id;
  });
  afterAll(() => closeSockets());

  it("joins an existing account to another workspace by an invite: a second membership with its own person, the use counted, once", async () => {
    const invite = await cleo.api.workspace.createInvite.mutate({ role: "admin", maxUses: 5 });
    const seen = collect(await cleo.socket(), "room:members");
    const joined = await ada.api.workspaces.joinByInvite.mutate({ token: invite.token, handle: "ada", displayName: "Ada in B" });
    expect(joined.workspaceId).toBe(bId);
    expect(joined.participantId).not.toBe(ada.participantId);
    expect(await usesOf(b.server, invite.id)).toBe(1);

    const mine = await ada.api.workspaces.mine.query();
    expect(mine.map((w) => [w.id, w.role, w.participantId, w.handle])).toEqual([
      [aId, "owner", ada.participantId, "ada"],
      [bId, "admin", joined.participantId, "ada"],
    ]);
    expect(mine[1].displayName).toBe("Ada in B");

    // In B's #general, and known to B's invite list as joined through that link.
    const general = await generalOf(cleo);
    const members = await cleo.api.rooms.members.query({ roomId: general.id });
    expect(members.map((m) => m.participant.id)).toContain(joined.participantId);
    await waitFor(() => seen.some((e) => e.roomId === general.id && e.joined.includes(joined.participantId)), 10_000, "the join announced in #general");
    const links = await cleo.api.workspace.invites.query();
    expect(links.find((l) => l.id === invite.id)!.joined.map((p) => p.id)).toEqual([joined.participantId]);
    // Her session still acts in her first workspace.
    expect((await ada.api.workspace.me.query())!.workspace.id).toBe(aId);

    expect(await errorCode(ada.api.workspaces.joinByInvite.mutate({ token: invite.token, handle: "ada2", displayName: "Ada" }))).toBe("ALREADY_MEMBER");
    expect(await usesOf(b.server, invite.id)).toBe(1);
    expect((await ada.api.workspaces.mine.query()).length).toBe(2);
  });

  it("refuses a handle taken there, and an expired or revoked invite, claiming no use", async () => {
    const invite = await cleo.api.workspace.createInvite.mutate({ maxUses: 5 });
    expect(await errorCode(bob.api.workspaces.joinByInvite.mutate({ token: invite.token, handle: "dan", displayName: "Bob" }))).toBe("NAME_TAKEN");
    expect(await usesOf(b.server, invite.id)).toBe(0);

    await cleo.api.workspace.revokeInvite.mutate({ inviteId: invite.id });
    expect(await errorCode(bob.api.workspaces.joinByInvite.mutate({ token: invite.token, handle: "bob", displayName: "Bob" }))).toBe("INVITE_INVALID");

    const expired = await cleo.api.workspace.createInvite.mutate({ maxUses: 5 });
    await queryDb(b.server, `UPDATE "Invite" SET "expiresAt" = $1 WHERE id = $2`, [sqlDate(dialect, new Date(Date.now() - 60_000)), expired.id]);
    expect(await errorCode(bob.api.workspaces.joinByInvite.mutate({ token: expired.token, handle: "bob", displayName: "Bob" }))).toBe("INVITE_INVALID");
    expect(await errorCode(bob.api.workspaces.joinByInvite.mutate({ token: "no-such-invite", handle: "bob", displayName: "Bob" }))).toBe("INVITE_INVALID");
    expect(await usesOf(b.server, expired.id)).toBe(0);
    expect((await bob.api.workspaces.mine.query()).map((w) => w.id)).toEqual([aId]);
  });

  it("creates another workspace the account owns, with #general, where sign-up is open", async () => {
    const created = await dan.api.workspaces.create.mutate({ name: "Dan's lab", handle: "dan", displayName: "Dan" });
    const mine = await dan.api.workspaces.mine.query();
    expect(mine.map((w) => [w.id, w.name, w.role, w.participantId])).toEqual([
      [bId, "Integration", "member", dan.participantId],
      [created.workspaceId, "Dan's lab", "owner", created.participantId],
    ]);
    const rooms = await queryDb<{ name: string }>(b.server, `SELECT name FROM "Room" WHERE "workspaceId" = $1`, [created.workspaceId]);
    expect(rooms.map((r) => r.name)).toEqual(["general"]);
    const audit = await queryDb<{ action: string }>(b.server, `SELECT action FROM "AuditEvent" WHERE "workspaceId" = $1`, [created.workspaceId]);
    expect(audit.map((e) => e.action)).toContain("workspace.created");
  });

  it("counts each workspace's unread messages and mentions, as the sidebar counts them", async () => {
    // Ada is in A (as ada) and in B (joined above): Bob writes in A, Cleo in B, one message mentioning her there.
    const [generalA, generalB] = await Promise.all([generalOf(ada), generalOf(cleo)]);
    const before = await ada.api.workspaces.mine.query();
    // Her browser shows A; a mention in B tells it at once (the rail counts B again), nothing else does.
    const activity = collect(await ada.socket(), "workspace:activity");
    const bobs = collect(await bob.socket(), "workspace:activity");
    // Her own message is not unread (and moves her read cursor past what came before it).
    await say(ada, generalA.id, "my own: not unread");
    await say(bob, generalA.id, "one");
    await say(bob, generalA.id, "two");
    await say(bob, generalA.id, "three");
    await say(cleo, generalB.id, "hello B");
    await say(cleo, generalB.id, "@ada welcome");

    await waitFor(() => activity.length > 0, 10_000, "workspace:activity on Ada's socket in A");
    expect(activity).toEqual([{ workspaceId: bId }]);
    expect(bobs).toEqual([]);
    const after = await ada.api.workspaces.mine.query();
    expect(after.map((w) => [w.id, w.unread - before.find((x) => x.id === w.id)!.unread, w.mentions])).toEqual([
      [aId, 3, 0],
      [bId, 2, 1],
    ]);
    // Her first workspace's total is the sum of its sidebar's counts.
    const sidebar = await ada.api.rooms.mine.query();
    expect(after[0].unread).toBe(sidebar.reduce((n, r) => n + r.unread, 0));

    // Reading A's #general clears A's count and leaves B's.
    await ada.api.messages.markRead.mutate({ roomId: generalA.id, seq: (await ada.api.rooms.get.query({ roomId: generalA.id })).lastSeq });
    const read = await ada.api.workspaces.mine.query();
    expect(read.map((w) => [w.unread, w.mentions])).toEqual([
      [0, 0],
      [after[1].unread, 1],
    ]);
  });

  it("leaves out a workspace where the account's person is suspended; a token sees its own workspace alone; signed out, nothing", async () => {
    const { token } = await ada.api.tokens.create.mutate({ name: "script", scope: "write" });
    const byToken = apiClient(a.server.url, undefined, { authorization: `Bearer ${token}` });
    expect((await byToken.workspaces.mine.query()).map((w) => w.id)).toEqual([aId]);
    expect(await errorCode(byToken.workspaces.create.mutate({ name: "Nope", handle: "ada", displayName: "Ada" }))).toBe("FORBIDDEN");
    expect(await errorCode(apiClient(a.server.url).workspaces.mine.query())).toBe("UNAUTHENTICATED");

    const inB = (await ada.api.workspaces.mine.query()).find((w) => w.id === bId)!;
    await queryDb(b.server, `UPDATE "Participant" SET status = 'suspended' WHERE id = $1`, [inB.participantId]);
    try {
      expect((await ada.api.workspaces.mine.query()).map((w) => w.id)).toEqual([aId]);
    } finally {
      await queryDb(b.server, `UPDATE "Participant" SET status = 'active' WHERE id = $1`, [inB.participantId]);
    }
  });
});
