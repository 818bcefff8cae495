// The dashboard's sign-in and API keys view in a real browser against a real server: the session
// cookie, keys created within the user's permissions and the account's limit, a key used through
// the SDK until it is revoked in the dashboard, and forms refused when they come from elsewhere.
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { ApiError, createClient, MAX_KEYS_PER_ACCOUNT } from "@asset-delivery/sdk";
import { createKey, listKeys } from "@asset-delivery/server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { launchBrowser, type TestBrowser } from "../support/browser.cjs";
import { addUser, PASSWORD, signIn } from "../support/dashboard";
import { startTestServer, type TestServer } from "../support/server";
import { minimalDeployment } from "../server/fixtures";

// The server's clock, held still: the sign-in throttle's waits pass only when the test says so.
let clock = Date.now();
let server: TestServer;
let browser: TestBrowser;
let page: Page;

beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
  browser = await launchBrowser();
  await addUser(server.db, "admin@example.com", ["Account Admin"]);
  await addUser(server.db, "analyst@example.com", ["Analytics", "Sources"]);
  await addUser(server.db, "guessed@example.com", ["Analytics"]);
  await addUser(server.db, "other@example.com", ["Account Admin"], "other-account");
  await addUser(server.db, "bob@example.com", ["Sources"]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

beforeEach(async () => {
  await browser.context.clearCookies();
  page = await browser.context.newPage();
  return () => page.close();
});

async function createKeyInDashboard(name: string, permissions: string[]): Promise<string> {
  await page.goto(`${server.url}/dashboard/keys`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  for (const permission of permissions) await page.getByLabel(permission, { exact: true }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-key").textContent())!.trim();
  expect(key).toMatch(/^[A-Za-z0-9]{40}$/);
  return key;
}

describe("sign in", () => {
  it("signs in through the form into a session cookie that is HttpOnly and SameSite=Strict, and signs out", async () => {
    await page.goto(`${server.url}/dashboard/keys`);
    expect(new URL(page.url()).pathname).toBe("/dashboard/login"); // every page is behind the session
    await signIn(page, server.url, "admin@example.com");
    expect(new URL(page.url()).pathname).toBe("/dashboard/sources");
    // The session's cookie, the device cookie that lets this browser past an email's lock, and the
    // sign-in form's (docs/dashboard.md), nothing else.
    const cookies = await browser.context.cookies(`${server.url}/dashboard/`);
    expect(cookies.map((c) => c.name).sort()).toEqual(["asset_delivery_device", "asset_delivery_session", "asset_delivery_sign_in"]);
    for (const cookie of cookies)
      expect(cookie, cookie.name).toMatchObject({ httpOnly: true, sameSite: "Strict", secure: false, path: "/dashboard" });
    expect(await page.evaluate("document.cookie")).toBe(""); // no script can read it

    await page.getByRole("button", { name: "Sign out" }).click();
    expect(new URL(page.url()).pathname).toBe("/dashboard/login");
    await page.goto(`${server.url}/dashboard/sources`);
    expect(new URL(page.url()).pathname).toBe("/dashboard/login");
  });

  it("refuses a wrong password without saying which field was wrong, and slows down repeated failures", async () => {
    await signInExpectingFailure("guessed@example.com", "not the password", 401, /email or the password is not right/);
    await signInExpectingFailure("nobody@example.com", "whatever it is", 401, /email or the password is not right/);
    for (let i = 0; i < 4; i++) await signInExpectingFailure("guessed@example.com", `wrong ${i}`, 401, /not right/);
    // Five failures for the email: the next try, even with the right password, must wait a second.
    await signInExpectingFailure("guessed@example.com", PASSWORD, 429, /Too many failed sign-ins: try again in 1 s/);
    clock += 1_000;
    await signIn(page, server.url, "guessed@example.com");
    expect(new URL(page.url()).pathname).toBe("/dashboard/reports");
  });
});

async function signInExpectingFailure(email: string, password: string, status: number, message: RegExp) {
  await page.goto(`${server.url}/dashboard/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);
  expect(response.status()).toBe(status);
  await expect.poll(() => page.getByRole("alert").textContent()).toMatch(message);
}

describe("API keys", () => {
  it("creates a key with the Sources permission that works through the SDK until it is revoked in the dashboard", async () => {
    await signIn(page, server.url, "admin@example.com");
    const key = await createKeyInDashboard("ci deploys", ["Sources"]);

    const client = createClient({ baseUrl: server.url, apiKey: key, retry: false });
    const source = await client.sources.create({ name: "made with a dashboard key", deployment: minimalDeployment("webproxy") as never });
    expect((await client.sources.get(source.id)).attributes.name).toBe("made with a dashboard key");

    // The list shows the key without its secret, and the new key is never shown again.
    await page.goto(`${server.url}/dashboard/keys`);
    const row = page.getByRole("row").filter({ hasText: "ci deploys" });
    await expect.poll(() => row.textContent()).toMatch(/Sources.*admin@example\.com.*active/s);
    expect(await page.content()).not.toContain(key);

    await row.getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => page.getByRole("row").filter({ hasText: "ci deploys" }).textContent()).toMatch(/revoked/);
    const refused = await client.sources.get(source.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(401);
  });

  it("makes one key per form sent: reloading the new key's page, or sending the same form again, makes none", async () => {
    await signIn(page, server.url, "admin@example.com");
    const count = () => listKeys(server.db, { account: "test" }).length;
    const before = count();
    const key = await createKeyInDashboard("made once", ["Purge"]);
    expect(new URL(page.url()).pathname).toBe("/dashboard/keys/new");
    expect(count()).toBe(before + 1);

    // A reload as a person would (the browser's own, not a new navigation): nothing is made, and the key is not shown again.
    await page.reload();
    await page.waitForLoadState("domcontentloaded");
    expect(count()).toBe(before + 1);
    expect(await page.getByTestId("new-key").count()).toBe(0);
    expect(await page.content()).not.toContain(key);

    // The same form sent twice (a double click, Back and send again): one key.
    await page.goto(`${server.url}/dashboard/keys`);
    const field = (name: string) => page.locator(`form.create-key input[name="${name}"]`).inputValue();
    const fields = { _csrf: await field("_csrf"), form_token: await field("form_token"), name: "sent twice", permission: "Purge" };
    const statuses = await page.evaluate(async (form) => {
      const send = () =>
        fetch("/dashboard/keys", { method: "POST", body: new URLSearchParams(form), redirect: "manual" }).then((r) => r.status);
      return [await send(), await send()];
    }, fields);
    expect(statuses[0]).toBe(0); // the redirect to the new key's page (opaque to fetch with redirect: manual)
    expect(statuses[1]).toBe(409);
    expect(listKeys(server.db, { account: "test" }).filter((k) => k.name === "sent twice")).toHaveLength(1);
  });

  it("lets bob revoke only keys he made in the dashboard within his permissions, not an Account Admin key made for him with the CLI", async () => {
    // As `asset-delivery keys create --user bob@example.com --permission "Account Admin"` makes it.
    const planted = createKey(server.db, {
      account: "test",
      permissions: ["Account Admin"],
      userName: "bob@example.com",
      name: "cli admin",
    });
    await signIn(page, server.url, "bob@example.com");
    await createKeyInDashboard("bob's own", ["Sources"]);
    await page.goto(`${server.url}/dashboard/keys`);
    const row = (name: string) => page.getByRole("row").filter({ hasText: name });
    expect(await row("cli admin").getByRole("button", { name: "Revoke" }).count()).toBe(0);
    expect(await row("bob's own").getByRole("button", { name: "Revoke" }).count()).toBe(1);

    // Sent anyway, with the page's own token: refused, and the key stays active.
    const csrf = await page.locator('form.signout input[name="_csrf"]').inputValue();
    const status = await page.evaluate(
      async ({ id, token }) =>
        (await fetch(`/dashboard/keys/${id}/revoke`, { method: "POST", body: new URLSearchParams({ _csrf: token }), redirect: "manual" }))
          .status,
      { id: planted.id, token: csrf },
    );
    expect(status).toBe(403);
    expect(listKeys(server.db, { account: "test" }).find((key) => key.id === planted.id)?.revokedAt).toBeNull();

    await row("bob's own").getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => row("bob's own").textContent()).toMatch(/revoked/);
  });

  it("refuses a key with more permissions than the user's own, even when the form is tampered with", async () => {
    await signIn(page, server.url, "analyst@example.com");
    await page.goto(`${server.url}/dashboard/keys`);
    const admin = page.getByLabel("Account Admin", { exact: true });
    expect(await admin.isDisabled()).toBe(true);
    expect(await page.getByLabel("Analytics", { exact: true }).isDisabled()).toBe(false);

    const before = listKeys(server.db, { account: "test" }).length;
    await page.getByLabel("Name", { exact: true }).fill("too strong");
    await page.getByLabel("Sources", { exact: true }).check();
    await admin.evaluate((input: { disabled: boolean; checked: boolean }) => {
      input.disabled = false;
      input.checked = true;
    });
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Create key" }).click(),
    ]);
    expect(response.status()).toBe(403);
    expect(await page.getByRole("alert").textContent()).toMatch(/at most your own permissions .*not Account Admin/);
    expect(await page.getByTestId("new-key").count()).toBe(0);
    expect(listKeys(server.db, { account: "test" })).toHaveLength(before);

    // Within them it works: Analytics alone (the refused form came back as it was sent).
    expect(await page.getByLabel("Sources", { exact: true }).isChecked()).toBe(true);
    await page.getByLabel("Sources", { exact: true }).uncheck();
    await page.getByLabel("Name", { exact: true }).fill("reports only");
    await page.getByLabel("Analytics", { exact: true }).check();
    await page.getByRole("button", { name: "Create key" }).click();
    expect(await page.getByTestId("new-key").count()).toBe(1);
    expect(listKeys(server.db, { account: "test" }).find((k) => k.name === "reports only")?.permissions).toEqual(["Analytics"]);
  });

  it(`refuses a key beyond the account's ${MAX_KEYS_PER_ACCOUNT}`, async () => {
    const active = () => listKeys(server.db, { account: "other-account" }).filter((k) => k.revokedAt === null).length;
    while (active() < MAX_KEYS_PER_ACCOUNT) createKey(server.db, { account: "other-account", permissions: ["Purge"] });
    await signIn(page, server.url, "other@example.com");
    await page.goto(`${server.url}/dashboard/keys`);
    await page.getByLabel("Name", { exact: true }).fill("one too many");
    await page.getByLabel("Purge", { exact: true }).check();
    await page.getByRole("button", { name: "Create key" }).click();
    expect(await page.getByRole("alert").textContent()).toMatch(/already has 20 active API keys/);
    expect(active()).toBe(MAX_KEYS_PER_ACCOUNT);
  });

  it("shows only the signed-in user's account's keys", async () => {
    await signIn(page, server.url, "other@example.com");
    await page.goto(`${server.url}/dashboard/keys`);
    expect(await page.content()).not.toContain("ci deploys");
  });
});

describe("cross-site requests", () => {
  let attacker: http.Server;
  let attackerUrl: string;

  beforeAll(async () => {
    // Another origin (same host, another port: same-site, so even the SameSite=Strict cookie goes
    // along) serving a page whose form posts to the dashboard as soon as it loads.
    attacker = http.createServer((request, response) => {
      const target = new URL(request.url!, "http://x").searchParams.get("target")!;
      response.setHeader("content-type", "text/html");
      response.end(
        `<!doctype html><form id="f" method="post" action="${target}"><input name="name" value="planted"><input name="permission" value="Account Admin"></form><script>document.getElementById("f").submit()</script>`,
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    attacker.closeAllConnections(); // the browser keeps its connection open
    await new Promise<void>((resolve) => attacker.close(() => resolve()));
  });

  it("refuses a form posted from another origin, and one without the form's CSRF token", async () => {
    await signIn(page, server.url, "admin@example.com");
    const before = listKeys(server.db, { account: "test" }).length;

    const refused = page.waitForResponse((r) => r.url() === `${server.url}/dashboard/keys` && r.request().method() === "POST");
    await page.goto(`${attackerUrl}/?target=${encodeURIComponent(`${server.url}/dashboard/keys`)}`);
    expect((await refused).status()).toBe(403);
    expect(await page.getByRole("alert").textContent()).toMatch(/sent from another site/);
    expect(listKeys(server.db, { account: "test" })).toHaveLength(before);

    // From the dashboard's own origin but without its token (a script that found no token): refused too.
    await page.goto(`${server.url}/dashboard/keys`);
    const status = await page.evaluate(async () => {
      const response = await fetch("/dashboard/keys", {
        method: "POST",
        body: new URLSearchParams({ name: "tokenless", permission: "Sources" }),
      });
      return response.status;
    });
    expect(status).toBe(403);
    expect(listKeys(server.db, { account: "test" })).toHaveLength(before);
  });
});
