// Behind a proxy that terminates TLS (`trustProxy`): the session cookie is Secure when the proxy
// says the client came over HTTPS, and the dashboard's limits count by the client's address from
// X-Forwarded-For, not the proxy's, an IPv6 client by its /64 (shown by the sign-in throttle's
// series for one email from one address, and the request limit). Without the setting, neither header
// is believed, and the first request that carries one is logged, once. `true` (any proxy: the
// client would choose its address) is refused.
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPage, postForm } from "../support/dashboard-http";
import { startTestServer, type TestServer } from "../support/server";

// The documented limits (docs/dashboard.md): 5 failed sign-ins for an email from one address
// before any wait, a burst of 120 dashboard requests per address.
const EMAIL_HERE_FREE_FAILURES = 5;
const ADDRESS_BURST = 120;

let proxied: TestServer;
let behindTwo: TestServer;
let direct: TestServer;
const directLog: string[] = [];

// The app's clock held still: a series' wait (1 s after the free failures) does not run out
// between two guesses on a slow machine.
const now = () => Date.UTC(2026, 0, 1);

beforeAll(async () => {
  proxied = await startTestServer({ trustProxy: "127.0.0.1", now });
  behindTwo = await startTestServer({ trustProxy: 2, now });
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      directLog.push(chunk.toString());
      done();
    },
  });
  direct = await startTestServer({ logger: { level: "warn", stream }, now });
});
afterAll(async () => {
  await proxied?.close();
  await behindTwo?.close();
  await direct?.close();
});

const fromClient = (address: string) => ({ "x-forwarded-for": address, "x-forwarded-proto": "https" });

