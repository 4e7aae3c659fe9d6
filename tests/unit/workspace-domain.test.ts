// A workspace's domain: named by its admins with a token to publish as a TXT record, verified when DNS
// shows that record (a resolver stands in for DNS here: the machine has none), or by an operator of the
// deployment; naming another forgets the verification; each step audited. On a real migrated database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "./fixtures/database";

const database = await openTestDatabase();
const { actorForAccount, signUp } = await import("../../server/services/identity/accounts");
const { markVerified, setDomain, verifyDomain, workspaceDomain } = await import("../../server/services/workspace-connections/domains");
const { getDb } = await import("../../server/db");

type Actor = NonNullable<Awaited<ReturnType<typeof actorForAccount>>>;
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "OK",
    (e: { code?: string }) => e.code ?? String(e),
  );

describe("a workspace's domain", () => {
  let owner: Actor;
  beforeAll(async () => {
    const { accountId } = await signUp({ email: "ada@acme.test", password: "correct horse battery", displayName: "Ada", handle: "ada", workspaceName: "Acme" });
    owner = (await actorForAccount(accountId))!;
  });
  afterAll(() => database.close());

  it("asks for a TXT record with a token, and is verified only when DNS shows it", async () => {
    const named = await setDomain(owner, "acme.com");
    expect(named).toMatchObject({ domain: "acme.com", verifiedAt: null, record: { name: "_switchboard.acme.com" } });
    const value = named.record!.value;
    expect(value).toMatch(/^switchboard-verify=.{10,}$/);
    // Not published yet; another record only; DNS out of reach: each a CONFLICT that says which.
    const none = Object.assign(new Error("queryTxt ENOTFOUND"), { code: "ENOTFOUND" });
    expect(await codeOf(verifyDomain(owner, () => Promise.reject(none)))).toBe("CONFLICT");
    expect(await codeOf(verifyDomain(owner, async () => [["v=spf1 -all"]]))).toBe("CONFLICT");
    const down = Object.assign(new Error("queryTxt ETIMEOUT"), { code: "ETIMEOUT" });
    await expect(verifyDomain(owner, () => Promise.reject(down))).rejects.toThrow(/operator/);
    // Published (TXT values may come in chunks).
    const verified = await verifyDomain(owner, async () => [["v=spf1 -all"], [value.slice(0, 10), value.slice(10)]]);
    expect(verified).toMatchObject({ domain: "acme.com", verifiedBy: "dns" });
    expect(verified.verifiedAt).not.toBeNull();
    expect((await workspaceDomain(owner)).verifiedBy).toBe("dns");
  });

  it("forgets the verification when the domain changes; an operator may verify instead", async () => {
    const renamed = await setDomain(owner, "acme.io");
    expect(renamed).toMatchObject({ domain: "acme.io", verifiedAt: null, verifiedBy: null });
    expect((await markVerified(owner.workspaceId, "operator", null)).verifiedBy).toBe("operator");
    const actions = await getDb().auditEvent.findMany({
      where: { workspaceId: owner.workspaceId, action: { startsWith: "workspace.domain" } },
      orderBy: { seq: "asc" },
    });
    expect(actions.map((a) => [a.action, a.actorId])).toEqual([
      ["workspace.domain_set", owner.participantId],
      ["workspace.domain_verified", owner.participantId],
      ["workspace.domain_set", owner.participantId],
      ["workspace.domain_verified", null],
    ]);
    await setDomain(owner, null);
    expect(await workspaceDomain(owner)).toEqual({ domain: null, record: null, verifiedAt: null, verifiedBy: null });
    expect(await codeOf(verifyDomain(owner, async () => []))).toBe("CONFLICT");
  });
});
