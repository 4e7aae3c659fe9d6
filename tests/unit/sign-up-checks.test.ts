// A sign-up that cannot succeed must not cost a password hash: the invite and first-run checks come
// before scrypt. The database is a stub here; the real flow is covered by the integration tests.
import { beforeEach, describe, expect, it, vi } from "vitest";

const hashPassword = vi.fn(async () => "scrypt$stub");
vi.mock("../../server/services/identity/passwords", () => ({ hashPassword, verifyPassword: vi.fn(), verifyAgainstNothing: vi.fn() }));

const expired = { revokedAt: null, expiresAt: new Date(Date.now() - 1000), maxUses: null, uses: 0 };
const db = {
  workspace: { count: vi.fn(async () => 1) },
  invite: { findUnique: vi.fn(async (): Promise<typeof expired | null> => null) },
  $transaction: vi.fn(async () => {
    throw new Error("no transaction expected");
  }),
};
vi.mock("../../server/env", () => ({ env: { DATABASE_URL: "file:unused" } }));
vi.mock("../../server/db", async (original) => ({ ...(await original<object>()), getDb: () => db, isPostgres: () => false }));

const { signUp } = await import("../../server/services/identity/accounts");
const input = { email: "x@example.test", password: "correct horse battery", displayName: "X", handle: "xx" };
const codeOf = (p: Promise<unknown>) => p.then(() => "OK", (e: { code?: string }) => e.code ?? String(e));

describe("sign-up checks before hashing", () => {
  beforeEach(() => hashPassword.mockClear());

  it("refuses without an invite once a workspace exists, without hashing", async () => {
    expect(await codeOf(signUp(input, "192.0.2.1"))).toBe("INVITE_REQUIRED");
    expect(hashPassword).not.toHaveBeenCalled();
  });

  it("refuses an unknown or expired invite without hashing", async () => {
    expect(await codeOf(signUp({ ...input, inviteToken: "unknown" }, "192.0.2.1"))).toBe("INVITE_INVALID");
    db.invite.findUnique.mockResolvedValueOnce(expired);
    expect(await codeOf(signUp({ ...input, inviteToken: "expired" }, "192.0.2.1"))).toBe("INVITE_INVALID");
    expect(hashPassword).not.toHaveBeenCalled();
  });
});
