// The client a dashboard limit counts by (server/src/dashboard/client-key.ts): IPv4 as is, IPv4-mapped
// IPv6 as its IPv4 address, other IPv6 by its /64.
import { describe, expect, it } from "vitest";
import { clientAddress, clientKey, clientNetworks } from "../../server/src/dashboard/client-key";
import { fastifyTrustProxy, trustProxyProblem } from "../../server/src/http/trust-proxy";

describe("clientKey", () => {
  it("keeps an IPv4 address", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
  });

  it("takes an IPv4-mapped IPv6 address as its IPv4 address, in either spelling", () => {
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::FFFF:cb00:7107")).toBe("203.0.113.7");
    expect(clientKey("0:0:0:0:0:ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts an IPv6 address by its /64, however it is written", () => {
    const network = "2001:db8:aa:bb::/64";
    for (const address of [
      "2001:db8:aa:bb::1",
      "2001:0db8:00aa:00bb:ffff:ffff:ffff:ffff",
      "2001:DB8:AA:BB:1:2:3:4",
      "2001:db8:aa:bb::1%eth0",
    ]) {
      expect(clientKey(address)).toBe(network);
    }
    expect(clientKey("2001:db8:aa:bc::1")).toBe("2001:db8:aa:bc::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("fe80::1:2:3:4")).toBe("fe80:0:0:0::/64");
  });
});

describe("clientNetworks", () => {
  it("counts an IPv6 client by its /64, /56 and /48, and an IPv4 client by its address alone", () => {
    expect(clientNetworks("2001:db8:aa:bbcc:1:2:3:4")).toEqual(["2001:db8:aa:bbcc::/64", "2001:db8:aa:bb00::/56", "2001:db8:aa:0::/48"]);
    expect(clientNetworks("2001:db8:aa:bb11::9")[1]).toBe(clientNetworks("2001:db8:aa:bbff::9")[1]);
    expect(clientNetworks("203.0.113.7")).toEqual(["203.0.113.7"]);
    expect(clientNetworks("::ffff:203.0.113.7")).toEqual(["203.0.113.7"]);
  });
});

describe("clientAddress", () => {
  const socket = { remoteAddress: "127.0.0.1" };
  it("strips a forwarded value's port and brackets", () => {
    expect(clientAddress({ ip: "203.0.113.7:51234", socket })).toBe("203.0.113.7");
    expect(clientAddress({ ip: "[2001:db8::1]:443", socket })).toBe("2001:db8::1");
    expect(clientAddress({ ip: "[2001:db8::1]", socket })).toBe("2001:db8::1");
    expect(clientAddress({ ip: "2001:db8::1", socket })).toBe("2001:db8::1");
  });

  it("takes the socket's peer when the forwarded value is not an IP address", () => {
    for (const ip of ["unknown", "proxy.example", "203.0.113.7:abc", "", "_hidden", "203.0.113.7, 10.0.0.1", "999.1.1.1"]) {
      expect(clientAddress({ ip, socket }), ip).toBe("127.0.0.1");
    }
  });
});

describe("trustProxy's rules", () => {
  it("refuses /0 and any range wider than /8", () => {
    for (const setting of ["0.0.0.0/0", "::/0", "10.0.0.0/7", "127.0.0.1, 0.0.0.0/1", "fc00::/7"]) {
      expect(trustProxyProblem(setting), setting).toMatch(/would believe the X-Forwarded-For of every client in that range/);
    }
    expect(trustProxyProblem("10.0.0.0/33")).toBe('"10.0.0.0/33": an IPv4 prefix has at most 32 bits');
    // An IPv6 range over the IPv4-mapped addresses is an IPv4 range too: Fastify matches an IPv4 client as ::ffff:a.b.c.d.
    for (const setting of ["::ffff:0:0/96", "::ffff:0.0.0.0/96", "::/64", "::ffff:a00:0/100"]) {
      expect(trustProxyProblem(setting), setting).toMatch(/would believe the X-Forwarded-For of every client in that range/);
    }
    for (const setting of ["10.0.0.0/8", "fd00:1::/32", "192.0.2.0/24", "127.0.0.1", "loopback, uniquelocal", "::ffff:10.0.0.0/104"]) {
      expect(trustProxyProblem(setting), setting).toBeUndefined();
    }
  });

  it("refuses an IPv6 range wider than /32: a /8 of IPv6 is a large share of the internet's clients", () => {
    for (const setting of ["2000::/8", "2001:db8::/31", "fd00::/8", "10.0.0.1, 2a00::/12"]) {
      expect(trustProxyProblem(setting), setting).toMatch(
        /would believe the X-Forwarded-For of every client in that range: .* \/8 \(IPv4\) or \/32 \(IPv6\)/,
      );
    }
    for (const setting of ["2001:db8::/32", "2001:db8:5::/48", "2001:db8::1"]) expect(trustProxyProblem(setting), setting).toBeUndefined();
  });

  it("believes a hop count only from a loopback or private peer", () => {
    const trust = fastifyTrustProxy(1) as (address: string, hop: number) => boolean;
    for (const peer of ["127.0.0.1", "::1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "fd12::1", "::ffff:10.0.0.1"]) {
      expect(trust(peer, 0), peer).toBe(true);
    }
    for (const peer of ["203.0.113.9", "2001:db8::1", "::ffff:203.0.113.9", "100.64.0.1"]) expect(trust(peer, 0), peer).toBe(false);
    expect(trust("203.0.113.9", 1)).toBe(false); // beyond the count
    const two = fastifyTrustProxy(2) as (address: string, hop: number) => boolean;
    expect(two("198.51.100.1", 1)).toBe(true); // the outer proxy, named by the inner one
  });
});
