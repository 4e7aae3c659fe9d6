// What a client address is counted under by the address limits (address-limits.ts): its own module,
// free of the environment, so it is tested alone.
import { isIPv6 } from "node:net";

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
  return `${all
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
