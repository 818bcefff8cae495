// Which proxies the server believes about the client (Fastify's `trustProxy`, which sets
// request.ip and request.protocol from X-Forwarded-For and X-Forwarded-Proto): the number of proxies
// in front of it, or their addresses and CIDR ranges. Never "any" (`true`, or a range as wide as
// `0.0.0.0/0`): Fastify then takes the left-most X-Forwarded-For address, which the client itself
// writes, so every request could bring a fresh address for each per-address limit.
import { BlockList, isIP } from "node:net";
import type { FastifyInstance } from "fastify";

/** A hop count (the proxies in front, 1 for one), or the proxies' addresses and CIDR ranges, comma-separated. */
export type TrustProxy = number | string;

// proxy-addr's names for ranges (what Fastify compiles the setting with).
const RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const MAX_HOPS = 10;
/**
 * The widest range believed: an IPv4 /8 (`10.0.0.0/8`), an IPv6 /32 (`2001:db8::/32`, what a
 * registry gives one ISP); anything wider is most of a network's clients, or all. An IPv6 /8 would
 * be a large share of the internet's clients (`2000::/8`); `uniquelocal` names the private fc00::/7.
 */
const MIN_PREFIX_BITS = { 4: 8, 6: 32 } as const;
const MAX_PREFIX_BITS = { 4: 32, 6: 128 } as const;

/** Why a `trustProxy` setting is refused, or undefined when it is one of the two forms. */
export function trustProxyProblem(value: unknown): string | undefined {
  if (value === true || (typeof value === "string" && value.trim().toLowerCase() === "true")) {
    return `"true" would believe any client's X-Forwarded-For (its left-most address, which the client writes): give the number of proxies in front of the server (1 for one) or their addresses and CIDR ranges, comma-separated`;
  }
  if (typeof value === "number") {
    return Number.isInteger(value) && value >= 1 && value <= MAX_HOPS
      ? undefined
      : `a hop count must be a whole number from 1 to ${MAX_HOPS}`;
  }
  if (typeof value !== "string") return "must be a hop count or the proxies' addresses and CIDR ranges, comma-separated";
  for (const item of value.split(",").map((part) => part.trim())) {
    const [address = "", bits, extra] = item.split("/");
    const family = isIP(address);
    const valid = RANGE_NAMES.has(address)
      ? bits === undefined
      : family !== 0 && extra === undefined && (bits === undefined || /^\d{1,3}$/.test(bits));
    if (!valid) return `"${item}" is not an address, a CIDR range or one of ${[...RANGE_NAMES].join(", ")}`;
    if (bits !== undefined && family !== 0) {
      const prefix = Number(bits);
      const widest = MAX_PREFIX_BITS[family as 4 | 6];
      if (prefix > widest) return `"${item}": an IPv${family} prefix has at most ${widest} bits`;
      const mapped = family === 6 ? mappedIPv4Bits(address, prefix) : undefined;
      if (prefix < MIN_PREFIX_BITS[family as 4 | 6] || (mapped !== undefined && mapped < MIN_PREFIX_BITS[4])) {
        return `"${item}" would believe the X-Forwarded-For of every client in that range: give the proxies' own addresses, or ranges of at least /${MIN_PREFIX_BITS[4]} (IPv4) or /${MIN_PREFIX_BITS[6]} (IPv6)`;
      }
    }
  }
  return undefined;
}

/**
 * The IPv4 prefix an IPv6 range also stands for, when it covers IPv4-mapped addresses
 * (::ffff:a.b.c.d): Fastify matches an IPv4 client against an IPv6 range in that form, so
 * `::ffff:0:0/96` (or `::/64`) believes every IPv4 client, as `0.0.0.0/0` would. Else undefined.
 */
function mappedIPv4Bits(address: string, bits: number): number | undefined {
  const range = new BlockList();
  range.addSubnet(address, bits, "ipv6");
  if (bits <= 96) return range.check("::ffff:0.0.0.0", "ipv6") ? 0 : undefined;
  const mapped = new BlockList();
  mapped.addSubnet("::ffff:0:0", 96, "ipv6");
  return mapped.check(address, "ipv6") ? bits - 96 : undefined;
}

// The peers a hop count is believed from: loopback and private networks, where proxies live.
const PROXY_NETWORKS = new BlockList();
for (const [network, prefix] of [
  ["127.0.0.0", 8],
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
] as const) {
  PROXY_NETWORKS.addSubnet(network, prefix, "ipv4");
}
PROXY_NETWORKS.addAddress("::1", "ipv6");
PROXY_NETWORKS.addSubnet("fc00::", 7, "ipv6"); // unique local

/** A loopback or private address (an IPv4-mapped one judged by its IPv4 address). */
export function isProxyNetworkAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && PROXY_NETWORKS.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * Fastify's form of the setting. A hop count is a function of the hop (0: the socket's peer): Fastify
 * itself takes a number as "trust nothing", since a count cannot tell the proxy from a client that
 * connects directly and writes its own header. So a count is believed only when the socket's peer
 * is a loopback or private address: a client on the internet that reaches the server directly is
 * its own address, whatever it writes.
 */
export function fastifyTrustProxy(setting: TrustProxy): string | ((address: string, hop: number) => boolean) {
  return typeof setting === "number" ? (address, hop) => hop < setting && (hop > 0 || isProxyNetworkAddress(address)) : setting;
}

/** From a command-line flag or a variable: digits are a hop count, anything else the proxies' addresses. */
export function parseTrustProxy(text: string): TrustProxy {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * Without the setting, a request that carries X-Forwarded-* came through a proxy the server does
 * not believe: said once in the log, since every client then shares the proxy's address (and its
 * limits), and no cookie is marked Secure.
 */
export function warnOfUnbelievedProxy(app: FastifyInstance): void {
  let warned = false;
  app.addHook("onRequest", (request, _reply, done) => {
    const forwarded = request.headers["x-forwarded-for"] !== undefined || request.headers["x-forwarded-proto"] !== undefined;
    if (forwarded && !warned) {
      warned = true;
      app.log.warn(
        "a request came with X-Forwarded-For or X-Forwarded-Proto, but --trust-proxy is not set: neither header is believed, so every client behind that proxy shares its address (and the dashboard's per-address limits), and the dashboard's cookie is not Secure; set --trust-proxy to the number of proxies or their addresses (docs/dashboard.md)",
      );
    }
    done();
  });
}
