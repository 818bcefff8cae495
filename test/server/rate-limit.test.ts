// Rate limits (spec 8) per account and endpoint class: default 4 per second, create Source and
// update Source 60 per hour each; 429 with a JSON:API error and Retry-After; "off" disables them.
// The server's buckets are per account, so each test spends the budget of an account of its own.
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allMigrations, createKey, ensureAccount, migrate, openDatabase } from "@asset-delivery/server";
import { apiRequest, startTestServer, type TestServer } from "../support/server";
import { createDocument, minimalDeployment, patchDocument, sourceClient, uniqueLabel } from "./fixtures";

let clock = Date.parse("2024-01-01T00:00:00Z");
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: "spec", now: () => clock });
});
afterAll(() => server.close());

const getReports = (key: string) => apiRequest(`${server.url}/api/v1/reports`, { key });
/** A key of an account no other test uses. */
const freshAccount = (on: TestServer = server) => {
  const account = uniqueLabel("account");
  return (permissions: Parameters<TestServer["accountKey"]>[0]) => on.accountKey(permissions, account);
};

function expectTooManyRequests(response: { status: number; headers: Headers; body: any }, retryAfter: number): void {
  expect(response.status).toBe(429);
  expect(response.headers.get("retry-after")).toBe(String(retryAfter));
  expect(response.body.errors[0]).toMatchObject({ status: "429", title: "TooManyRequests" });
  expect(response.body.jsonapi).toEqual({ version: "1.0" });
}

describe("the default limit: 4 per second", () => {
  it("admits a burst of 4, then 429 until a token has refilled (one per 250 ms)", async () => {
    const key = freshAccount()(["Account Admin"]);
    for (let i = 0; i < 4; i++) expect((await getReports(key)).status).toBe(200);
    const refused = await getReports(key);
    expectTooManyRequests(refused, 1);
    expect(refused.body.errors[0].detail).toMatch(/4 such requests per second/);
    clock += 240;
    expectTooManyRequests(await getReports(key), 1);
    clock += 10;
    expect((await getReports(key)).status).toBe(200);
    expectTooManyRequests(await getReports(key), 1);
    clock += 1_000;
    for (let i = 0; i < 4; i++) expect((await getReports(key)).status).toBe(200);
  });

  it("counts per account: two keys of one account share one budget, another account has its own", async () => {
    const keyOf = freshAccount();
    const [first, second] = [keyOf(["Account Admin"]), keyOf(["Analytics"])];
    const other = freshAccount()(["Account Admin"]);
    for (let i = 0; i < 2; i++) expect((await getReports(first)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await getReports(second)).status).toBe(200);
    // The account's 4 are spent, whichever key spent them.
    const refused = await getReports(second);
    expectTooManyRequests(refused, 1);
    expect(refused.body.errors[0].detail).toMatch(/this account may make 4 such requests per second/);
    expectTooManyRequests(await getReports(first), 1);
    for (let i = 0; i < 4; i++) expect((await getReports(other)).status).toBe(200);
    expectTooManyRequests(await getReports(other), 1);
  });

  it("counts video and report endpoints in the default class", async () => {
    const key = freshAccount()(["Account Admin"]);
    for (let i = 0; i < 2; i++) expect((await getReports(key)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await apiRequest(`${server.url}/api/v1/generations/video/none`, { key })).status).toBe(404);
    expectTooManyRequests(await apiRequest(`${server.url}/v1/generations/video/none`, { key }), 1);
  });

  it("does not count requests refused for their key, nor the OpenAPI document", async () => {
    for (let i = 0; i < 6; i++) expect((await getReports("A".repeat(40))).status).toBe(401);
    for (let i = 0; i < 6; i++) expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
  });
});

describe("create and update Source: 60 per hour each", () => {
  it("admits 60 creations an hour, independent of the default class and of updates", async () => {
    const keyOf = freshAccount();
    const key = keyOf(["Sources"]);
    const sources = sourceClient(server, key);
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push(await sources.createOk({ name: `limited ${i}`, deployment: minimalDeployment("webproxy") }));
    const refused = await sources.create({ name: "one too many", deployment: minimalDeployment("webproxy") });
    // One token per minute: the next creation is a minute away.
    expectTooManyRequests(refused, 60);
    expect(refused.body.errors[0].detail).toMatch(/60 such requests per hour/);
    // Listing (default class) and updating (its own class) are unaffected.
    expect((await sources.list()).status).toBe(200);
    for (let i = 0; i < 60; i++) expect((await sources.patch(ids[i]!, { name: `renamed ${i}` })).status).toBe(200);
    const update = await sources.patch(ids[0]!, { name: "again" });
    expectTooManyRequests(update, 60);
    // Another key of the same account shares the account's buckets; another account has its own.
    const sameAccount = sourceClient(server, keyOf(["Sources"]));
    expectTooManyRequests(await sameAccount.create({ name: "same account", deployment: minimalDeployment("webproxy") }), 60);
    expectTooManyRequests(await sameAccount.patch(ids[1]!, { name: "same account" }), 60);
    const otherAccount = sourceClient(server, freshAccount()(["Sources"]));
    const otherId = await otherAccount.createOk({ name: "other account", deployment: minimalDeployment("webproxy") });
    expect((await otherAccount.patch(otherId, { name: "other account renamed" })).status).toBe(200);

    clock += 59_000;
    expectTooManyRequests(await sources.create({ name: "not yet", deployment: minimalDeployment("webproxy") }), 1);
    clock += 1_000;
    expect((await sources.create({ name: "a minute later", deployment: minimalDeployment("webproxy") })).status).toBe(201);
    // 31 minutes after the burst, 31 updates have refilled.
    clock += 30 * 60_000;
    for (let i = 0; i < 31; i++) expect((await sources.patch(ids[i]!, { name: `half an hour later ${i}` })).status).toBe(200);
    expectTooManyRequests(await sources.patch(ids[0]!, { name: "too soon" }), 60);
  });
});

