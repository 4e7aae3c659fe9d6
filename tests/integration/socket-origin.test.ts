// A socket signed in by the session cookie is accepted only from the app's own pages: a page on
// another origin of the same site (a sibling subdomain, another localhost port) gets the cookie sent
// along by the browser, and must not be able to act as the person. API-key sockets are unaffected.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handshake as connectWith } from "./fixtures/handshake";
import { createAgent, dialects, signUpPerson, startTestServer, type Person, type TestServer } from "./harness";

const handshake = (url: string, headers: Record<string, string>, auth: Record<string, unknown> = {}) => connectWith(url, { headers, auth });

describe("the Origin of cookie-authenticated sockets", () => {
  let plain: TestServer;
  let published: TestServer;
  let ana: Person;
  let bea: Person;

  beforeAll(async () => {
    [plain, published] = await Promise.all([startTestServer(dialects[0]), startTestServer(dialects[0], { AUTH_URL: "https://chat.example.test" })]);
    [ana, bea] = await Promise.all([signUpPerson(plain, { handle: "ana" }), signUpPerson(published, { handle: "bea" })]);
  });
  afterAll(() => Promise.all([plain?.dispose(), published?.dispose()]));

  it("without AUTH_URL, accepts the origin the request was addressed to and refuses every other", async () => {
    const port = new URL(plain.url).port;
    expect(await handshake(plain.url, { cookie: ana.cookie, origin: plain.url })).toBe("OK");
    expect(await handshake(plain.url, { cookie: ana.cookie })).toBe("OK"); // not a browser
    for (const origin of ["http://evil.localhost:5173", `http://127.0.0.1:${Number(port) + 1}`, `https://127.0.0.1.evil.test:${port}`, "null"]) {
      expect(await handshake(plain.url, { cookie: ana.cookie, origin })).toBe("FORBIDDEN");
    }
  });

  it("with AUTH_URL, accepts only that origin", async () => {
    expect(await handshake(published.url, { cookie: bea.cookie, origin: "https://chat.example.test" })).toBe("OK");
    expect(await handshake(published.url, { cookie: bea.cookie, origin: published.url })).toBe("FORBIDDEN");
    expect(await handshake(published.url, { cookie: bea.cookie, origin: "https://evil.example.test" })).toBe("FORBIDDEN");
  });

  it("leaves API-key sockets alone, whatever their origin", async () => {
    const { apiKey } = await createAgent(ana, "anywhere");
    expect(await handshake(plain.url, { origin: "https://elsewhere.example" }, { apiKey })).toBe("OK");
  });
});
