// The client a dashboard limit counts by (server/src/dashboard/client-key.ts): IPv4 as is, IPv4-mapped
// IPv6 as its IPv4 address, other IPv6 by its /64.
import { describe, expect, it } from "vitest";
import { clientKey } from "../../server/src/dashboard/client-key";

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