/** A request whose path goes out byte for byte (fetch would drop a fragment). */
function rawRequest(method: string, path: string, key: string, body: unknown): Promise<{ status: number; retryAfter?: string }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(server.url);
    const request = http.request(
      {
        hostname,
        port,
        method,
        path,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/vnd.api+json", "content-length": Buffer.byteLength(text) },
      },
      (response) => {
        response.resume().on("end", () => resolve({ status: response.statusCode!, retryAfter: response.headers["retry-after"] }));
      },
    );
    request.on("error", reject).end(text);
  });
}

describe("the class is the matched route's, whatever the URL text", () => {
  it("counts an encoded path or one with a fragment as create or update Source", async () => {
    const key = freshAccount()(["Sources"]);
    const create = (path: string, i: number) =>
      rawRequest("POST", path, key, createDocument({ name: `encoded ${i}`, deployment: minimalDeployment("webproxy") }));
    // The Source to patch below is the account's first creation.
    const id = await sourceClient(server, key).createOk({ name: "patched", deployment: minimalDeployment("webproxy") });
    // Far more than the default class's burst of 4: all admitted as creations.
    for (let i = 1; i < 30; i++) expect((await create("/api/v1/%73ources", i)).status).toBe(201);
    for (let i = 30; i < 60; i++) expect((await create("/api/v1/sources#x", i)).status).toBe(201);
    // The 61st, whichever spelling, is refused for a minute: the creation class, not the default.
    expect(await create("/api/v1/%73ources", 61)).toEqual({ status: 429, retryAfter: "60" });
    expect(await create("/api/v1/sources#x", 62)).toEqual({ status: 429, retryAfter: "60" });
    expect(await create("/api/v1/sources", 63)).toEqual({ status: 429, retryAfter: "60" });

    const patch = (path: string, i: number) => rawRequest("PATCH", path, key, patchDocument(id, { name: `renamed ${i}` }));
    for (let i = 0; i < 30; i++) expect((await patch(`/api/v1/%73ources/${id}`, i)).status).toBe(200);
    for (let i = 30; i < 60; i++) expect((await patch(`/api/v1/sources/${id}#x`, i)).status).toBe(200);
    expect(await patch(`/api/v1/sources/${id}`, 61)).toEqual({ status: 429, retryAfter: "60" });
  });
});

describe("the hourly windows across a restart", () => {
  it("keeps a spent create and update budget when the server restarts on the same data; the per-second budget starts full", async () => {
    const first = await startTestServer({ rateLimits: "spec", now: () => clock });
    const dbPath = first.dbPath;
    const key = first.accountKey(["Sources"]);
    // Another key of the account, first used after the restart: the stored window is the account's.
    const laterKey = first.accountKey(["Sources"]);
    let id: string;
    try {
      const sources = sourceClient(first, key);
      id = await sources.createOk({ name: "before restart 0", deployment: minimalDeployment("webproxy") });
      for (let i = 1; i < 60; i++) await sources.createOk({ name: `before restart ${i}`, deployment: minimalDeployment("webproxy") });
      for (let i = 0; i < 60; i++) expect((await sources.patch(id, { name: `renamed ${i}` })).status).toBe(200);
      expectTooManyRequests(await sources.create({ name: "one too many", deployment: minimalDeployment("webproxy") }), 60);
    } finally {
      await first.close({ keepData: true });
    }
    const second = await startTestServer({ rateLimits: "spec", now: () => clock, dbPath });
    try {
      const sources = sourceClient(second, key);
      expectTooManyRequests(await sources.create({ name: "after restart", deployment: minimalDeployment("webproxy") }), 60);
      expectTooManyRequests(await sources.patch(id, { name: "after restart" }), 60);
      const later = sourceClient(second, laterKey);
      expectTooManyRequests(await later.create({ name: "after restart, other key", deployment: minimalDeployment("webproxy") }), 60);
      expectTooManyRequests(await later.patch(id, { name: "after restart, other key" }), 60);
      for (let i = 0; i < 4; i++) expect((await sources.list()).status).toBe(200);
      // The stored bucket refills with the clock as before: a minute buys one creation.
      clock += 60_000;
      expect((await sources.create({ name: "a minute after restart", deployment: minimalDeployment("webproxy") })).status).toBe(201);
      expectTooManyRequests(await sources.create({ name: "not yet", deployment: minimalDeployment("webproxy") }), 60);
    } finally {
      await second.close();
      fs.rmSync(dirname(dbPath), { recursive: true, force: true });
    }
  });
});

