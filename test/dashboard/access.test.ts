// Every dashboard page and form is behind the session and the user's permissions, checked on the
// route a request matched (server/src/dashboard/page.ts): over HTTP with inject, no browser needed.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import * as tls from "node:tls";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, PASSWORD } from "../support/dashboard";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;

/** `name=value` as inject's cookies. */
function cookieFields(cookie: string): Record<string, string> {
  const [name, ...value] = cookie.split("=");
  return { [name!]: value.join("=") };
}

/** A form body, as a browser sends one (the dashboard reads no other). */
function formBody(fields: Record<string, string>) {
  return { payload: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } };
}

const GET_PAGES = [
  "/dashboard",
  "/dashboard/keys",
  "/dashboard/sources",
  "/dashboard/sources/status?id=x",
  "/dashboard/sources/0123456789abcdef01234567",
  "/dashboard/reports",
  "/dashboard/reports/x/files/1",
  "/dashboard/videos",
  "/dashboard/videos/x",
  "/dashboard/videos/x/video",
];
const FORMS = ["/dashboard/keys", "/dashboard/keys/x/revoke", "/dashboard/logout"];

beforeAll(async () => {
  server = await startTestServer();
  await addUser(server.db, "purger@example.com", ["Purge"]);
});
afterAll(() => server?.close());

/** Signs in through the form: the session cookie and a CSRF token of that session. */
async function session(email: string): Promise<{ cookie: string; csrf: string; formToken: string }> {
  const form = await server.app.inject({ method: "GET", url: "/dashboard/login" });
  const anonymous = form.cookies[0]!;
  const token = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
  const signedIn = await server.app.inject({
    method: "POST",
    url: "/dashboard/login",
    cookies: { [anonymous.name]: anonymous.value },
    ...formBody({ _csrf: token, email, password: PASSWORD }),
  });
  expect(signedIn.statusCode).toBe(303);
  // The session's cookie, not the device cookie the sign-in also sets (docs/dashboard.md).
  const sessionCookie = signedIn.cookies.find((c) => c.name === "asset_delivery_session")!;
  const cookie = `${sessionCookie.name}=${sessionCookie.value}`;
  const keys = await server.app.inject({ method: "GET", url: "/dashboard/keys", headers: { cookie } });
  return {
    cookie,
    csrf: /name="_csrf" value="([^"]+)"/.exec(keys.body)![1]!,
    formToken: /name="form_token" value="([^"]+)"/.exec(keys.body)![1]!,
  };
}

