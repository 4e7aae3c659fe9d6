// Sign-up under pressure: first sign-ups racing for the workspace, and the per-address limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, queryDb, startTestServer, type TestServer } from "./harness";

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

// The limit lives in the process (or Redis), not in the database: one dialect is enough.
describe("sign-ups per address", () => {
  let direct: TestServer;
  let proxied: TestServer;

  beforeAll(async () => {
    [direct, proxied] = await Promise.all([startTestServer(dialects[0]), startTestServer(dialects[0], { TRUST_PROXY: "1" })]);
    for (const server of [direct, proxied]) expect(await signUpFrom(server.url, person(), "10.9.9.9")).toBe("OK");
  });
  afterAll(() => Promise.all([direct?.dispose(), proxied?.dispose()]));

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
});
