import { describe, expect, it } from "vitest";
import { clientAddress } from "../../server/http/client-address";
import { limitKey } from "../../server/services/governance/address-key";

describe("client address", () => {
  it("is the peer unless proxies are trusted; then the entry the nearest trusted proxy wrote", () => {
    const xff = { "x-forwarded-for": "6.6.6.6, 203.0.113.7, 10.0.0.2" };
    expect(clientAddress("10.0.0.1", xff, 0)).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", xff, 1)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.1", xff, 2)).toBe("203.0.113.7");
    expect(clientAddress("10.0.0.1", { "x-forwarded-for": ["6.6.6.6", "203.0.113.7"] }, 1)).toBe("203.0.113.7");
    // A request that did not come through every proxy: the nearest one is what we know.
    expect(clientAddress("10.0.0.1", {}, 1)).toBe("10.0.0.1");
    expect(clientAddress("::ffff:192.0.2.5", {}, 0)).toBe("192.0.2.5");
    // A connection closed before its request was handled: counted with every other such one.
    expect(clientAddress(undefined, {}, 0)).toBe("unknown");
  });

  it("counts IPv4 addresses one by one and IPv6 addresses by their /64", () => {
    expect(limitKey("192.0.2.5")).toBe("192.0.2.5");
    expect(limitKey("2001:db8:0:1::5")).toBe("2001:db8:0:1::/64");
    expect(limitKey("2001:DB8:0:1:ffff:1:2:3")).toBe("2001:db8:0:1::/64");
    expect(limitKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(limitKey("::1")).toBe("0:0:0:0::/64");
    expect(limitKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(limitKey("1::2:3:4:5:192.0.2.1")).toBe("1:0:2:3::/64");
  });
});
