// Authentication (spec 5): a Bearer key on every call; 401 for a missing, unknown or revoked key
// or another scheme; 403 naming the permission a route needs; accounts isolated with 404.
import { PERMISSIONS, type Permission } from "@asset-delivery/sdk";
import { spawnSync } from "node:child_process";
import { revokeKey, listKeys } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN } from "../support/serve-process.cjs";
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
  // The real service's one 401 detail, whatever is wrong with the key (a live-API capture).
  it.each([
    ["no Authorization header", undefined],
    ["another scheme", "Basic dXNlcjpwYXNz"],
    ["a Bearer without key", "Bearer "],
    ["an unknown key", "Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
  ])("answers 401 with WWW-Authenticate for %s", async (_case, authorization) => {
    const response = await apiRequest(`${server.url}/api/v1/sources`, { headers: authorization === undefined ? {} : { authorization } });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm=/);
    expect(response.body.errors[0]).toMatchObject({ status: "401", title: "Unauthorized" });
    expect(response.body.errors[0].detail).toBe("A valid API key is required and could not be determined.");
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

  it("refuses a key on the very next request once the CLI (another process) revokes it, and accepts a key the CLI created at once", async () => {
    const cli = (...args: string[]) => spawnSync(process.execPath, [CLI_BIN, ...args, "--db", server.dbPath], { encoding: "utf8" });
    const created = cli("keys", "create", "--account", TEST_ACCOUNT, "--permission", "Sources", "--json");
    expect(created.status, created.stderr).toBe(0);
    const fresh = JSON.parse(created.stdout) as { id: string; key: string };
    const sources = `${server.url}/api/v1/sources`;
    expect((await apiRequest(sources, { key: fresh.key })).status).toBe(200);
    expect((await apiRequest(sources, { key: fresh.key })).status).toBe(200);
    const revoked = cli("keys", "revoke", fresh.id);
    expect(revoked.status, revoked.stderr).toBe(0);
    const response = await apiRequest(sources, { key: fresh.key });
    expect(response.status).toBe(401);
    expect(response.body.errors[0].detail).toBe("A valid API key is required and could not be determined.");
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

describe("permissions: purging needs Purge or Account Admin", () => {
  for (const permission of PERMISSIONS) {
    const allowed = permission === "Purge" || permission === "Account Admin";
    it(`${permission}: ${allowed ? "allowed" : "403"} on POST /api/v1/purge`, async () => {
      const key = server.accountKey([permission], `perm-${permission.replace(/ /g, "-").toLowerCase()}`);
      // A host of no Source of that account: allowed keys get past the permission check to the 400.
      const body = { data: { type: "purges", attributes: { url: "https://nobody.example.org/a.jpg" } } };
      const response = await apiRequest(`${server.url}/api/v1/purge`, { method: "POST", key, body });
      if (allowed) {
        expect(response.status).toBe(400);
        expect(response.body.errors[0].detail).toMatch(/^url: the host/);
      } else {
        expect(response.status).toBe(403);
        expect(response.body.errors[0].detail).toContain('"Purge" permission');
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
    const patch = await apiRequest(`${server.url}/api/v1/sources/${sourceId}`, {
      method: "PATCH",
      key: otherKey,
      body: patchDocument(sourceId, { name: "hijack" }),
    });
    expect(patch.status).toBe(404);
    const list = await apiRequest(`${server.url}/api/v1/sources`, { key: otherKey });
    expect(list.body.data.map((s: { id: string }) => s.id)).not.toContain(sourceId);
    const mine = await apiRequest(`${server.url}/api/v1/sources/${sourceId}`, { key: server.adminKey });
    expect(mine.body.data.attributes.name).not.toBe("hijack");
  });
});
