// What anyone can try before signing in is limited per address: agent registrations and failed socket
// handshakes (sign-ups: sign-up.test.ts; sign-ins: sign-in.test.ts). A failed use of a real key is
// audited once per window. The server trusts one proxy here, so each test picks its own addresses.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { handshake as connectWith } from "./fixtures/handshake";
import { closeSockets, createAgent, dialects, queryDb, type Person, type TestServer } from "./harness";
import { startWorkspace } from "./factories";

async function register(url: string, from: string, onboardingToken: string, handle: string): Promise<{ status: number; code: string }> {
  const response = await fetch(`${url}/api/v1/agents/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": from },
    body: JSON.stringify({ onboardingToken, handle, displayName: handle }),
  });
  const body = (await response.json()) as { ok: boolean; error?: { code: string } };
  return { status: response.status, code: body.ok ? "OK" : body.error!.code };
}

/** Connects with an API key from an address; answers "OK" or the refusal's code. */
const handshake = (url: string, from: string, apiKey: string) => connectWith(url, { headers: { "X-Forwarded-For": from }, auth: { apiKey } });

/** The key's own prefix (`sb_` and 10 characters, then `_`) with another secret; secrets may contain `_` too. */
const wrongSecret = (key: string) => `${key.slice(0, "sb_".length + 10 + 1)}${"x".repeat(40)}`;

describe("limits per address before sign-in", () => {
  let server: TestServer;
  let owner: Person;

  beforeAll(async () => {
    ({
      server,
      people: { owner },
    } = await startWorkspace(dialects[0], { people: { owner: "owner" }, env: { TRUST_PROXY: "1" } }));
  });
  afterEach(closeSockets);
  afterAll(() => server?.dispose());

  it("refuses an address's 31st agent registration in an hour, good tokens or bad; other addresses go on", async () => {
    const { token } = await owner.api.agents.createOnboardingToken.mutate({ label: "ci", expiresInDays: 1 });
    expect(await register(server.url, "10.2.0.1", token, "first-bot")).toEqual({ status: 200, code: "OK" });
    for (let i = 0; i < 29; i++) expect((await register(server.url, "10.2.0.1", "sbo_wrong", `bot-${i}`)).code).toBe("UNAUTHENTICATED");
    expect(await register(server.url, "10.2.0.1", token, "late-bot")).toEqual({ status: 429, code: "RATE_LIMITED" });
    expect(await register(server.url, "10.2.0.2", token, "other-bot")).toEqual({ status: 200, code: "OK" });
  });

  it("refuses every handshake from an address after its 30th failed one, a good key too; other addresses go on", async () => {
    const { apiKey } = await createAgent(owner, "steady");
    for (let i = 0; i < 30; i++) expect(await handshake(server.url, "10.3.0.1", i % 2 ? "sb_nonsense" : wrongSecret(apiKey))).toBe("UNAUTHENTICATED");
    expect(await handshake(server.url, "10.3.0.1", apiKey)).toBe("RATE_LIMITED");
    expect(await handshake(server.url, "10.3.0.2", apiKey)).toBe("OK");
    // Successful handshakes never count.
    for (let i = 0; i < 31; i++) expect(await handshake(server.url, "10.3.0.3", apiKey)).toBe("OK");
  });

  it("audits the first failed use of a real key's prefix in a window and only counts the rest", async () => {
    const { apiKey, agent } = await createAgent(owner, "watched");
    for (let i = 0; i < 6; i++) expect(await handshake(server.url, `10.4.0.${i}`, wrongSecret(apiKey))).toBe("UNAUTHENTICATED");
    const rows = await queryDb<{ address: string; data: string | object }>(
      server,
      `SELECT address, data FROM "AuditEvent" WHERE action = 'key.failed' AND "subjectId" = $1`,
      [agent.keys[0].id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].address).toBe("10.4.0.0");
    const data = typeof rows[0].data === "string" ? (JSON.parse(rows[0].data) as object) : rows[0].data;
    expect(data).toMatchObject({ agentId: agent.id, reason: "mismatch" });
    expect(await handshake(server.url, "10.4.1.0", apiKey)).toBe("OK");
  });
});
