// What the emulator does because the real service does it (docs/contributing.md "Known differences from the
// real service"), in both response profiles: a disabled Source refuses updates, error objects and
// ids have the real shapes, every JSON object's keys are in alphabetical order, and a change's
// deployment starts after a lag. The minimal profile sends nothing the spec does not name.
import { createClient } from "@asset-delivery/sdk";
import { HEADERS_BEYOND_SPEC, PROFILES, type Profile } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startTestServer, type ApiResponse, type TestServer } from "../support/server";
import { minimalDeployment, sourceClient, type SourceClient } from "./fixtures";

const SPEC_ERROR_MEMBERS = ["detail", "id", "meta", "status", "title"];

/** Every object of a parsed JSON document whose keys are not in alphabetical order, by path. */
function unsortedObjects(value: unknown, path = "$"): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => unsortedObjects(item, `${path}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  const keys = Object.keys(value);
  const own = keys.join() === [...keys].sort().join() ? [] : [`${path}: ${keys.join(", ")}`];
  return [...own, ...keys.flatMap((key) => unsortedObjects((value as Record<string, unknown>)[key], `${path}.${key}`))];
}

describe.each(PROFILES)("the %s profile", (profile: Profile) => {
  let server: TestServer;
  let sources: SourceClient;
  beforeAll(async () => {
    server = await startTestServer({ profile, deployDelayMs: 0, deployLagMs: 0 });
    sources = sourceClient(server, server.adminKey);
  });
  afterAll(() => server.close());

  function expectError(response: ApiResponse, status: number) {
    expect(response.status, response.text).toBe(status);
    for (const error of response.body.errors) {
      expect(error.id).toMatch(/^[0-9a-f]{32}$/);
      expect(error.status).toBe(String(status));
      if (profile === "minimal") {
        expect(Object.keys(error)).toEqual(SPEC_ERROR_MEMBERS);
        expect(error.meta).toEqual({});
      } else {
        expect(Object.keys(error)).toEqual(expect.arrayContaining(SPEC_ERROR_MEMBERS));
      }
    }
    return response.body.errors as { detail: string; title: string }[];
  }

  describe("a disabled Source refuses updates", () => {
    async function disabledSource(name: string) {
      const deployment = minimalDeployment("webproxy");
      const id = await sources.createOk({ name, deployment });
      expect((await sources.patch(id, { enabled: false })).status).toBe(200);
      return { id, deployment };
    }

    it("refuses a rename, naming enabled and the rule, and changes nothing", async () => {
      const { id } = await disabledSource("renamed while disabled");
      const before = (await sources.get(id)).body.data.attributes;
      const [error] = expectError(await sources.patch(id, { name: "new name" }), 400);
      expect(error!.detail).toBe("enabled: a disabled Source cannot be updated: send enabled: true alone first, then the other changes");
      expect((await sources.get(id)).body.data.attributes).toEqual(before);
    });

    it("refuses enabling together with a change", async () => {
      const { id, deployment } = await disabledSource("enabled with a change");
      expectError(await sources.patch(id, { enabled: true, deployment: { ...deployment, cache_ttl_error: 77 } }), 400);
      expect((await sources.get(id)).body.data.attributes).toMatchObject({ enabled: false, deployment: { cache_ttl_error: 300 } });
    });

    it("refuses disabling together with a change", async () => {
      const deployment = minimalDeployment("webproxy");
      const id = await sources.createOk({ name: "disabled with a change", deployment });
      const [error] = expectError(await sources.patch(id, { enabled: false, name: "other" }), 400);
      expect(error!.detail).toBe(
        "enabled: a Source cannot be disabled together with other changes: send the changes first, then enabled: false alone",
      );
      expect((await sources.get(id)).body.data.attributes).toMatchObject({ enabled: true, name: "disabled with a change" });
    });

    it("accepts enabling alone, then the change; and a PATCH that resends the stored values", async () => {
      const { id, deployment } = await disabledSource("enabled first");
      // Resending what is stored is no change: a retried retirement or adoption still succeeds.
      expect((await sources.patch(id, { enabled: false, name: "enabled first", deployment })).status).toBe(200);
      expect((await sources.patch(id, { enabled: true, deployment })).status).toBe(200);
      const changed = await sources.patch(id, { name: "changed after", deployment: { ...deployment, cache_ttl_error: 77 } });
      expect(changed.body.data.attributes).toMatchObject({ enabled: true, name: "changed after", deployment: { cache_ttl_error: 77 } });
    });
  });

  describe("shapes of the real service", () => {
    it("401: the real detail", async () => {
      const [error] = expectError(await apiRequest(`${server.url}/api/v1/sources`, { key: "A".repeat(40) }), 401);
      expect(error!.detail).toBe("A valid API key is required and could not be determined.");
    });

    it("Source ids: 24 hexadecimal characters", async () => {
      expect(await sources.createOk({ name: "hex id", deployment: minimalDeployment("webproxy") })).toMatch(/^[0-9a-f]{24}$/);
    });

    it("every object's keys in alphabetical order: a Source, sparse fields, list pages, error documents", async () => {
      const id = await sources.createOk({
        name: "sorted",
        deployment: { ...minimalDeployment("s3"), default_params: { w: 100, auto: "format" }, secure_url_enabled: true },
      });
      const documents = [
        await sources.get(id),
        await sources.get(id, "fields[sources]=name,deployment.type,deployment.default_params,deployment.s3_bucket"),
        await sources.list("page[size]=5"),
        await apiRequest(`${server.url}/api/v1/reports`, { key: server.adminKey }),
        await sources.patch(id, { name: "" }),
        await sources.list("page[size]=many&sort=nothing"),
        await sources.get("f".repeat(24)),
      ];
      expect(documents.map((d) => d.status)).toEqual([200, 200, 200, 200, 400, 400, 404]);
      // JSON.parse keeps the order of the text's (non-numeric) keys.
      for (const document of documents) expect(unsortedObjects(JSON.parse(document.text))).toEqual([]);
    });
  });

  describe("headers", () => {
    it(profile === "minimal" ? "sends none of ours that the spec does not name" : "may send more than the spec names", async () => {
      const responses = [
        await sources.create({ name: "headers", deployment: minimalDeployment("webproxy") }), // Location
        await apiRequest(`${server.url}/api/v1/sources`), // WWW-Authenticate
        await apiRequest(`${server.url}/api/v1/sources`, { method: "PUT", key: server.adminKey }), // Allow
      ];
      expect(responses.map((r) => r.status)).toEqual([201, 401, 405]);
      const sent = responses.flatMap((response) => HEADERS_BEYOND_SPEC.filter((name) => response.headers.has(name)));
      if (profile === "minimal") expect(sent).toEqual([]);
      else expect(sent).toEqual(expect.arrayContaining(["location", "www-authenticate", "allow", "x-request-id"]));
    });

    it("a 429 (Retry-After only in full) never reaches an sdk caller within its retry budget", async () => {
      const limited = await startTestServer({ profile, rateLimits: "spec" });
      try {
        const calls = await Promise.all(
          Array.from({ length: 8 }, () => apiRequest(`${limited.url}/api/v1/sources`, { key: limited.adminKey })),
        );
        const refused = calls.find((call) => call.status === 429)!;
        expect(refused, "4 per second: some of 8 at once are refused").toBeDefined();
        expect(refused.headers.has("retry-after")).toBe(profile === "full");
        // The client without its own pacing, so that it meets the 429s and must back off.
        const client = createClient({
          baseUrl: limited.url,
          apiKey: limited.adminKey,
          pacing: false,
          retry: { baseDelayMs: 200, maxDelayMs: 1_000 },
        });
        const pages = await Promise.all(Array.from({ length: 8 }, () => client.sources.list()));
        expect(pages).toHaveLength(8);
        expect(limited.requestCount("GET", "/api/v1/sources")).toBeGreaterThan(16);
        await client.close();
      } finally {
        await limited.close();
      }
    });
  });

  describe("deployment lag", () => {
    it("a read right after a change still says deployed, with the date before it", async () => {
      const lagging = await startTestServer({ profile, deployDelayMs: 0, deployLagMs: 60_000 });
      try {
        const client = sourceClient(lagging, lagging.adminKey);
        const deployment = minimalDeployment("webproxy");
        const id = await client.createOk({ name: "lagging", deployment });
        expect((await client.get(id)).body.data.attributes).toMatchObject({ deployment_status: "deploying", date_deployed: null });
        lagging.db
          .prepare("UPDATE sources SET deploy_starts_at = 0, deploy_ready_at = 1000, previous_deployed_at = NULL WHERE id = ?")
          .run(id);
        expect((await client.get(id)).body.data.attributes).toMatchObject({ deployment_status: "deployed", date_deployed: 1 });
        const patched = await client.patch(id, { deployment: { ...deployment, cache_ttl_error: 5 } });
        expect(patched.body.data.attributes).toMatchObject({
          deployment_status: "deployed",
          date_deployed: 1,
          deployment: { cache_ttl_error: 5 },
        });
      } finally {
        await lagging.close();
      }
    });
  });
});
