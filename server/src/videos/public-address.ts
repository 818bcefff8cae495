// Which addresses the video worker may fetch a caller's image from: public unicast only. A caller
// must not make the server read its own loopback, the cloud metadata service (169.254.169.254) or
// anything on a private network and hand it back as a video (SSRF with read-back).
import { BlockList, isIP } from "node:net";

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", including the unspecified address
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback, and the deprecated IPv4-compatible form
  ["64:ff9b::", 96], // NAT64: embeds an IPv4 address that may be private
  ["100::", 64], // discard-only
  ["2002::", 16], // 6to4: embeds an IPv4 address that may be private
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, "ipv6");
}

/**
 * True for a public unicast IPv4 or IPv6 address. IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`)
 * are judged by their IPv4 address (BlockList matches them against the IPv4 rules). Anything that
 * is not an IP address is not public.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? "ipv4" : "ipv6");
}
