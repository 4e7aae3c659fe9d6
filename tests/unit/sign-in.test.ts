// The credentials check as Auth.js calls it (server/auth/config.ts), through Auth.js's own handlers, on
// a real migrated database with the real limits (fixtures/database.ts): each attempt counts once
// against its email's failures and once against the client's address, which reaches the check and its
// audit entry; and the answer does not wait for that entry (so a known email costs no more time than an
// unknown one). The same over the server's HTTP: tests/integration/accounts.test.ts.
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openTestDatabase } from "./fixtures/database";

const database = await openTestDatabase();
const { handlers } = await import("../../server/auth/config");
const { ADDRESS_HEADER } = await import("../../server/http/client-address");
const { actorForAccount, signUp } = await import("../../server/services/identity/accounts");
const { createInvite } = await import("../../server/services/identity/invites");
const { countSignIn } = await import("../../server/services/governance/address-limits");
const { getDb } = await import("../../server/db");

const BASE = "http://127.0.0.1:3000";
const PASSWORD = "right password";

/** A browser's sign-in, from `address` (as server/app.ts stamps it): "signed in", or Auth.js's error code. */
async function signIn(email: string, password: string, address: string): Promise<string> {
  const csrf = await handlers.GET(new NextRequest(`${BASE}/api/auth/csrf`));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await handlers.POST(
    new NextRequest(`${BASE}/api/auth/callback/credentials`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Auth-Return-Redirect": "1",
        [ADDRESS_HEADER]: address,
        cookie: csrf.headers
          .getSetCookie()
          .map((c) => c.split(";")[0])
          .join("; "),
      },
      body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${BASE}/` }),
    }),
  );
  if (response.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))) return "signed in";
  const { url } = (await response.json()) as { url: string };
  return new URL(url).searchParams.get("code") ?? "no code";
}

const person = (handle: string) => ({ email: `${handle}@example.test`, password: PASSWORD, displayName: handle, handle });

describe("the credentials check", () => {
  let bobId: string;

  beforeAll(async () => {
    const ada = await signUp(person("ada")); // the first: creates the workspace (the server's own call, no address)
    const { token } = await createInvite((await actorForAccount(ada.accountId))!, { role: "member", expiresInDays: 1 });
    bobId = (await signUp({ ...person("bob"), inviteToken: token })).accountId;
  }, 30_000);
  afterAll(() => database.close());

  it("counts each failure once against its email: the tenth blocks it, the right password too, saying rate_limited", async () => {
    for (let i = 0; i < 9; i++) expect(await signIn("ada@example.test", `wrong-${i}`, "192.0.2.1")).toBe("credentials");
    expect(await signIn("ada@example.test", PASSWORD, "192.0.2.1")).toBe("signed in");
    expect(await signIn("ada@example.test", "wrong-9", "192.0.2.1")).toBe("credentials");
    expect(await signIn("ada@example.test", PASSWORD, "192.0.2.2")).toBe("rate_limited");
    expect(await signIn("ADA@Example.test", PASSWORD, "192.0.2.2")).toBe("rate_limited");
  });

  it("counts each attempt once against the client's address, whatever the email: past 60 in 10 minutes, rate_limited", async () => {
    // The address's first 59 attempts, spent directly (each through Auth.js would cost a hash).
    for (let i = 0; i < 59; i++) await countSignIn("192.0.2.7");
    expect(await signIn("nobody@example.test", "guess", "192.0.2.7")).toBe("credentials");
    expect(await signIn("bob@example.test", PASSWORD, "192.0.2.7")).toBe("rate_limited");
    expect(await signIn("bob@example.test", PASSWORD, "192.0.2.8")).toBe("signed in");
  });

  it("answers without waiting for the audit entry, which is then written with the client's address", async () => {
    const audits = () => getDb().auditEvent.findMany({ where: { subjectId: bobId, address: "192.0.2.9" }, select: { action: true, address: true } });
    // Another write holds the database (SQLite: one transaction at a time) while bob signs in.
    let release!: () => void;
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const busy = getDb().$transaction(async () => {
      holding();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await held;
    expect(await signIn("bob@example.test", PASSWORD, "192.0.2.9")).toBe("signed in");
    expect(await audits()).toEqual([]);
    release();
    await busy;
    await vi.waitFor(async () => expect(await audits()).toEqual([{ action: "auth.signin", address: "192.0.2.9" }]));
  });
});
