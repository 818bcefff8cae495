// Device cookies (server/src/dashboard/device-cookie.ts) are bound to the user's id and session
// epoch, and kept on the server for the newest 5 browsers of each user: a password change, or a
// sixth browser, leaves an old cookie counting for nothing. Shown at an address where a guesser
// has used the email's free tries: a browser the user signed in with before gets through (303), a
// browser that is not known waits (429). A browser signing in again keeps its device id, and the one
// that changes the password is given a new one. A password longer than any user's is refused before
// it is counted. Clients come through a trusted proxy (X-Forwarded-For).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, PASSWORD } from "../support/dashboard";
import { openPage, postForm, signInOverHttp, type HttpSession } from "../support/dashboard-http";
import { startTestServer, type TestServer } from "../support/server";

/** docs/dashboard.md: 5 failures for an email from one address before a wait; 5 browsers kept per user. */
const FREE_FAILURES_HERE = 5;
const DEVICES_PER_USER = 5;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ trustProxy: "127.0.0.1", now: () => Date.UTC(2026, 0, 1) });
});
afterAll(() => server?.close());

const from = (address: string) => ({ "x-forwarded-for": address });

async function signInFrom(address: string, email: string, password: string, deviceCookie?: string): Promise<Response> {
  const form = await openPage(server.url, undefined, "/dashboard/login", from(address));
  const session: HttpSession = { ...form.session, cookie: [form.session.cookie, deviceCookie].filter(Boolean).join("; ") };
  return postForm(server.url, session, "/dashboard/login", { email, password }, from(address));
}
const deviceCookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((line) => line.startsWith("asset_delivery_device="))
    ?.split(";")[0];

/** A guesser at `address` uses the email's free tries there: then only a known browser signs in from it. */
async function lockAt(address: string, email: string): Promise<void> {
  for (let i = 0; i < FREE_FAILURES_HERE; i++) expect((await signInFrom(address, email, `wrong ${i}`)).status).toBe(401);
  expect((await signInFrom(address, email, PASSWORD)).status).toBe(429);
}

describe("device cookies", () => {
  // One user and one guesser's address for both rules: each counted sign-in costs a password hash.
  it("are kept for the newest 5 browsers of a user, and count for nothing after the user's password changes", async () => {
    const email = await addUser(server.db, "devices@example.com", ["Sources"]);
    const devices = [];
    for (let i = 0; i <= DEVICES_PER_USER; i++) devices.push(deviceCookieOf(await signInFrom(`198.51.100.${40 + i}`, email, PASSWORD)));
    expect(devices.every(Boolean)).toBe(true);
    await lockAt("203.0.113.40", email);
    // The sixth browser's sign-in forgot the first.
    expect((await signInFrom("203.0.113.40", email, PASSWORD, devices[0])).status).toBe(429);
    expect((await signInFrom("203.0.113.40", email, PASSWORD, devices[1])).status).toBe(303);

    // The password changes in the dashboard (in any browser): no device cookie from before counts.
    const session = await signInOverHttp(server.url, email, PASSWORD, from("198.51.100.31"));
    const form = await openPage(server.url, session, "/dashboard/password", from("198.51.100.31"));
    const fields = { current: PASSWORD, password: "a brand new password", repeat: "a brand new password" };
    expect((await postForm(server.url, form.session, "/dashboard/password", fields, from("198.51.100.31"))).status).toBe(200);
    expect((await signInFrom("203.0.113.40", email, "a brand new password", devices[5])).status).toBe(429);
  });
});

describe("a browser's device cookie", () => {
  it("stays the same when it signs in again (a laptop signing in 6 times keeps the phone known), and the browser that changes the password gets a new one", async () => {
    const email = await addUser(server.db, "phone-and-laptop@example.com", ["Sources"]);
    const phone = deviceCookieOf(await signInFrom("198.51.100.60", email, PASSWORD));
    let laptop = deviceCookieOf(await signInFrom("198.51.100.61", email, PASSWORD));
    for (let i = 0; i < DEVICES_PER_USER; i++) {
      const again = deviceCookieOf(await signInFrom("198.51.100.61", email, PASSWORD, laptop));
      expect(again).toBe(laptop);
      laptop = again;
    }
    await lockAt("203.0.113.60", email);
    expect((await signInFrom("203.0.113.60", email, PASSWORD, phone)).status).toBe(303);

    // The laptop changes the password: the change forgets every device, and leaves the laptop a new cookie.
    const session = await signInOverHttp(server.url, email, PASSWORD, from("198.51.100.61"));
    const form = await openPage(
      server.url,
      { ...session, cookie: `${session.cookie}; ${laptop}` },
      "/dashboard/password",
      from("198.51.100.61"),
    );
    const fields = { current: PASSWORD, password: "the laptop's new password", repeat: "the laptop's new password" };
    const changed = await postForm(server.url, form.session, "/dashboard/password", fields, from("198.51.100.61"));
    expect(changed.status).toBe(200);
    const renewed = deviceCookieOf(changed);
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(laptop);
    expect((await signInFrom("203.0.113.60", email, "the laptop's new password", phone)).status).toBe(429);
    expect((await signInFrom("203.0.113.60", email, "the laptop's new password", renewed)).status).toBe(303);
  });
});

describe("a password longer than 1,024 characters", () => {
  it("is refused with a form error before it is counted: 25 of them, then the right password from the same address signs in", async () => {
    const email = await addUser(server.db, "long-passwords@example.com", ["Sources"]);
    for (let i = 0; i < 25; i++) {
      const answer = await signInFrom("203.0.113.70", email, "x".repeat(2_000));
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain("Password: at most 1024 characters.");
    }
    expect((await signInFrom("203.0.113.70", email, PASSWORD)).status).toBe(303);
  });
});