/** The cookie the sign-in page sets (its form's: docs/dashboard.md, `__Host-` over HTTPS), as Set-Cookie gives it. */
async function formCookie(server: TestServer, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${server.url}/dashboard/login`, { headers });
  return response.headers.getSetCookie().find((line) => /^(__Host-)?asset_delivery_sign_in=/.test(line))!;
}

/** One wrong sign-in for `email` through its own form, with these headers: the answer's status. */
async function guess(server: TestServer, headers: Record<string, string>, email: string): Promise<number> {
  const form = await openPage(server.url, undefined, "/dashboard/login", headers);
  const answer = await postForm(server.url, form.session, "/dashboard/login", { email, password: "wrong password" }, headers);
  return answer.status;
}

/** Guesses for one email, each with its own headers: their statuses. */
async function guesses(server: TestServer, email: string, headers: Record<string, string>[]): Promise<number[]> {
  const statuses = [];
  for (const each of headers) statuses.push(await guess(server, each, email));
  return statuses;
}

/** The statuses the documented series gives: the free failures (401), then a refusal (429). */
const LOCKED_AFTER_FREE = [...Array<number>(EMAIL_HERE_FREE_FAILURES).fill(401), 429];
/** The headers of each attempt, one more than the free failures. */
const oneTooMany = (each: (i: number) => Record<string, string>) => Array.from({ length: EMAIL_HERE_FREE_FAILURES + 1 }, (_, i) => each(i));

describe("trustProxy", () => {
  it("marks the cookie Secure when the trusted proxy says HTTPS, and not when the proxy is not trusted", async () => {
    expect(await formCookie(proxied, fromClient("198.51.100.1"))).toMatch(/^__Host-asset_delivery_sign_in=.*; Path=\/; .*Secure/);
    expect(await formCookie(direct, fromClient("198.51.100.1"))).not.toMatch(/; Secure/);
  });

  it("throttles sign-ins by the client's address, not the proxy's", async () => {
    expect(
      await guesses(
        proxied,
        "a@example.com",
        oneTooMany(() => fromClient("203.0.113.50")),
      ),
    ).toEqual(LOCKED_AFTER_FREE);
    expect(await guess(proxied, fromClient("203.0.113.51"), "a@example.com")).toBe(401); // another client behind the same proxy
  });

  it("with a hop count, takes the address the outermost proxy saw, not one the client wrote in front of it", async () => {
    // The client sends its own X-Forwarded-For, a new address each time; the two proxies append what they saw.
    const chosenByClient = (i: number) => ({ "x-forwarded-for": `192.0.2.${i + 1}, 203.0.113.60, 10.0.0.1` });
    expect(await guesses(behindTwo, "b@example.com", oneTooMany(chosenByClient))).toEqual(LOCKED_AFTER_FREE);
  });

  it("refuses true, which would believe whatever address a client writes", async () => {
    for (const trustProxy of [true, "true"]) {
      await expect(startTestServer({ trustProxy: trustProxy as never })).rejects.toThrow(
        /^trustProxy: "true" would believe any client's X-Forwarded-For .*: give the number of proxies in front of the server \(1 for one\) or their addresses and CIDR ranges/,
      );
    }
    await expect(startTestServer({ trustProxy: "10.0.0.0/8, proxy.example" })).rejects.toThrow(
      'trustProxy: "proxy.example" is not an address, a CIDR range or one of loopback, linklocal, uniquelocal',
    );
    // An IPv6 /8 is a large share of real clients: the server does not start.
    await expect(startTestServer({ trustProxy: "2000::/8" })).rejects.toThrow(/^trustProxy: "2000::\/8" would believe the X-Forwarded-For/);
  });
});

describe("a forwarded value with a port", () => {
  it("counts as its address: 40 wrong sign-ins from one address with 40 ports are throttled after the free ones", async () => {
    const statuses = await guesses(
      proxied,
      "ports@example.com",
      Array.from({ length: 40 }, (_, i) => fromClient(i % 2 ? `203.0.113.80:${40_000 + i}` : `[::ffff:203.0.113.80]:${40_000 + i}`)),
    );
    expect(statuses.slice(0, EMAIL_HERE_FREE_FAILURES + 1)).toEqual(LOCKED_AFTER_FREE);
    expect(statuses.filter((status) => status === 401)).toHaveLength(EMAIL_HERE_FREE_FAILURES);
  });
});

describe("an IPv6 client counts by its /64", () => {
  const inNetwork = (network: string, i: number) => fromClient(`${network}:${(i + 1).toString(16)}:0:0:${i.toString(16)}`);

  it("in the sign-in throttle", async () => {
    expect(
      await guesses(
        proxied,
        "c@example.com",
        oneTooMany((i) => inNetwork("2001:db8:1:1", i)),
      ),
    ).toEqual(LOCKED_AFTER_FREE);
    expect(await guess(proxied, inNetwork("2001:db8:1:2", 0), "c@example.com")).toBe(401); // the next /64 is another client
    // An IPv4 client seen through an IPv6 socket is its IPv4 address.
    const mapped = (i: number) => fromClient(i % 2 ? "::ffff:203.0.113.70" : "203.0.113.70");
    expect(await guesses(proxied, "d@example.com", oneTooMany(mapped))).toEqual(LOCKED_AFTER_FREE);
  });

  it("in the request limit", async () => {
    // Each request from another address of one /64, 50 at a time, until one is refused: as one
    // client, they meet the burst (120) however fast the bucket refills (6 a second); as 2^64
    // clients, never.
    const statuses: number[] = [];
    while (!statuses.includes(429) && statuses.length < 1_000) {
      const batch = Array.from({ length: 50 }, async (_, i) => {
        const headers = inNetwork("2001:db8:2:1", statuses.length + i);
        const response = await fetch(`${proxied.url}/dashboard/assets/dashboard.css`, { headers });
        await response.arrayBuffer();
        return response.status;
      });
      statuses.push(...(await Promise.all(batch)));
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(ADDRESS_BURST);
  });
});

describe("without trustProxy", () => {
  it("believes neither header: no Secure cookie, and every client counts as the proxy's address", async () => {
    expect(await formCookie(direct, fromClient("198.51.100.1"))).not.toMatch(/; Secure/);
    const fromMany = (i: number) => fromClient(`198.51.100.${i + 1}`);
    expect(await guesses(direct, "e@example.com", oneTooMany(fromMany))).toEqual(LOCKED_AFTER_FREE);
  });

  it("says once in the log that a proxy's headers came and are not believed", () => {
    const warnings = directLog.filter((line) => line.includes("X-Forwarded-For or X-Forwarded-Proto, but --trust-proxy is not set"));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40 });
  });
});
