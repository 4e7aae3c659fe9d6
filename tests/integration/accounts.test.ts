import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, dialects, errorCode, signUpPerson, startTestServer, type Person, type TestServer } from "./harness";

describe.each(dialects)("accounts and invites on %s", (dialect) => {
  let server: TestServer;
  let owner: Person;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.dispose());

  it("lets the first person create the workspace, as its owner, in #general", async () => {
    expect(await apiClient(server.url).workspace.firstRun.query()).toBe(true);
    owner = await signUpPerson(server, { handle: "olive" });
    const me = await owner.api.workspace.me.query();
    expect(me?.role).toBe("owner");
    expect(me?.workspace.name).toBe("Integration");
    const rooms = await owner.api.rooms.mine.query();
    expect(rooms.map((r) => r.name)).toEqual(["general"]);
    expect(await apiClient(server.url).workspace.firstRun.query()).toBe(false);
  });

  it("requires an invite after the first sign-up", async () => {
    const code = await errorCode(signUpPerson(server, { handle: "stranger" }));
    expect(code).toBe("INVITE_REQUIRED");
  });

  it("joins by an invite link an owner created, into #general, as a member", async () => {
    const { token } = await owner.api.workspace.createInvite.mutate({ role: "member", expiresInDays: 7 });
    const described = await apiClient(server.url).workspace.invite.query({ token });
    expect(described).toMatchObject({ valid: true, workspaceName: "Integration", invitedBy: "Olive" });
    const member = await signUpPerson(server, { handle: "milo", inviteToken: token });
    const me = await member.api.workspace.me.query();
    expect(me?.role).toBe("member");
    expect((await member.api.rooms.mine.query()).map((r) => r.name)).toEqual(["general"]);
    // Members cannot mint invite links.
    expect(await errorCode(member.api.workspace.createInvite.mutate({}))).toBe("FORBIDDEN");
  });

  it("refuses bad invites, taken emails and handles, and weak input with clear codes", async () => {
    expect(await apiClient(server.url).workspace.invite.query({ token: "nope" })).toEqual({ valid: false });
    expect(await errorCode(signUpPerson(server, { handle: "eve", inviteToken: "nope" }))).toBe("INVITE_INVALID");

    const { token } = await owner.api.workspace.createInvite.mutate({ maxUses: 1 });
    await signUpPerson(server, { handle: "once", inviteToken: token });
    expect(await errorCode(signUpPerson(server, { handle: "twice", inviteToken: token }))).toBe("INVITE_INVALID");

    const { token: t2 } = await owner.api.workspace.createInvite.mutate({});
    expect(await errorCode(signUpPerson(server, { handle: "olive", inviteToken: t2 }))).toBe("EMAIL_TAKEN");
    const anon = apiClient(server.url);
    expect(
      await errorCode(
        anon.workspace.signUp.mutate({ email: "x@example.test", password: "short", displayName: "X", handle: "xx", inviteToken: t2 }),
      ),
    ).toBe("INVALID_PAYLOAD");
    expect(
      await errorCode(
        anon.workspace.signUp.mutate({ email: "y@example.test", password: "long enough pw", displayName: "Y", handle: "milo", inviteToken: t2 }),
      ),
    ).toBe("NAME_TAKEN");
  });

  it("answers UNAUTHENTICATED without a session and for a forged one", async () => {
    const anon = apiClient(server.url);
    expect(await anon.workspace.me.query()).toBeNull();
    expect(await errorCode(anon.rooms.mine.query())).toBe("UNAUTHENTICATED");
    const forged = apiClient(server.url, "authjs.session-token=eyJhbGciOiJkaXIifQ..forged.token.x");
    expect(await errorCode(forged.rooms.mine.query())).toBe("UNAUTHENTICATED");
  });
});
