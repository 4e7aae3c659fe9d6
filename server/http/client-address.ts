// The address a request comes from, for per-address limits and the audit log. The socket's peer is
// the client unless the server runs behind proxies: with TRUST_PROXY=n, n proxies in front each
// append the address they were reached from to X-Forwarded-For, so the client is the n-th entry from
// the right. Entries further left were written by the client itself and are never believed.
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { isIPv6 } from "node:net";

/**
 * Set by the custom server on every request it hands to Next.js (overwriting whatever the client
 * sent), so that Auth.js, which sees only a Fetch `Request`, can read the address.
 */
export const ADDRESS_HEADER = "x-switchboard-client-address";

/**
 * What a client whose address is not known (its connection already closed) counts as: all of them
 * together, so that closing early does not escape the per-address limits.
 */
export const UNKNOWN_ADDRESS = "unknown";

export function clientAddress(peer: string | undefined, headers: IncomingHttpHeaders, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const forwarded = [headers["x-forwarded-for"] ?? []]
      .flat()
      .flatMap((h) => h.split(","))
      .map((a) => a.trim())
      .filter(Boolean);
    // Fewer entries than proxies: the header did not pass through all of them; count the nearest.
    if (forwarded.length >= trustedProxies) return normalize(forwarded[forwarded.length - trustedProxies]);
  }
  return peer ? normalize(peer) : UNKNOWN_ADDRESS;
}

/** An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d; it is the same client as a.b.c.d. */
function normalize(address: string): string {
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice("::ffff:".length) : address;
}

/** Stamps the request with its client's address (ADDRESS_HEADER), replacing any value the client sent. */
export function stampAddress(req: IncomingMessage, trustedProxies: number): void {
  req.headers[ADDRESS_HEADER] = clientAddress(req.socket.remoteAddress, req.headers, trustedProxies);
}

/** The address `stampAddress` put on the request. */
export function stampedAddress(req: IncomingMessage): string | null {
  const value = req.headers[ADDRESS_HEADER];
  return typeof value === "string" ? value : null;
}

/**
 * What an address is counted under. One IPv6 subscriber usually holds a whole /64 and can pick any
 * address in it, so IPv6 addresses count by their first 64 bits.
 */
export function limitKey(address: string): string {
  if (!isIPv6(address)) return address;
  const bare = address.split("%")[0]; // a zone (fe80::1%eth0) names an interface, not an address
  const groups = (part: string) => (part ? part.split(":").flatMap((g) => (g.includes(".") ? ["v4", "v4"] : [g])) : []);
  const [head, tail] = bare.split("::");
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return `${all.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, "")).join(":")}::/64`;
}
