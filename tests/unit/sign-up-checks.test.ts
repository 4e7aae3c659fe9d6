// A sign-up that cannot succeed must not cost a password hash: the address limit, the invite and the
// first-run checks come before scrypt, and nothing is written. On a real migrated database with the
// real limits (fixtures/database.ts); the hash is only watched. The flow over HTTP: integration tests.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type * as Passwords from "../../server/services/identity/passwords";
import { openTestDatabase } from "./fixtures/database";

vi.mock("../../server/services/identity/passwords", async (importOriginal) => {
  const real = await importOriginal<typeof Passwords>();
  return { ...real, hashPassword: vi.fn(real.hashPassword) };
});

const LIMIT = 3;
const database = await openTestDatabase({ SIGNUPS_PER_ADDRESS_PER_HOUR: String(LIMIT) });
const { actorForAccount, signUp } = await import("../../server/services/identity/accounts");
const { createInvite, revokeInvite } = await import("../../server/services/identity/invites");
const { hashPassword } = await import("../../server/services/identity/passwords");
const { getDb } = await import("../../server/db");

let n = 0;
const person = (inviteToken?: string) => {
  const id = `p${++n}`;
  return { email: `${id}@example.test`, password: "correct horse battery", displayName: id, handle: id, inviteToken };
};
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "OK",
    (e: { code?: string }) => e.code ?? String(e),
  );
/** What a refused sign-up must not have written: accounts, and uses claimed of invites. */
const written = async () => ({ accounts: await getDb().account.count(), uses: (await getDb().invite.aggregate({ _sum: { uses: true } }))._sum.uses ?? 0 });

describe("sign-up checks before hashing", () => {
  let invite: (opts?: { maxUses?: number }) => Promise<{ id: string; token: string }>;
  let revoke: (id: string) => Promise<unknown>;

  beforeAll(async () => {
    const { accountId } = await signUp(person()); // the first: creates the workspace (the server's own call, no address)
    const owner = (await actorForAccount(accountId))!;
    invite = (opts = {}) => createInvite(owner, { role: "member", expiresInDays: 1, ...opts });
    revoke = (id) => revokeInvite(owner, id);
  });
  beforeEach(() => {
    vi.mocked(hashPassword).mockClear(); // a hook's returned function would be run as its teardown
  });
  afterAll(() => database.close());

  it("refuses without an invite once a workspace exists, without hashing", async () => {
    const before = await written();
    expect(await codeOf(signUp(person(), "192.0.2.1"))).toBe("INVITE_REQUIRED");
    expect(hashPassword).not.toHaveBeenCalled();
    expect(await written()).toEqual(before);
  });

  it("refuses an unknown, expired, revoked or used-up invite without hashing", async () => {
    const expired = await invite();
    await getDb().invite.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const revoked = await invite();
    await revoke(revoked.id);
    const usedUp = await invite({ maxUses: 1 });
    expect(await codeOf(signUp(person(usedUp.token), "192.0.2.2"))).toBe("OK");
    vi.mocked(hashPassword).mockClear();

    const before = await written();
    const tokens = ["unknown", expired.token, revoked.token, usedUp.token];
    // From addresses of their own: each counts against its address, which is not what is tested here.
    for (const [i, token] of tokens.entries()) expect(await codeOf(signUp(person(token), `192.0.2.${10 + i}`))).toBe("INVITE_INVALID");
    expect(hashPassword).not.toHaveBeenCalled();
    expect(await written()).toEqual(before);
  });

  it("refuses an address past its limit before looking at its invite, a good one too, without hashing", async () => {
    const good = await invite();
    for (let i = 0; i < LIMIT; i++) expect(await codeOf(signUp(person(`guess-${i}`), "192.0.2.20"))).toBe("INVITE_INVALID");
    const before = await written();
    expect(await codeOf(signUp(person("guess-last"), "192.0.2.20"))).toBe("RATE_LIMITED");
    expect(await codeOf(signUp(person(good.token), "192.0.2.20"))).toBe("RATE_LIMITED");
    expect(hashPassword).not.toHaveBeenCalled();
    expect(await written()).toEqual(before);
  });

  it("does not count sign-ups by a usable invite against their address", async () => {
    const good = await invite();
    for (let i = 0; i < LIMIT + 2; i++) expect(await codeOf(signUp(person(good.token), "192.0.2.30"))).toBe("OK");
    for (let i = 0; i < LIMIT; i++) expect(await codeOf(signUp(person(), "192.0.2.30"))).toBe("INVITE_REQUIRED");
    expect(await codeOf(signUp(person(), "192.0.2.30"))).toBe("RATE_LIMITED");
  });
});
