// The OpenAPI document (GET /openapi.json): a valid OpenAPI 3.1 document generated from the route
// registry, and an accurate one: every operation is called until each documented status (but 500)
// has occurred, every answer's status is documented, and every JSON body validates against the
// documented schema.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { DEFAULT_DELIVERY_DOMAIN, JSONAPI_MEDIA_TYPE } from "@asset-delivery/sdk";
import { createAccount, createKey, generateReports, importUsage } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startTestServer, type TestServer } from "../support/server";
import { createDocument, minimalDeployment, patchDocument } from "./fixtures";

let server: TestServer;
let document: any;
let images: Server;
let imageUrl: string;
let clock = Date.parse("2024-05-02T10:00:00Z");

beforeAll(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-test-"));
  execFileSync("ffmpeg", [
    "-nostdin",
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    "testsrc=size=320x240",
    "-frames:v",
    "1",
    "-y",
    path.join(tmp, "a.png"),
  ]);
  const png = fs.readFileSync(path.join(tmp, "a.png"));
  fs.rmSync(tmp, { recursive: true, force: true });
  images = createServer((_request, response) => response.writeHead(200, { "content-type": "image/png" }).end(png));
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/a.png`;
  // The image is served on loopback: allowed only by the development option.
  server = await startTestServer({ rateLimits: "spec", now: () => clock, allowPrivateImageAddresses: true });
  const response = await fetch(`${server.url}/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  document = await response.json();
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => images.close(resolve));
});

/** Replaces every `$ref` into the document by what it points at. */
function resolve(node: any): any {
  if (Array.isArray(node)) return node.map(resolve);
  if (!node || typeof node !== "object") return node;
  if (typeof node.$ref === "string") {
    const target = node.$ref
      .slice(2)
      .split("/")
      .reduce((at: any, key: string) => at[key], document);
    return resolve(target);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(v)]));
}

