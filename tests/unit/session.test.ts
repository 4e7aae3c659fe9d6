import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { accountIdFromCookies } from "../../server/auth/session";

const SECRET = "unit-test-secret-unit-test-secret";

describe("session cookies", () => {
  it("finds the token among other cookies and junk", async () => {
    const name = "authjs.session-token";
    const token = await encode({ token: { sub: "acc-1" }, secret: SECRET, salt: name });
    expect(await accountIdFromCookies(`a=1; junk; =nope; c=%E0%A4%A; ${name}=${token}; b=%20x`, SECRET)).toBe("acc-1");
  });

  it("reads the secure cookie served over HTTPS", async () => {
    const name = "__Secure-authjs.session-token";
    const token = await encode({ token: { sub: "acc-2" }, secret: SECRET, salt: name });
    expect(await accountIdFromCookies(`${name}=${token}`, SECRET)).toBe("acc-2");
    // A token is bound to its cookie's name: the same token under the other name is refused.
    expect(await accountIdFromCookies(`authjs.session-token=${token}`, SECRET)).toBeNull();
  });

  it("reads the account from an Auth.js token, whole or chunked", async () => {
    const name = "authjs.session-token";
    const token = await encode({ token: { sub: "acc-1" }, secret: SECRET, salt: name });
    expect(await accountIdFromCookies(`${name}=${token}`, SECRET)).toBe("acc-1");
    const half = Math.ceil(token.length / 2);
    expect(await accountIdFromCookies(`${name}.0=${token.slice(0, half)}; ${name}.1=${token.slice(half)}`, SECRET)).toBe("acc-1");
  });

  it("rejects tokens from another secret, expired ones, and garbage", async () => {
    const name = "authjs.session-token";
    const foreign = await encode({ token: { sub: "acc-1" }, secret: "another-secret-another-secret!!", salt: name });
    expect(await accountIdFromCookies(`${name}=${foreign}`, SECRET)).toBeNull();
    const expired = await encode({ token: { sub: "acc-1" }, secret: SECRET, salt: name, maxAge: -10 });
    expect(await accountIdFromCookies(`${name}=${expired}`, SECRET)).toBeNull();
    expect(await accountIdFromCookies(`${name}=garbage`, SECRET)).toBeNull();
    expect(await accountIdFromCookies(undefined, SECRET)).toBeNull();
  });
});
