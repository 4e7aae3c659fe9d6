// The credentials check as Auth.js calls it (server/auth/config.ts), with the database stubbed: each
// limit is looked at once per attempt, the client's address reaches the check, and the answer does not
// wait for the audit entry (so a known email costs no more time than an unknown one).
import { beforeEach, describe, expect, it, vi } from "vitest";

type Authorize = (raw: unknown, request: Request) => Promise<unknown>;
let authorize: Authorize | undefined;
vi.mock("next-auth", () => ({
  default: (config: { providers: { authorize: Authorize }[] }) => {
    authorize = config.providers[0].authorize;
    return { handlers: {}, auth: vi.fn(), signIn: vi.fn(), signOut: vi.fn() };
  },
  CredentialsSignin: class extends Error {
    code = "credentials";
  },
}));
vi.mock("next-auth/providers/credentials", () => ({ default: (provider: unknown) => provider }));

const limits = vi.hoisted(() => ({
  signInBlocked: vi.fn(async () => false),
  recordFailedSignIn: vi.fn(async () => {}),
  consume: vi.fn(async () => {}),
  count: vi.fn(async () => {}),
  exhausted: vi.fn(async () => false),
}));
vi.mock("../../server/services/governance/limits", () => limits);
vi.mock("../../server/services/identity/passwords", () => ({
  hashPassword: vi.fn(),
  verifyPassword: vi.fn(async (password: string) => password === "right password"),
  verifyAgainstNothing: vi.fn(async () => false),
}));
const db = {
  account: { findUnique: vi.fn(async () => ({ id: "acc-1", email: "known@example.test", passwordHash: "scrypt$stub" })) },
  member: { findFirst: vi.fn(async () => ({ workspaceId: "ws-1", participantId: "p-1" })) },
  // The audit entry's transaction never finishes: the answer must not wait for it.
  $transaction: vi.fn(() => new Promise(() => {})),
};
vi.mock("../../server/env", () => ({ env: { DATABASE_URL: "file:unused" } }));
vi.mock("../../server/db", async (original) => ({ ...(await original<object>()), getDb: () => db }));

await import("../../server/auth/config");
const request = new Request("http://127.0.0.1/api/auth/callback/credentials", { headers: { "x-switchboard-client-address": "192.0.2.7" } });
const attempt = (password: string) => authorize!({ email: "known@example.test", password }, request);

describe("the credentials check", () => {
  beforeEach(() => vi.clearAllMocks());

  it("looks at the email's limit once per attempt and counts the attempt against the client's address", async () => {
    db.account.findUnique.mockResolvedValueOnce(null as never); // an unknown email: no audit entry
    expect(await attempt("wrong password")).toBeNull();
    expect(limits.signInBlocked).toHaveBeenCalledTimes(1);
    expect(limits.consume).toHaveBeenCalledTimes(1);
    expect(limits.consume).toHaveBeenCalledWith(expect.objectContaining({ name: "addr:signin" }), "192.0.2.7", expect.any(String));
  });

  it("answers without waiting for the audit entry, which is still written", async () => {
    expect(await attempt("right password")).toEqual({ id: "acc-1", email: "known@example.test" });
    await vi.waitFor(() => expect(db.$transaction).toHaveBeenCalledTimes(1));
  });

  it("says rate_limited when the address or the email is over its limit", async () => {
    limits.signInBlocked.mockResolvedValueOnce(true);
    await expect(attempt("right password")).rejects.toMatchObject({ code: "rate_limited" });
    const { AppError } = await import("../../server/errors");
    limits.consume.mockRejectedValueOnce(new AppError("RATE_LIMITED", "slow down"));
    await expect(attempt("right password")).rejects.toMatchObject({ code: "rate_limited" });
  });
});