describe("the document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    // An ES module: imported dynamically from this CommonJS test.
    const { Validator } = await import("@seriousme/openapi-schema-validator");
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
  });

  it("declares bearer authentication, needed by every operation", () => {
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.security).toEqual([{ bearer: [] }]);
  });

  it("has every route of the registry, with its parameters", () => {
    const operations = Object.entries(document.paths).flatMap(([p, ops]: [string, any]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const registry = server.app.routeRegistry.map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, "{$1}")}`);
    expect(operations.sort()).toEqual([...registry].sort());
    expect(operations).toEqual(
      expect.arrayContaining([
        "GET /api/v1/reports",
        "GET /api/v1/reports/{report_id}",
        "GET /api/v1/reports/{report_id}/files/{file_number}",
        "POST /v1/generations/video",
        "POST /api/v1/generations/video",
        "GET /api/v1/generations/video/{job_id}",
        "GET /v1/generations/video/{job_id}",
        "GET /api/v1/generations/video/{job_id}/result",
        "POST /api/v1/purge",
      ]),
    );
    const list = document.paths["/api/v1/reports"].get.parameters;
    const byName = Object.fromEntries(list.map((p: any) => [p.name, p]));
    expect(byName["filter[report_type]"].schema.enum).toContain("credit_analytics_mtd");
    expect(byName["filter[completed]"].schema.enum).toEqual(["true", "false"]);
    expect(byName["filter[or:report_type]"]).toBeDefined();
    expect(byName["page[size]"].schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
    expect(new RegExp(byName.sort.schema.pattern).test("-period_end,report_key")).toBe(true);
    expect(new RegExp(byName.sort.schema.pattern).test("name")).toBe(false);
    // The server's sort rule: each field at most once.
    expect(new RegExp(byName.sort.schema.pattern).test("report_key,-report_key")).toBe(false);
    expect(new RegExp(byName.sort.schema.pattern).test("period_end,period_start,report_key,report_type")).toBe(true);
    expect(document.paths["/api/v1/reports/{report_id}"].get.parameters.map((p: any) => p.name)).toEqual(["report_id", "fields[reports]"]);
  });

  it("carries writeOnly and readOnly from the sdk's schema metadata", () => {
    const body = JSON.stringify(document.paths["/api/v1/sources"].post.requestBody);
    expect(body).toMatch(/"s3_secret_key":\{[^}]*"writeOnly":true/);
    const response = JSON.stringify(
      document.paths["/api/v1/sources/{id}"]?.get?.responses ?? document.paths["/api/v1/sources/{source_id}"].get.responses,
    );
    expect(response).toMatch(/"password_set":\{[^}]*"readOnly":true/);
    expect(response).not.toMatch(/"s3_secret_key"/);
  });

  it("documents 429 with Retry-After only when rate limits are on", async () => {
    expect(resolve(document.paths["/api/v1/reports"].get.responses["429"]).headers["Retry-After"].schema).toEqual({
      type: "integer",
      minimum: 1,
    });
    const unlimited = await startTestServer({ rateLimits: "off" });
    try {
      const other = (await (await fetch(`${unlimited.url}/openapi.json`)).json()) as any;
      expect(other.paths["/api/v1/reports"].get.responses["429"]).toBeUndefined();
    } finally {
      await unlimited.close();
    }
  });
});

interface Probe {
  method: string;
  /** The documented path (template) and the concrete one. */
  template: string;
  url: string;
  key?: string | null;
  body?: unknown;
  contentType?: string;
  /** Run just before the probe is sent (e.g. the first of two purges). */
  setup?: () => Promise<unknown>;
}

describe("accuracy against the running server", () => {
  const seen = new Map<string, Set<number>>();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();

  async function send(probe: Probe): Promise<Response> {
    const headers: Record<string, string> = { accept: JSONAPI_MEDIA_TYPE };
    if (probe.key) headers.authorization = `Bearer ${probe.key}`;
    let body: string | undefined;
    if (probe.body !== undefined) {
      body = typeof probe.body === "string" ? probe.body : JSON.stringify(probe.body);
      headers["content-type"] = probe.contentType ?? "application/json";
    }
    return fetch(`${server.url}${probe.url}`, { method: probe.method, headers, body });
  }

  /** Sends the probe and checks the answer against the document; records the status seen. */
  async function check(probe: Probe, expected: number): Promise<void> {
    await probe.setup?.();
    const response = await send(probe);
    const label = `${probe.method} ${probe.url} → ${response.status}`;
    expect(response.status, label).toBe(expected);
    const documented = resolve(document.paths[probe.template][probe.method.toLowerCase()].responses[String(response.status)]);
    expect(documented, `${label} is documented`).toBeDefined();
    const [mediaType, { schema }] = Object.entries(documented.content)[0] as [string, any];
    expect(response.headers.get("content-type")?.split(";")[0], label).toBe(mediaType);
    if (mediaType.includes("json")) {
      const validatorKey = `${probe.method} ${probe.template} ${response.status}`;
      const validate = validators.get(validatorKey) ?? validators.set(validatorKey, ajv.compile(schema)).get(validatorKey)!;
      const json = await response.json();
      expect(validate(json) ? [] : validate.errors, `${label} matches its schema`).toEqual([]);
    } else {
      expect((await response.arrayBuffer()).byteLength, label).toBeGreaterThan(0);
    }
    for (const header of Object.keys(documented.headers ?? {}))
      expect(response.headers.get(header), `${label} sends ${header}`).not.toBeNull();
    const operation = `${probe.method} ${probe.template}`;
    if (!seen.has(operation)) seen.set(operation, new Set());
    seen.get(operation)!.add(response.status);
  }

  it("every documented status but 500 occurs, and every answer is documented and valid", async () => {
    const account = "openapi-owner";
    const keyOf = (permissions: Parameters<TestServer["accountKey"]>[0]) => server.accountKey(permissions, account);
    const admin = keyOf(["Account Admin"]);
    const analyticsOnly = keyOf(["Analytics"]);
    const sourcesOnly = keyOf(["Sources"]);
    const purgeOnly = keyOf(["Purge"]);
    const stranger = server.accountKey(["Account Admin"], "openapi-stranger");
    createAccount(server.db, { name: "openapi-no-video", plan: "enterprise", video: false });
    const noVideo = createKey(server.db, { account: "openapi-no-video", permissions: ["Account Admin"] }).key;

    // Fixtures: a Source, a day of usage and its reports, a rendered video.
    const created = await apiRequest(`${server.url}/api/v1/sources`, {
      method: "POST",
      key: admin,
      body: createDocument({ name: "documented", deployment: minimalDeployment("s3") }),
    });
    const sourceId = created.body.data.id;
    importUsage(
      server.db,
      JSON.stringify({
        timestamp: "2024-05-01T10:00:00Z",
        source_id: sourceId,
        path: "/a.jpg",
        status: 200,
        bytes: 100,
        cache_hit: false,
        response_ms: 9,
      }),
    );
    generateReports(server.db, { date: "2024-05-01", account, dataDir: server.app.appOptions.dataDir, now: () => clock });
    const reportId = (await apiRequest(`${server.url}/api/v1/reports`, { key: admin })).body.data[0].id;
    const videoBody = { url: imageUrl, prompt: "a pan", model: "veo2", duration: 1 };
    const jobId = (await apiRequest(`${server.url}/v1/generations/video`, { method: "POST", key: admin, body: videoBody })).body.data.id;
    for (let i = 0; i < 100; i++) {
      clock += 1_000;
      const polled = await apiRequest(`${server.url}/api/v1/generations/video/${jobId}`, { key: admin });
      if (polled.body.data.attributes.status !== "preparing") break;
      await new Promise((r) => setTimeout(r, 100));
    }

    const tooLarge = "x".repeat(1_100_000);
    const source = (name: string) => createDocument({ name, deployment: minimalDeployment("webproxy") });
    const sourcePath = Object.keys(document.paths).find((p) => /^\/api\/v1\/sources\/\{\w+\}$/.test(p))!;
    const unknownId = "Z".repeat(24);

    const probes: [Probe, number][] = [];
    const add = (probe: Omit<Probe, "key">, cases: [string | null, number, Partial<Probe>?][]) => {
      for (const [key, status, extra] of cases) probes.push([{ ...probe, key, ...extra }, status]);
    };
    add({ method: "GET", template: "/api/v1/reports", url: "/api/v1/reports" }, [
      [analyticsOnly, 200],
      [analyticsOnly, 200, { url: "/api/v1/reports?fields[reports]=report_key" }],
      [analyticsOnly, 400, { url: "/api/v1/reports?page[size]=0" }],
      [null, 401],
      [sourcesOnly, 403],
    ]);
    add({ method: "GET", template: "/api/v1/reports/{report_id}", url: `/api/v1/reports/${reportId}` }, [
      [analyticsOnly, 200],
      [analyticsOnly, 200, { url: `/api/v1/reports/${reportId}?fields[reports]=files` }],
      [analyticsOnly, 404, { url: "/api/v1/reports/nope" }],
      [null, 401],
      [sourcesOnly, 403],
    ]);
    add({ method: "GET", template: "/api/v1/reports/{report_id}/files/{file_number}", url: `/api/v1/reports/${reportId}/files/1` }, [
      [analyticsOnly, 200],
      [analyticsOnly, 404, { url: `/api/v1/reports/${reportId}/files/2` }],
      [null, 401],
      [sourcesOnly, 403],
    ]);
    for (const prefix of ["/v1", "/api/v1"]) {
      add({ method: "POST", template: `${prefix}/generations/video`, url: `${prefix}/generations/video`, body: videoBody }, [
        [purgeOnly, 200],
        [purgeOnly, 400, { body: { ...videoBody, duration: 0 } }],
        [purgeOnly, 400, { body: "{not json" }],
        [null, 401],
        [noVideo, 403],
        [purgeOnly, 413, { body: { ...videoBody, prompt: tooLarge } }],
        [purgeOnly, 415, { body: "text", contentType: "text/plain" }],
      ]);
      add({ method: "GET", template: `${prefix}/generations/video/{job_id}`, url: `${prefix}/generations/video/${jobId}` }, [
        [purgeOnly, 200],
        [stranger, 404],
        [null, 401],
      ]);
    }
    add({ method: "GET", template: "/api/v1/generations/video/{job_id}/result", url: `/api/v1/generations/video/${jobId}/result` }, [
      [purgeOnly, 200],
      [stranger, 404],
      [null, 401],
    ]);
    // The Sources operations, documented by the same generator.
    add({ method: "GET", template: "/api/v1/sources", url: "/api/v1/sources" }, [
      [sourcesOnly, 200],
      [sourcesOnly, 400, { url: "/api/v1/sources?sort=bogus" }],
      [null, 401],
      [analyticsOnly, 403],
    ]);
    add({ method: "POST", template: "/api/v1/sources", url: "/api/v1/sources", body: source("probe") }, [
      [sourcesOnly, 201],
      [sourcesOnly, 400, { body: source("") }],
      [null, 401],
      [analyticsOnly, 403],
      [sourcesOnly, 413, { body: source(tooLarge) }],
      [sourcesOnly, 415, { body: "x", contentType: "text/plain" }],
    ]);
    add({ method: "GET", template: sourcePath, url: `/api/v1/sources/${sourceId}` }, [
      [sourcesOnly, 200],
      [sourcesOnly, 404, { url: `/api/v1/sources/${unknownId}` }],
      [null, 401],
      [analyticsOnly, 403],
    ]);
    add({ method: "PATCH", template: sourcePath, url: `/api/v1/sources/${sourceId}`, body: patchDocument(sourceId, { name: "renamed" }) }, [
      [sourcesOnly, 200],
      [sourcesOnly, 400, { body: patchDocument(sourceId, { name: "" }) }],
      [sourcesOnly, 404, { url: `/api/v1/sources/${unknownId}`, body: patchDocument(unknownId, { name: "x" }) }],
      [null, 401],
      [analyticsOnly, 403],
      [sourcesOnly, 413, { body: patchDocument(sourceId, { name: tooLarge }) }],
      [sourcesOnly, 415, { body: "x", contentType: "text/plain" }],
    ]);

    const purgeHost = `https://${created.body.data.attributes.deployment.service_subdomains[0]}.${DEFAULT_DELIVERY_DOMAIN}`;
    const purgeOf = (path: string) => ({ data: { type: "purges", attributes: { url: `${purgeHost}${path}` } } });
    add({ method: "POST", template: "/api/v1/purge", url: "/api/v1/purge", body: purgeOf("/a.jpg") }, [
      [purgeOnly, 200],
      [purgeOnly, 400, { body: { data: { type: "purges", attributes: { url: "https://elsewhere.example.org/a.jpg" } } } }],
      [null, 401],
      [sourcesOnly, 403],
      [
        purgeOnly,
        409,
        {
          body: purgeOf("/twice.jpg"),
          setup: () => send({ method: "POST", template: "", url: "/api/v1/purge", key: purgeOnly, body: purgeOf("/twice.jpg") }),
        },
      ],
      [purgeOnly, 413, { body: purgeOf(`/${tooLarge}`) }],
      [purgeOnly, 415, { body: "x", contentType: "text/plain" }],
    ]);

    for (const [probe, status] of probes) {
      clock += 3_600_000; // every bucket full again: the probes themselves stay within the limits
      await check(probe, status);
    }

    // 429 for every operation: with the clock held, a new key of the account exhausts its bucket
    // (default class 4 per second; creating and updating Sources 60 per hour).
    for (const [probe, status] of probes.filter(([, s]) => s < 300)) {
      const operation = `${probe.method} ${probe.template}`;
      if (seen.get(operation)?.has(429)) continue;
      const key = keyOf(["Account Admin"]);
      for (let i = 0; ; i++) {
        // Creations need a new name, purges a new URL (the same one again is a 409).
        const body =
          operation === "POST /api/v1/sources"
            ? source(`limit ${i}`)
            : operation === "POST /api/v1/purge"
              ? purgeOf(`/limit-${i}.jpg`)
              : probe.body;
        const response = await send({ ...probe, key, body });
        await response.arrayBuffer();
        if (response.status === 429) break;
        expect(response.status, operation).toBe(status);
        expect(i, `${operation} was never limited`).toBeLessThan(70);
      }
      await check({ ...probe, key, body: operation === "POST /api/v1/sources" ? source("limit") : probe.body }, 429);
    }

    for (const [path, operations] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        const documented = Object.keys(operation.responses)
          .map(Number)
          .filter((status) => status !== 500);
        expect([...(seen.get(name) ?? [])].sort(), name).toEqual(documented.sort());
      }
    }
  });
});