describe("a database whose stored windows were counted per key (before core-007)", () => {
  it("merges each account's key buckets into one that has spent what they spent together", async () => {
    const dir = fs.mkdtempSync(join(os.tmpdir(), "asset-delivery-rate-limit-"));
    const dbPath = join(dir, "asset-delivery.db");
    // The per-key era's schema, with the key columns of later migrations (core-008's names, the
    // dashboard's key creators) so that today's createKey can write keys into it.
    const keyColumns = ["core-008-api-key-names", "dashboard-003-key-creators"];
    const perKeyEra = [
      ...allMigrations.slice(0, allMigrations.findIndex((m) => m.id === "core-006-sources-deploy-starts-at") + 1),
      ...allMigrations.filter((m) => keyColumns.includes(m.id)),
    ];
    const old = openDatabase(dbPath);
    migrate(old, perKeyEra);
    const keyIn = (account: string) => {
      ensureAccount(old, { name: account, plan: "enterprise", video: false });
      return createKey(old, { account, permissions: ["Sources"], userName: `${account}-user` });
    };
    const [first, second, neighbour] = [keyIn("spent"), keyIn("spent"), keyIn("neighbour")];
    const insert = old.prepare("INSERT INTO rate_limit_buckets (caller, endpoint_class, tokens, updated_at) VALUES (?, ?, ?, ?)");
    // One key spent 30 creations, the other 20 of them a minute earlier (one has refilled since): 11 are left.
    insert.run(first.id, "createSource", 30, clock);
    insert.run(second.id, "createSource", 40, clock - 60_000);
    insert.run(neighbour.id, "updateSource", 0, clock);
    old.close();

    const upgraded = await startTestServer({ rateLimits: "spec", now: () => clock, dbPath });
    try {
      const spent = sourceClient(upgraded, second.key);
      for (let i = 0; i < 11; i++) await spent.createOk({ name: `after upgrade ${i}`, deployment: minimalDeployment("webproxy") });
      expectTooManyRequests(
        await sourceClient(upgraded, first.key).create({ name: "one too many", deployment: minimalDeployment("webproxy") }),
        60,
      );
      // The neighbour's spent updates stay spent; its creations were never touched.
      const next = sourceClient(upgraded, neighbour.key);
      const id = await next.createOk({ name: "neighbour", deployment: minimalDeployment("webproxy") });
      expectTooManyRequests(await next.patch(id, { name: "renamed" }), 60);
    } finally {
      await upgraded.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rateLimits: "off"', () => {
  it("admits any rate", async () => {
    const unlimited = await startTestServer({ rateLimits: "off", now: () => clock });
    try {
      const key = unlimited.accountKey(["Analytics"]);
      const statuses = await Promise.all(
        Array.from({ length: 12 }, () => apiRequest(`${unlimited.url}/api/v1/reports`, { key }).then((r) => r.status)),
      );
      expect(statuses).toEqual(Array(12).fill(200));
    } finally {
      await unlimited.close();
    }
  });
});

describe("a shorter hour (serve --rate-limit-hour)", () => {
  it("counts the hourly classes per the given window, the same counts", async () => {
    let now = Date.parse("2024-01-01T00:00:00Z");
    const short = await startTestServer({ rateLimits: "spec", rateLimitHourMs: 60_000, now: () => now });
    try {
      const key = freshAccount(short)(["Sources"]);
      const sources = sourceClient(short, key);
      const ids: string[] = [];
      for (let i = 0; i < 60; i++) ids.push(await sources.createOk({ name: `short ${i}`, deployment: minimalDeployment("webproxy") }));
      const refused = await sources.create({ name: "one too many", deployment: minimalDeployment("webproxy") });
      // One token a second now: 60 per minute.
      expectTooManyRequests(refused, 1);
      expect(refused.body.errors[0].detail).toMatch(/60 such requests per minute/);
      expect(refused.body.errors[0].meta).toMatchObject({ endpoint_class: "createSource", limit: 60, interval_ms: 60_000 });
      now += 1_000;
      expect((await sources.create({ name: "a second later", deployment: minimalDeployment("webproxy") })).status).toBe(201);
    } finally {
      await short.close();
    }
  });
});
