// Sign-up under pressure: first sign-ups racing for the workspace, and the per-address limit (which a
// usable invite is not counted against: its own uses and expiry bound those sign-ups).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, queryDb, signUpPerson, startTestServer, type Person, type TestServer } from "./harness";

/** A sign-up over tRPC's HTTP form, optionally through a proxy that says who the client is. */
async function signUpFrom(url: string, input: Record<string, unknown>, forwardedFor?: string): Promise<string> {
  const response = await fetch(`${url}/api/trpc/workspace.signUp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(forwardedFor ? { "X-Forwarded-For": forwardedFor } : {}) },
    body: JSON.stringify({ json: input }),
  });
  const body = (await response.json()) as { error?: { json: { data: { app: { code: string } } } } };
  return body.error ? body.error.json.data.app.code : "OK";
}

let n = 0;
const person = (extra: Record<string, unknown> = {}) => {
  const id = `p${++n}`;
  return { email: `${id}@example.test`, password: "correct horse battery", displayName: id, handle: id, workspaceName: "Race", ...extra };
};

describe.each(dialects)("first sign-ups on %s", (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server?.dispose());

  it("creates one workspace when several people sign up first at the same moment", async () => {
    const codes = await Promise.all(Array.from({ length: 10 }, () => signUpFrom(server.url, person())));
    expect(codes.filter((c) => c === "OK")).toHaveLength(1);
    expect(codes.filter((c) => c !== "OK")).toEqual(Array(9).fill("INVITE_REQUIRED"));
    const [{ count }] = await queryDb<{ count: number | string }>(server, `SELECT COUNT(*) AS count FROM "Workspace"`);
    expect(Number(count)).toBe(1);
    const [{ accounts }] = await queryDb<{ accounts: number | string }>(server, `SELECT COUNT(*) AS accounts FROM "Account"`);
    expect(Number(accounts)).toBe(1);
  });
});

/** How many accounts the server's database holds, and how many uses of an invite were claimed. */
const accounts = async (server: TestServer) => Number((await queryDb<{ n: number | string }>(server, `SELECT COUNT(*) AS n FROM "Account"`))[0].n);
const usesOf = async (server: TestServer, inviteId: string) =>
  Number((await queryDb<{ uses: number | string }>(server, `SELECT uses FROM "Invite" WHERE id = $1`, [inviteId]))[0].uses);

// The limit lives in the process (or Redis), not in the database: one dialect is enough.
describe("sign-ups per address", () => {
  let direct: TestServer;
  let proxied: TestServer;
  let configured: TestServer;
  let owner: Person;

  beforeAll(async () => {
    [direct, proxied, configured] = await Promise.all([
      startTestServer(dialects[0]),
      startTestServer(dialects[0], { TRUST_PROXY: "1" }),
      startTestServer(dialects[0], { TRUST_PROXY: "1", SIGNUPS_PER_ADDRESS_PER_HOUR: "3" }),
    ]);
    expect(await signUpFrom(direct.url, person(), "10.9.9.9")).toBe("OK");
    expect(await signUpFrom(configured.url, person(), "10.9.9.9")).toBe("OK");
    owner = await signUpPerson(proxied, { handle: "owner", address: "10.9.9.9" });
  });
  afterAll(() => Promise.all([direct?.dispose(), proxied?.dispose(), configured?.dispose()]));

  it("refuses an address's 21st attempt in an hour, whatever the outcome of the others; other addresses go on", async () => {
    // The first sign-up above came from 10.9.9.9; 20 more attempts from 10.0.0.1 (invite-only now).
    for (let i = 0; i < 20; i++) expect(await signUpFrom(proxied.url, person(), "10.0.0.1")).toBe("INVITE_REQUIRED");
    expect(await signUpFrom(proxied.url, person(), "10.0.0.1")).toBe("RATE_LIMITED");
    // What the client wrote left of the proxy's entry is not believed.
    expect(await signUpFrom(proxied.url, person(), "10.0.0.2, 10.0.0.1")).toBe("RATE_LIMITED");
    expect(await signUpFrom(proxied.url, person(), "10.0.0.2")).toBe("INVITE_REQUIRED");
    expect(await signUpFrom(proxied.url, person({ inviteToken: "no-such-invite" }), "10.0.0.3")).toBe("INVITE_INVALID");
  });

  it("ignores X-Forwarded-For unless TRUST_PROXY says a proxy wrote it", async () => {
    // The first sign-up counted for 127.0.0.1 already, whatever it claimed.
    for (let i = 0; i < 19; i++) expect(await signUpFrom(direct.url, person(), `10.1.0.${i}`)).toBe("INVITE_REQUIRED");
    expect(await signUpFrom(direct.url, person(), "10.1.1.1")).toBe("RATE_LIMITED");
  });

  it("lets 25 people join by one invite from one address within the hour; they do not count against it", async () => {
    const invite = await owner.api.workspace.createInvite.mutate({ maxUses: 25 });
    const before = await accounts(proxied);
    const codes = await Promise.all(Array.from({ length: 25 }, () => signUpFrom(proxied.url, person({ inviteToken: invite.token }), "10.5.0.1")));
    expect(codes).toEqual(Array(25).fill("OK"));
    expect(await accounts(proxied)).toBe(before + 25);
    // The invite bounds them: its 26th use is refused (and counts, as any unusable token does).
    expect(await signUpFrom(proxied.url, person({ inviteToken: invite.token }), "10.5.0.1")).toBe("INVITE_INVALID");
    expect(await usesOf(proxied, invite.id)).toBe(25);
    // The address has its attempts without an invite all the same: 19 more, then RATE_LIMITED.
    for (let i = 0; i < 19; i++) expect(await signUpFrom(proxied.url, person(), "10.5.0.1")).toBe("INVITE_REQUIRED");
    expect(await signUpFrom(proxied.url, person(), "10.5.0.1")).toBe("RATE_LIMITED");
    expect(await accounts(proxied)).toBe(before + 25);
  });

  it("counts bad tokens, and refuses an address past its limit a good invite too, writing nothing", async () => {
    const invite = await owner.api.workspace.createInvite.mutate({ maxUses: 5 });
    const before = await accounts(proxied);
    for (let i = 0; i < 20; i++) expect(await signUpFrom(proxied.url, person({ inviteToken: `guess-${i}` }), "10.6.0.1")).toBe("INVITE_INVALID");
    expect(await signUpFrom(proxied.url, person({ inviteToken: "guess-20" }), "10.6.0.1")).toBe("RATE_LIMITED");
    // Were a good token let through here, the answers would go on telling good tokens from bad ones.
    expect(await signUpFrom(proxied.url, person({ inviteToken: invite.token }), "10.6.0.1")).toBe("RATE_LIMITED");
    expect(await accounts(proxied)).toBe(before);
    expect(await usesOf(proxied, invite.id)).toBe(0);
    expect(await signUpFrom(proxied.url, person({ inviteToken: invite.token }), "10.6.0.2")).toBe("OK");
    expect(await usesOf(proxied, invite.id)).toBe(1);
  });

  it("counts an invite sign-up that fails after its checks (a taken email), and claims no use for it", async () => {
    const invite = await owner.api.workspace.createInvite.mutate({ maxUses: 5 });
    const taken = person({ inviteToken: invite.token });
    expect(await signUpFrom(proxied.url, taken, "10.7.0.1")).toBe("OK");
    for (let i = 0; i < 20; i++)
      expect(await signUpFrom(proxied.url, { ...person({ inviteToken: invite.token }), email: taken.email }, "10.7.0.1")).toBe("EMAIL_TAKEN");
    expect(await signUpFrom(proxied.url, person({ inviteToken: invite.token }), "10.7.0.1")).toBe("RATE_LIMITED");
    expect(await usesOf(proxied, invite.id)).toBe(1);
  });

  it("takes its limit from SIGNUPS_PER_ADDRESS_PER_HOUR", async () => {
    for (let i = 0; i < 3; i++) expect(await signUpFrom(configured.url, person(), "10.8.0.1")).toBe("INVITE_REQUIRED");
    expect(await signUpFrom(configured.url, person(), "10.8.0.1")).toBe("RATE_LIMITED");
    expect(await signUpFrom(configured.url, person(), "10.8.0.2")).toBe("INVITE_REQUIRED");
  });
});
