// What an anonymous client sends does not stay in the server (docs/dashboard.md, "What a visitor
// can make the server keep"): the dashboard reads forms only, an email longer than 254 characters
// is refused before any limiter counts it, a session cookie whose signature does not hold has no
// request bucket of its own, and opening the sign-in page makes no session (its form's token is
// bound to a cookie), so no crowd of visitors can push another visitor's form out. Clients come from addresses the test chooses, through a trusted
// proxy (X-Forwarded-For).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addUser, PASSWORD } from "../support/dashboard";
import { openPage, postForm, signInOverHttp } from "../support/dashboard-http";
import { startTestServer, type TestServer } from "../support/server";

/** docs/dashboard.md: 20 failed sign-ins from one address before any wait; 20 requests at once per session. */
const ADDRESS_FREE_FAILURES = 20;
/** docs/dashboard.md: 50 failed sign-ins for an email from all addresses together. */
const EMAIL_EVERYWHERE_FREE_FAILURES = 50;
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
    const answer = await postForm(
      server.url,
      form.session,
      "/dashboard/login",
      { email: "x".repeat(17_000), password: "p" },
      from("198.51.100.71"),
    );
    expect(answer.status).toBe(413);
  });
});

describe("an email longer than 254 characters", () => {
  it("is refused (400) before it is counted: the email's free tries, here and everywhere, and the address's are all still there", async () => {
    const here = "198.51.100.72";
    // The same email every time, so the email's own series would show it: 5 free tries from one
    // address, 50 from all; the first 25 from one address, whose own series has 20.
    const long = `${"a".repeat(250)}@example.com`;
    const statuses = [];
    for (let i = 0; i < EMAIL_EVERYWHERE_FREE_FAILURES + 5; i++) {
      const address = from(i < ADDRESS_FREE_FAILURES + 5 ? here : `198.51.101.${i}`);
      // A form each time: one session's requests are limited to a burst of 20.
      const form = await openPage(server.url, undefined, "/dashboard/login", address);
      const answer = await postForm(server.url, form.session, "/dashboard/login", { email: long, password: "a wrong password" }, address);
      if (i === 0) expect(await answer.text()).toContain("Email: at most 254 characters.");
      statuses.push(answer.status);
    }
    // Counted, the 6th would have waited (429): the email's series from this address; the 51st, from all.
    expect(statuses).toEqual(Array<number>(EMAIL_EVERYWHERE_FREE_FAILURES + 5).fill(400));
    // Counted, the 25 would have used the address's 20 free failures: this one would wait (429).
    const form = await openPage(server.url, undefined, "/dashboard/login", from(here));
    const wrong = await postForm(
      server.url,
      form.session,
      "/dashboard/login",
      { email: "someone@example.com", password: "a wrong password" },
      from(here),
    );
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

describe("a signed-in session's cookie (the control: a session is limited at all)", () => {
  it("has a request bucket of its own: 20 requests at once from as many addresses, then 429", async () => {
    await addUser(server.db, "bucket@example.com", ["Sources"]);
    const session = await signInOverHttp(server.url, "bucket@example.com", PASSWORD, from("198.51.100.80"));
    // The buckets refill in real time (2 a second): Date held still, so the requests below cannot
    // earn tokens back however slowly they run. Only Date: the server's sockets keep real timers.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const statuses = [];
      for (let i = 0; i < SESSION_BURST + 5; i++) {
        const answer = await fetch(`${server.url}/dashboard/assets/dashboard.css`, {
          headers: { cookie: session.cookie, ...from(`192.0.2.${i + 101}`) },
        });
        await answer.arrayBuffer();
        statuses.push(answer.status);
      }
      // Signing in opened one page with the session (signInOverHttp): its bucket had 19 left.
      expect(statuses).toEqual([...Array<number>(SESSION_BURST - 1).fill(200), ...Array<number>(6).fill(429)]);
    } finally {
      // Signed out, so that the tests after this one find no session kept: a second later (2 tokens).
      vi.setSystemTime(Date.now() + 1_000);
      const signedOut = await postForm(server.url, session, "/dashboard/logout", {}, from("192.0.2.200"));
      vi.useRealTimers();
      expect(signedOut.status).toBe(303);
    }
  });
});

describe("the sign-in page", () => {
  it("keeps nothing for its form: 300 other addresses open it, no session is written, and a visitor's form opened before them still signs in", async () => {
    await addUser(server.db, "visitor@example.com", ["Sources"]);
    const visitor = await openPage(server.url, undefined, "/dashboard/login", from("198.51.100.90"));
    for (let batch = 0; batch < 6; batch++) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const answer = await fetch(`${server.url}/dashboard/login`, { headers: from(`10.${batch}.${i}.1`) });
          await answer.arrayBuffer();
          expect(answer.status).toBe(200);
        }),
      );
    }
    expect(server.db.prepare("SELECT count(*) FROM dashboard_sessions").pluck().get()).toBe(0);
    const signedIn = await postForm(
      server.url,
      visitor.session,
      "/dashboard/login",
      { email: "visitor@example.com", password: PASSWORD },
      from("198.51.100.90"),
    );
    expect(signedIn.status).toBe(303);
  });

  it("refuses a sign-in whose token is not its cookie's (another browser's form, or none)", async () => {
    const mine = await openPage(server.url, undefined, "/dashboard/login", from("198.51.100.91"));
    const theirs = await openPage(server.url, undefined, "/dashboard/login", from("198.51.100.92"));
    for (const session of [
      { ...mine.session, csrf: theirs.session.csrf },
      { ...mine.session, csrf: "" },
      { ...theirs.session, cookie: "" },
    ]) {
      const answer = await postForm(
        server.url,
        session,
        "/dashboard/login",
        { email: "visitor@example.com", password: PASSWORD },
        from("198.51.100.91"),
      );
      expect(answer.status).toBe(403);
      expect(await answer.text()).toContain("This form has expired or was not sent from this dashboard");
    }
  });
});
