// What an anonymous client sends does not stay in the server (docs/dashboard.md, "What a visitor
// can make the server keep"): the dashboard reads forms only, an email longer than 254 characters
// is refused before any limiter counts it, and a session cookie whose signature does not hold has
// no request bucket of its own. Clients come from addresses the test chooses, through a trusted
// proxy (X-Forwarded-For).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPage, postForm } from "../support/dashboard-http";
import { startTestServer, type TestServer } from "../support/server";

/** docs/dashboard.md: 20 failed sign-ins from one address before any wait; 20 requests at once per session. */
const ADDRESS_FREE_FAILURES = 20;
const SESSION_BURST = 20;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ trustProxy: "127.0.0.1", now: () => Date.UTC(2026, 0, 1) });
});
afterAll(() => server?.close());

const from = (address: string) => ({ "x-forwarded-for": address });

describe("the dashboard's bodies", () => {
  it("are forms only: a JSON or text body is refused unread (415)", async () => {
    for (const [type, body] of [
      ["application/json", JSON.stringify({ email: "x".repeat(100_000), password: "p" })],
      ["text/plain", "x".repeat(100_000)],
    ] as const) {
      const answer = await fetch(`${server.url}/dashboard/login`, {
        method: "POST",
        headers: { ...from("198.51.100.70"), "content-type": type },
        body,
      });
      expect(answer.status, type).toBe(415);
    }
  });

  it("of more than 16 KB are refused (413)", async () => {
    const form = await openPage(server.url, undefined, "/dashboard/login", from("198.51.100.71"));
    const answer = await postForm(server.url, form.session, "/dashboard/login", { email: "x".repeat(17_000), password: "p" }, from("198.51.100.71"));
    expect(answer.status).toBe(413);
  });
});

describe("an email longer than 254 characters", () => {
  it("is refused (400) before it is counted: the address's free tries are all still there", async () => {
    const address = from("198.51.100.72");
    const long = `${"a".repeat(250)}@example.com`;
    const statuses = [];
    for (let i = 0; i < ADDRESS_FREE_FAILURES + 5; i++) {
      // A form each time: one session's requests are limited to a burst of 20.
      const form = await openPage(server.url, undefined, "/dashboard/login", address);
      const answer = await postForm(server.url, form.session, "/dashboard/login", { email: `${i}${long}`, password: "a wrong password" }, address);
      if (i === 0) expect(await answer.text()).toContain("Email: at most 254 characters.");
      statuses.push(answer.status);
    }
    expect(new Set(statuses)).toEqual(new Set([400]));
    // Counted, the 25 would have used the address's 20 free failures: this one would wait (429).
    const form = await openPage(server.url, undefined, "/dashboard/login", address);
    const wrong = await postForm(server.url, form.session, "/dashboard/login", { email: "someone@example.com", password: "a wrong password" }, address);
    expect(wrong.status).toBe(401);
  });
});

describe("a made-up session cookie", () => {
  it("has no request bucket of its own: only a session whose signature holds does", async () => {
    const cookie = "asset_delivery_session=made-up-session-id.bm90IGEgc2lnbmF0dXJl";
    const statuses = [];
    for (let i = 0; i < SESSION_BURST + 5; i++) {
      const answer = await fetch(`${server.url}/dashboard/assets/dashboard.css`, { headers: { cookie, ...from(`192.0.2.${i + 1}`) } });
      await answer.arrayBuffer();
      statuses.push(answer.status);
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
  });
});
