// Behind a proxy that terminates TLS (`trustProxy`): the session cookie is Secure when the proxy
// says the client came over HTTPS, and the sign-in throttle counts by the client's address from
// X-Forwarded-For, not the proxy's. Without the setting, neither header is believed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDRESS_POLICY } from "../../server/src/dashboard/sign-in-throttle";
import { openPage, postForm } from "../support/dashboard-http";
import { startTestServer, type TestServer } from "../support/server";

let proxied: TestServer;
let direct: TestServer;

beforeAll(async () => {
  proxied = await startTestServer({ trustProxy: "127.0.0.1" });
  direct = await startTestServer();
});
afterAll(async () => {
  await proxied?.close();
  await direct?.close();
});

const fromClient = (address: string) => ({ "x-forwarded-for": address, "x-forwarded-proto": "https" });

async function sessionCookie(server: TestServer, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${server.url}/dashboard/login`, { headers });
  return response.headers.getSetCookie().find((line) => line.startsWith("asset_delivery_session="))!;
}

describe("trustProxy", () => {
  it("marks the cookie Secure when the trusted proxy says HTTPS, and not when the proxy is not trusted", async () => {
    expect(await sessionCookie(proxied, fromClient("198.51.100.1"))).toMatch(/; Secure/);
    expect(await sessionCookie(direct, fromClient("198.51.100.1"))).not.toMatch(/; Secure/);
  });

  it("throttles sign-ins by the client's address, not the proxy's", async () => {
    const guess = async (address: string, i: number) => {
      const form = await openPage(proxied.url, undefined, "/dashboard/login", fromClient(address));
      const headers = fromClient(address);
      const cookie = form.session.cookie;
      return (
        await postForm(
          proxied.url,
          { cookie, csrf: form.session.csrf },
          "/dashboard/login",
          { email: `u${i}@example.com`, password: "wrong password" },
          headers,
        )
      ).status;
    };
    for (let i = 0; i < ADDRESS_POLICY.freeFailures; i++) expect(await guess("203.0.113.50", i)).toBe(401);
    expect(await guess("203.0.113.50", 99)).toBe(429);
    expect(await guess("203.0.113.51", 100)).toBe(401); // another client behind the same proxy
  });
});
