// The client a dashboard limit counts by (the sign-in throttle, the request limit, the cap on
// signed-out sessions): an IPv4 address as is, an IPv4-mapped IPv6 address (::ffff:192.0.2.1, what a
// dual-stack socket reports for an IPv4 client) as its IPv4 address, and any other IPv6 address by
// its /64, since one host is routinely given a whole /64: counted one by one, a single machine would
// be 2^64 clients.
import { isIPv6 } from "node:net";

export function clientKey(address: string): string {
  const bare = address.replace(/%.*$/, ""); // a zone id (fe80::1%eth0)
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const [head, rest] = text.split("::");
  if (rest === undefined) return parse(head);
  const left = parse(head);
  const right = parse(rest);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}
