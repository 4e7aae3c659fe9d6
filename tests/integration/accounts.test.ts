import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiClient, dialects, errorCode, queryDb, signUpPerson, startTestServer, waitFor, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

const PASSWORD = "correct horse battery"; // what signUpPerson sets

/**
 * Signs in exactly as the browser's sign-in form does (next-auth/react `signIn`, redirect: false): a
 * CSRF token from Auth.js, then the credentials callback. The answer names an error and a code in
 * its URL; a session cookie means signed in.
 */
async function browserSignIn(baseUrl: string, email: string, password: string, headers: Record<string, string> = {}) {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: {
      ...headers,
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Auth-Return-Redirect": "1",
      cookie: csrf.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; "),
    },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${baseUrl}/` }),
  });
  const { url } = (await response.json()) as { url: string };
  const query = new URL(url).searchParams;
  const session = response.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="));
  return { session: session?.split(";")[0] ?? null, error: query.get("error"), code: query.get("code") };
}

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
    expect(await errorCode(signUpPerson(server, { handle: "olivia", email: owner.email, inviteToken: t2 }))).toBe("EMAIL_TAKEN");
    const anon = apiClient(server.url);
    expect(await errorCode(anon.workspace.signUp.mutate({ email: "x@example.test", password: "short", displayName: "X", handle: "xx", inviteToken: t2 }))).toBe(
      "INVALID_PAYLOAD",
    );
    expect(
      await errorCode(anon.workspace.signUp.mutate({ email: "y@example.test", password: "long enough pw", displayName: "Y", handle: "milo", inviteToken: t2 })),
    ).toBe("NAME_TAKEN");
  });

  it("gives a link's last use to exactly one of several people signing up at once", async () => {
    const { token } = await owner.api.workspace.createInvite.mutate({ maxUses: 2 });
    const anon = apiClient(server.url);
    const attempts = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        anon.workspace.signUp.mutate({
          email: `rush${i}@example.test`,
          password: "correct horse battery",
          displayName: `Rush ${i}`,
          handle: `rush${i}`,
          inviteToken: token,
        }),
      ),
    );
    expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(2);
    for (const failed of attempts.filter((a) => a.status === "rejected")) expect(await errorCode(Promise.reject(failed.reason))).toBe("INVITE_INVALID");
    const [invite] = await queryDb<{ uses: number }>(server, `SELECT uses FROM "Invite" WHERE "maxUses" = 2 ORDER BY "createdAt" DESC LIMIT 1`);
    expect(Number(invite.uses)).toBe(2);
  });

  it("refuses the owner another workspace where sign-up is invite-only (the default), saying so", async () => {
    const refused = owner.api.workspaces.create.mutate({ name: "Second", handle: "olive", displayName: "Olive" });
    expect(await errorCode(refused)).toBe("FORBIDDEN");
    await expect(owner.api.workspaces.create.mutate({ name: "Second", handle: "olive", displayName: "Olive" })).rejects.toThrow(/only by invite/);
    expect((await owner.api.workspaces.mine.query()).length).toBe(1);
  });

  it("answers UNAUTHENTICATED without a session and for a forged one", async () => {
    const anon = apiClient(server.url);
    expect(await anon.workspace.me.query()).toBeNull();
    expect(await errorCode(anon.rooms.mine.query())).toBe("UNAUTHENTICATED");
    const forged = apiClient(server.url, "authjs.session-token=eyJhbGciOiJkaXIifQ..forged.token.x");
    expect(await errorCode(forged.rooms.mine.query())).toBe("UNAUTHENTICATED");
  });
});

// An operator's choice, the same on both databases: one dialect is enough.
describe("sign-up open to new workspaces (WORKSPACE_SIGNUP=open)", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialects[0], { WORKSPACE_SIGNUP: "open" });
  });
  afterAll(() => server.dispose());

  it("gives everyone who signs up without an invite a workspace of their own, which nobody else sees into", async () => {
    const anon = apiClient(server.url);
    expect(await anon.workspace.signUpOptions.query()).toEqual({ firstRun: true, mayCreate: true });
    const ana = await signUpPerson(server, { handle: "ana" });
    expect(await anon.workspace.signUpOptions.query()).toEqual({ firstRun: false, mayCreate: true });
    const bo = await signUpPerson(server, { handle: "bo" });
    const [anaMe, boMe] = await Promise.all([ana.api.workspace.me.query(), bo.api.workspace.me.query()]);
    expect([anaMe?.role, boMe?.role]).toEqual(["owner", "owner"]);
    expect(anaMe?.workspace.id).not.toBe(boMe?.workspace.id);

    // The same handle in two workspaces is two people; an invite joins its own workspace only.
    const { token } = await ana.api.workspace.createInvite.mutate({});
    const cy = await signUpPerson(server, { handle: "cy", inviteToken: token });
    const boCy = await signUpPerson(server, { handle: "cy" });
    expect((await cy.api.workspace.me.query())?.workspace.id).toBe(anaMe?.workspace.id);
    expect((await boCy.api.workspace.me.query())?.role).toBe("owner");
    const handles = async (who: Person) => (await who.api.workspace.participants.query()).map((p) => p.handle).sort();
    expect(await handles(ana)).toEqual(["ana", "cy"]);
    expect(await handles(bo)).toEqual(["bo"]);

    // Each has a #general of its own, and another workspace's is not there for them.
    const [anaGeneral] = await ana.api.rooms.mine.query();
    const [boGeneral] = await bo.api.rooms.mine.query();
    expect([anaGeneral.name, boGeneral.name]).toEqual(["general", "general"]);
    expect(anaGeneral.id).not.toBe(boGeneral.id);
    await ana.api.messages.send.mutate({ roomId: anaGeneral.id, body: "ana's only", clientMsgId: "c1" });
    expect(await errorCode(bo.api.messages.history.query({ roomId: anaGeneral.id }))).toBe("ROOM_NOT_FOUND");
  });
});

// Auth.js runs inside Next.js, so this server serves the pages too (in development mode: no build
// needed). The limit lives in the process (or Redis), not in the database: one dialect is enough.
// The server trusts one proxy, so a test can sign in from an address of its own (X-Forwarded-For).
// The limits' tests sign in twenty to sixty times in turn, each attempt hashing a password (unknown
// emails too, to take the same time), on a development server: a few seconds on a quiet machine, more
// than a minute on one busy with the rest of the suite. What is checked is the limits, not the speed.
// (vi.setConfig holds for the whole file.)
vi.setConfig({ testTimeout: 180_000 });

describe("sign-in limits over HTTP, as a browser signs in", () => {
  let server: TestServer;
  let sam: Person;
  let tess: Person;

  beforeAll(async () => {
    ({
      server,
      people: { sam, tess },
    } = await startWorkspace(dialects[0], {
      people: { owner: "owner", sam: "member", tess: "member" },
      env: { SWITCHBOARD_API_ONLY: "0", NODE_ENV: "development", TRUST_PROXY: "1" },
    }));
  });
  afterAll(() => server?.dispose());

  it("blocks an email after 10 wrong passwords, the right one too, with a clear code; others and successes are untouched", async () => {
    const signIn = (who: Person, password: string, email = who.email) => browserSignIn(server.url, email, password);

    // The session the browser gets is a real one.
    const first = await signIn(sam, PASSWORD);
    expect(first).toMatchObject({ error: null, code: null });
    expect((await apiClient(server.url, first.session!).workspace.me.query())?.me.handle).toBe("sam");

    // Successful sign-ins never count: twelve in a row, then nine failures, still not blocked.
    for (let i = 0; i < 11; i++) expect((await signIn(sam, PASSWORD)).session).not.toBeNull();
    for (let i = 0; i < 9; i++) expect(await signIn(sam, `wrong-${i}`)).toMatchObject({ session: null, error: "CredentialsSignin", code: "credentials" });
    expect((await signIn(sam, PASSWORD)).session).not.toBeNull();

    // The tenth failure blocks the email: now the right password is refused too, saying why.
    expect(await signIn(sam, "wrong-9")).toMatchObject({ session: null, code: "credentials" });
    expect(await signIn(sam, PASSWORD)).toEqual({ session: null, error: "CredentialsSignin", code: "rate_limited" });
    expect(await signIn(sam, PASSWORD, sam.email.toUpperCase())).toMatchObject({ session: null, code: "rate_limited" });

    // Another email is unaffected, before and after its own mistakes.
    expect((await signIn(tess, PASSWORD)).session).not.toBeNull();
    expect(await signIn(tess, "oops")).toMatchObject({ session: null, code: "credentials" });
    expect((await signIn(tess, PASSWORD)).session).not.toBeNull();
  });

  it("audits the address a sign-in came from, never one the client names itself", async () => {
    const from = { "X-Forwarded-For": "203.0.113.9", "X-Switchboard-Client-Address": "198.51.100.66" };
    expect((await browserSignIn(server.url, tess.email, PASSWORD, from)).session).not.toBeNull();
    expect((await browserSignIn(server.url, tess.email, "wrong", from)).session).toBeNull();
    const audited = () =>
      queryDb<{ action: string; address: string | null }>(
        server,
        `SELECT action, address FROM "AuditEvent" WHERE action LIKE 'auth.%' AND address = '203.0.113.9' ORDER BY seq`,
      );
    let rows: { action: string; address: string | null }[] = [];
    await waitFor(
      () => rows.length === 2,
      10_000,
      "both sign-ins audited",
      async () => void (rows = await audited()),
    );
    expect(rows.map((r) => r.action)).toEqual(["auth.signin", "auth.signin_failed"]);
    expect(await queryDb(server, `SELECT seq FROM "AuditEvent" WHERE address = '198.51.100.66'`)).toEqual([]);
  });

  it("refuses an address's 61st attempt in 10 minutes, whatever the emails, the right password too; other addresses go on", async () => {
    const from = (address: string) => ({ "X-Forwarded-For": address });
    for (let i = 0; i < 60; i++) {
      expect(await browserSignIn(server.url, `nobody-${i}@example.test`, "guess", from("10.5.0.1"))).toMatchObject({ session: null, code: "credentials" });
    }
    expect(await browserSignIn(server.url, tess.email, PASSWORD, from("10.5.0.1"))).toEqual({
      session: null,
      error: "CredentialsSignin",
      code: "rate_limited",
    });
    expect((await browserSignIn(server.url, tess.email, PASSWORD, from("10.5.0.2"))).session).not.toBeNull();
  });
});