describe("without a session", () => {
  it.each(GET_PAGES)("GET %s leads to the sign-in page", async (url) => {
    const response = await server.app.inject({ method: "GET", url });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/dashboard/login?next=${encodeURIComponent(url)}`);
  });

  it.each(FORMS)("POST %s is refused", async (url) => {
    const response = await server.app.inject({ method: "POST", url, ...formBody({ name: "x", permission: "Sources" }) });
    expect(response.statusCode).toBe(401);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
  });

  it("serves the sign-in page and the assets with a strict content security policy", async () => {
    const response = await server.app.inject({ method: "GET", url: "/dashboard/login" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-security-policy"]).toMatch(/default-src 'none'; script-src 'self'/);
    expect(response.headers["x-frame-options"]).toBe("DENY");
    expect((await server.app.inject({ method: "GET", url: "/dashboard/assets/dashboard.css" })).statusCode).toBe(200);
  });

  it("never sends a sign-in anywhere but the dashboard", async () => {
    const form = await server.app.inject({ method: "GET", url: "/dashboard/login?next=//evil.example/x" });
    expect(form.body).not.toContain("evil.example");
  });
});

describe("with a session", () => {
  it("refuses the views the user's permissions do not grant, by the route matched", async () => {
    const { cookie } = await session("purger@example.com");
    for (const url of ["/dashboard/sources", "/dashboard/sources/status?id=x", "/dashboard/reports", "/dashboard/reports/x/files/1"]) {
      const response = await server.app.inject({ method: "GET", url, headers: { cookie } });
      expect(response.statusCode, url).toBe(403);
    }
    // The same path with another spelling matches the same route, and the same declaration.
    expect((await server.app.inject({ method: "GET", url: "/dashboard/sources/", headers: { cookie } })).statusCode).toBe(403);
    expect((await server.app.inject({ method: "GET", url: "/dashboard/keys", headers: { cookie } })).statusCode).toBe(200);
    expect((await server.app.inject({ method: "GET", url: "/dashboard/videos", headers: { cookie } })).statusCode).toBe(200);
  });

  it("refuses a form without the session's CSRF token, or with another session's", async () => {
    const { cookie, csrf, formToken } = await session("purger@example.com");
    const other = await session("purger@example.com");
    const post = (token: string | undefined) =>
      server.app.inject({
        method: "POST",
        url: "/dashboard/keys",
        ...formBody({ name: "k", permission: "Purge", form_token: formToken, ...(token !== undefined && { _csrf: token }) }),
        cookies: cookieFields(cookie),
      });
    expect((await post(undefined)).statusCode).toBe(403);
    expect((await post(other.csrf)).statusCode).toBe(403);
    expect((await post(csrf)).statusCode).toBe(303); // made: to the page that shows it once
  });

  it("ends on sign-out: the old cookie opens nothing", async () => {
    const { cookie, csrf } = await session("purger@example.com");
    const out = await server.app.inject({
      method: "POST",
      url: "/dashboard/logout",
      cookies: cookieFields(cookie),
      ...formBody({ _csrf: csrf }),
    });
    expect(out.statusCode).toBe(303);
    expect((await server.app.inject({ method: "GET", url: "/dashboard/keys", headers: { cookie } })).statusCode).toBe(303);
  });
});

describe("over HTTPS", () => {
  it("names the sign-in form's, the session's and the device cookies __Host-, Path=/, Secure (and keeps SameSite=Strict); a bare session cookie from before is cleared, not believed", async () => {
    // TLS in front of the server's own HTTP listener: each decrypted connection is handed to it,
    // so the requests arrive on an encrypted socket, as with a server started with a certificate.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dashboard-tls-"));
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-subj",
        "/CN=localhost",
        "-days",
        "1",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { stdio: "ignore" },
    );
    const front = tls.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (socket) =>
      server.app.server.emit("connection", socket),
    );
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
    try {
      const url = `https://127.0.0.1:${(front.address() as AddressInfo).port}/dashboard/login`;
      const response = await request(url, { dispatcher });
      const token = /name="_csrf" value="([^"]+)"/.exec(await response.body.text())![1]!;
      expect(response.statusCode).toBe(200);
      const formCookie = String(response.headers["set-cookie"]);
      const signedIn = await request(url, {
        dispatcher,
        method: "POST",
        headers: { cookie: formCookie.split(";")[0]!, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: token, email: "purger@example.com", password: PASSWORD }).toString(),
      });
      await signedIn.body.text();
      expect(signedIn.statusCode).toBe(303);
      const set = [signedIn.headers["set-cookie"]].flat().map(String);
      const named = (name: string) => set.find((line) => line.startsWith(`${name}=`));
      for (const [name, cookie] of [
        ["__Host-asset_delivery_sign_in", formCookie],
        ["__Host-asset_delivery_session", String(named("__Host-asset_delivery_session"))],
        ["__Host-asset_delivery_device", String(named("__Host-asset_delivery_device"))],
      ] as const) {
        expect(cookie).toMatch(new RegExp(`^${name}=`));
        expect(cookie).toMatch(/; Path=\/;/);
        expect(cookie).not.toMatch(/; Domain=/);
        expect(cookie).toMatch(/; Secure/);
        expect(cookie).toMatch(/; SameSite=Strict/);
        expect(cookie).toMatch(/; HttpOnly/);
      }
      // A session cookie under the bare name (an earlier release's, or one a sibling subdomain planted) signs nobody in over HTTPS.
      const session = named("__Host-asset_delivery_session")!.split(";")[0]!.replace("__Host-", "");
      const bare = await request(url.replace("/login", "/keys"), { dispatcher, headers: { cookie: session } });
      await bare.body.text();
      expect(bare.statusCode).toBe(303);
      expect(bare.headers.location).toMatch(/^\/dashboard\/login/);
      expect([bare.headers["set-cookie"]].flat().map(String)).toContainEqual(
        expect.stringMatching(/^asset_delivery_session=;.* Max-Age=0;.* Path=\/dashboard(;|$)/),
      );
    } finally {
      await dispatcher.close();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("leaves it without Secure over plain HTTP, where a browser would drop a Secure cookie", async () => {
    const response = await server.app.inject({ method: "GET", url: "/dashboard/login" });
    expect(String(response.headers["set-cookie"])).not.toMatch(/Secure/);
    expect(String(response.headers["set-cookie"])).toMatch(/SameSite=Strict/);
  });
});
