// The client a dashboard limit counts by (the sign-in throttle, the request limit, the hashing
// line). First its address: what the trusted proxy forwarded (request.ip) once a proxy's brackets
// and port are stripped (`[2001:db8::1]:443`, `192.0.2.1:5000`), and only if that is an IP address;
// anything else (a port that varies per connection, garbage) would give each request a key of its
// own, so the socket's peer counts instead. Then the networks it counts in: an IPv4 address as is,
// an IPv4-mapped IPv6 address (::ffff:192.0.2.1, what a dual-stack socket reports for an IPv4
// client) as its IPv4 address, and any other IPv6 address by its /64, since one host is routinely
// given a whole /64 (counted one by one, a single machine would be 2^64 clients), and by its /56 and
// /48, which one customer of an ISP routinely holds (256 and 65,536 /64s).
import { isIP, isIPv6 } from "node:net";

/** The request's client address: a forwarded value that is not an IP address gives way to the socket's peer. */
export function clientAddress(request: { ip: string; socket: { remoteAddress?: string | undefined } }): string {
  const forwarded = bareAddress(request.ip).replace(/%.*$/, ""); // and a zone id (fe80::1%eth0)
  if (isIP(forwarded) !== 0) return forwarded;
  return request.socket.remoteAddress ?? "unknown";
}

/** A proxy's `[v6]`, `[v6]:port` or `v4:port` without the brackets and the port. */
function bareAddress(value: string): string {
  const trimmed = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(trimmed);
  if (bracketed) return bracketed[1]!;
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(trimmed);
  return withPort ? withPort[1]! : trimmed;
}

/** The networks the client counts in, narrowest first: one for IPv4, the /64, /56 and /48 for IPv6. */
export function clientNetworks(address: string): string[] {
  const bare = address.replace(/%.*$/, ""); // a zone id (fe80::1%eth0)
  if (!isIPv6(bare)) return [address];
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [[groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".")];
  }
  const prefix = (bits: number) => {
    const kept = groups.slice(0, 4).map((group, i) => (i * 16 + 16 <= bits ? group : group & (0xffff << (16 - (bits - i * 16)))));
    return `${kept.map((group) => group.toString(16)).join(":")}::/${bits}`;
  };
  return [prefix(64), prefix(56), prefix(48)];
}

/** The narrowest network the client counts in: its IPv4 address, or its IPv6 /64. */
export function clientKey(address: string): string {
  return clientNetworks(address)[0]!;
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
