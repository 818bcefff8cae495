// Dashboard sessions against a real server whose clock the test holds: a session ends an absolute
// lifetime after sign-in however busy it was, and a password change (the dashboard's own page, or
// `asset-delivery users set-password`) ends every other session of the user.
import { setUserPassword } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, PASSWORD } from "../support/dashboard";
import { openPage, postForm, signInOverHttp, type HttpSession } from "../support/dashboard-http";
import { startTestServer, type TestServer } from "../support/server";

const HOUR = 3_600_000;
let clock = Date.now();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
  await addUser(server.db, "busy@example.com", ["Sources"]);
  await addUser(server.db, "changer@example.com", ["Sources"]);
  await addUser(server.db, "admin-reset@example.com", ["Sources"]);
});
afterAll(() => server?.close());

/** The status of opening the keys page with the session: 200 while it signs in, 303 to sign-in after. */
async function keysPage(session: HttpSession): Promise<number> {
  const { response } = await openPage(server.url, session, "/dashboard/keys");
  if (response.status === 303) expect(response.headers.get("location")).toMatch(/^\/dashboard\/login/);
  return response.status;
}

describe("absolute session lifetime", () => {
  it("refuses a session 12 hours after sign-in, however busy it was", async () => {
    const session = await signInOverHttp(server.url, "busy@example.com", PASSWORD);
    for (let hour = 0; hour < 11; hour++) {
      clock += HOUR; // used every hour: never idle
      expect(await keysPage(session)).toBe(200);
    }
    clock += HOUR - 1;
    expect(await keysPage(session)).toBe(200);
    clock += 1;
    expect(await keysPage(session)).toBe(303);
    expect(await keysPage(session)).toBe(303); // and it stays ended
  });
});

describe("password changes", () => {
  it("ends every other session of the user when they change their password in the dashboard; this one stays, under a new session id", async () => {
    const here = await signInOverHttp(server.url, "changer@example.com", PASSWORD);
    const elsewhere = await signInOverHttp(server.url, "changer@example.com", PASSWORD);
    const form = await openPage(server.url, here, "/dashboard/password");
    expect(form.response.status).toBe(200);

    const wrong = await postForm(server.url, form.session, "/dashboard/password", {
      current: "not my password",
      password: "a brand new password",
      repeat: "a brand new password",
    });
    expect(wrong.status).toBe(401);
    expect(await keysPage(elsewhere)).toBe(200);

    const changed = await postForm(server.url, form.session, "/dashboard/password", {
      current: PASSWORD,
      password: "a brand new password",
      repeat: "a brand new password",
    });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toMatch(/every other session of yours was signed out/);
    expect(await keysPage(elsewhere)).toBe(303);
    // This browser goes on under a new session id: the old one (which whoever made the change
    // necessary may hold) signs nobody in.
    const renewed = changed.headers
      .getSetCookie()
      .find((line) => line.startsWith("asset_delivery_session="))
      ?.split(";")[0];
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(form.session.cookie);
    expect(await keysPage(form.session)).toBe(303);
    expect(await keysPage({ ...form.session, cookie: renewed! })).toBe(200);

    // The old password no longer signs in; the new one does.
    const login = await openPage(server.url, undefined, "/dashboard/login");
    expect(
      (await postForm(server.url, login.session, "/dashboard/login", { email: "changer@example.com", password: PASSWORD })).status,
    ).toBe(401);
    await signInOverHttp(server.url, "changer@example.com", "a brand new password");
  });

  it("refuses a new password that breaks the rules or is not repeated alike", async () => {
    const session = await signInOverHttp(server.url, "admin-reset@example.com", PASSWORD);
    const form = await openPage(server.url, session, "/dashboard/password");
    const short = await postForm(server.url, form.session, "/dashboard/password", {
      current: PASSWORD,
      password: "short",
      repeat: "short",
    });
    expect(short.status).toBe(400);
    expect(await short.text()).toMatch(/New password: must be at least 12 characters/);
    const unlike = await postForm(server.url, form.session, "/dashboard/password", {
      current: PASSWORD,
      password: "one long password",
      repeat: "another long password",
    });
    expect(unlike.status).toBe(400);
  });

  it("ends every session of the user when an administrator sets their password (users set-password)", async () => {
    const session = await signInOverHttp(server.url, "admin-reset@example.com", PASSWORD);
    expect(await keysPage(session)).toBe(200);
    await setUserPassword(server.db, { email: "admin-reset@example.com", password: "set by the administrator" });
    expect(await keysPage(session)).toBe(303);
    await signInOverHttp(server.url, "admin-reset@example.com", "set by the administrator");
  });
});
