// Authentication (spec 5): a Bearer key on every call; 401 for a missing, unknown or revoked key
// or another scheme; 403 naming the permission a route needs; accounts isolated with 404.
import { PERMISSIONS, type Permission } from "@asset-delivery/sdk";
import { AUTH_CACHE_MS, openDatabase, revokeKey, listKeys, createKey } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startTestServer, TEST_ACCOUNT, type TestServer } from "../support/server";
import { createDocument, minimalDeployment, patchDocument } from "./fixtures";

let server: TestServer;
let sourceId: string;
beforeAll(async () => {
  server = await startTestServer();
  const created = await apiRequest(`${server.url}/api/v1/sources`, {
    method: "POST",
    key: server.adminKey,
    body: createDocument({ name: "auth fixture", deployment: minimalDeployment("webproxy") }),
  });
  sourceId = created.body.data.id;
});
afterAll(() => server.close());

const routes = () => [
  { method: "GET", path: "/api/v1/sources" },
  { method: "POST", path: "/api/v1/sources", body: createDocument({ name: "x", deployment: minimalDeployment("webproxy") }) },
  { method: "GET", path: `/api/v1/sources/${sourceId}` },
  { method: "PATCH", path: `/api/v1/sources/${sourceId}`, body: patchDocument(sourceId, { name: "renamed" }) },
];

describe("authentication", () => {
  it.each([
    ["no Authorization header", undefined, /API key is required/],
    ["another scheme", "Basic dXNlcjpwYXNz", /Bearer scheme/],
    ["a Bearer without key", "Bearer ", /Bearer scheme/],
    ["an unknown key", "Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", /not valid/],
  ])("answers 401 with WWW-Authenticate for %s", async (_case, authorization, detail) => {
    const response = await apiRequest(`${server.url}/api/v1/sources`, { headers: authorization === undefined ? {} : { authorization } });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm=/);
    expect(response.body.errors[0]).toMatchObject({ status: "401", title: "Unauthorized" });
    expect(response.body.errors[0].detail).toMatch(detail);
    expect(response.body.meta.authentication).toEqual({ authorized: false, key_id: null });
  });

  it("answers 401 once a key is revoked", async () => {
    const key = server.accountKey(["Sources"]);
    expect((await apiRequest(`${server.url}/api/v1/sources`, { key })).status).toBe(200);
    const record = listKeys(server.db, { account: TEST_ACCOUNT }).at(-1)!;
    revokeKey(server.db, record.id);
    const response = await apiRequest(`${server.url}/api/v1/sources`, { key });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("refuses a key revoked by another process (the CLI) within AUTH_CACHE_MS, and accepts a key it created at once", async () => {
    let time = Date.now();
    const clocked = await startTestServer({ now: () => time });
    const cli = openDatabase(clocked.dbPath); // another connection, as `asset-delivery keys ...` opens it
    try {
      const fresh = createKey(cli, { account: TEST_ACCOUNT, permissions: ["Sources"], userName: "cli-user" });
      const sources = `${clocked.url}/api/v1/sources`;
      expect((await apiRequest(sources, { key: fresh.key })).status).toBe(200);
      revokeKey(cli, fresh.id);
      time += AUTH_CACHE_MS;
      const response = await apiRequest(sources, { key: fresh.key });
      expect(response.status).toBe(401);
      expect(response.body.errors[0].detail).toMatch(/revoked/);
    } finally {
      cli.close();
      await clocked.close();
    }
  });

  it("accepts the scheme name in any case", async () => {
    const response = await apiRequest(`${server.url}/api/v1/sources`, { headers: { authorization: `bearer ${server.adminKey}` } });
    expect(response.status).toBe(200);
  });

  it("reports the key in meta.authentication", async () => {
    const response = await apiRequest(`${server.url}/api/v1/sources`, { key: server.adminKey });
    expect(response.body.meta.authentication.authorized).toBe(true);
    expect(response.body.meta.authentication.key_id).toMatch(/^[A-Za-z0-9]{24}$/);
  });
});

describe("permissions: every Sources route needs Sources or Account Admin", () => {
  const granted: Permission[] = ["Sources", "Account Admin"];
  for (const permission of PERMISSIONS) {
    it(`${permission}: ${granted.includes(permission) ? "allowed" : "403"} on every route`, async () => {
      const key = server.accountKey([permission], `perm-${permission.replace(/ /g, "-").toLowerCase()}`);
      for (const route of routes()) {
        const body = route.body && JSON.parse(JSON.stringify(route.body));
        if (body?.data?.attributes?.deployment) body.data.attributes.deployment = minimalDeployment("webproxy");
        const response = await apiRequest(`${server.url}${route.path}`, { method: route.method, key, body });
        if (!granted.includes(permission)) {
          expect(response.status, `${route.method} ${route.path}`).toBe(403);
          expect(response.body.errors[0]).toMatchObject({ title: "Forbidden" });
          expect(response.body.errors[0].detail).toContain('"Sources" permission');
        } else {
          // Other accounts' Sources are not found: a key of another account never sees them.
          expect(response.status, `${route.method} ${route.path}`).not.toBe(403);
          expect(response.status).not.toBe(401);
        }
      }
    });
  }
});

describe("accounts are isolated", () => {
  it("answers 404, not 403, for another account's Source, and lists none of them", async () => {
    const otherKey = server.accountKey(["Sources"], "other-account");
    const get = await apiRequest(`${server.url}/api/v1/sources/${sourceId}`, { key: otherKey });
    expect(get.status).toBe(404);
    expect(get.body.errors[0]).toMatchObject({ title: "NotFound" });
    expect(get.body.errors[0].detail).toMatch(/not found/);
    const patch = await apiRequest(`${server.url}/api/v1/sources/${sourceId}`, { method: "PATCH", key: otherKey, body: patchDocument(sourceId, { name: "hijack" }) });
    expect(patch.status).toBe(404);
    const list = await apiRequest(`${server.url}/api/v1/sources`, { key: otherKey });
    expect(list.body.data.map((s: { id: string }) => s.id)).not.toContain(sourceId);
    const mine = await apiRequest(`${server.url}/api/v1/sources/${sourceId}`, { key: server.adminKey });
    expect(mine.body.data.attributes.name).not.toBe("hijack");
  });
});
