// Creating a Source never creates two: after an ambiguous failure the client looks the Source up by
// its first service subdomain and only sends the create again if it is not there.
import { afterEach, describe, expect, it } from "vitest";
import {
  BadRequestError,
  ConnectionError,
  createClient,
  RequestValidationError,
  ServerError,
  type Source,
  type SourceCreateAttributes,
} from "@asset-delivery/sdk";
import { errorDocument, page, returnedDeployment, single, sourceId } from "../../support/api-documents";
import { FakeClock } from "../../support/fake-clock";
import { dropConnection, sendJson, startTestServer, type RecordedRequest, type TestServer } from "../../support/http-test-server";
import type { ServerResponse } from "node:http";

type Fault = "none" | "drop-after-write" | "500-before-write" | "500-after-write";

/** A Sources collection with the API's subdomain uniqueness, and one fault per POST, in order. */
async function sourcesServer(faults: Fault[]) {
  const stored: Source[] = [];
  const server = await startTestServer((req: RecordedRequest, res: ServerResponse) => {
    if (req.method === "GET" && req.path === "/api/v1/sources") {
      const wanted = req.query.get("filter[deployment.service_subdomains]") ?? "";
      const matches = stored.filter((s) => s.attributes.deployment.service_subdomains.some((d) => d.includes(wanted)));
      return sendJson(res, 200, page(matches, Number(req.query.get("page[number]") ?? 0), Number(req.query.get("page[size]") ?? 20)));
    }
    if (req.method === "POST" && req.path === "/api/v1/sources") {
      const fault = faults.shift() ?? "none";
      if (fault === "500-before-write") return sendJson(res, 500, errorDocument(500, "InternalServerError", "database unavailable"));
      const { attributes } = (JSON.parse(req.body) as { data: { attributes: SourceCreateAttributes } }).data;
      const taken = stored.find((s) => s.attributes.deployment.service_subdomains.includes(attributes.deployment.service_subdomains[0]!));
      if (taken)
        return sendJson(
          res,
          400,
          errorDocument(400, "ValidationError", "deployment.service_subdomains.0: is already used by another Source"),
        );
      const source: Source = {
        id: sourceId(),
        type: "sources",
        attributes: {
          name: attributes.name,
          enabled: true,
          deployment: returnedDeployment(attributes.deployment),
          deployment_status: "deploying",
          date_deployed: null,
        },
      };
      stored.push(source);
      if (fault === "drop-after-write") return dropConnection(res);
      if (fault === "500-after-write") return sendJson(res, 500, errorDocument(500, "InternalServerError", "timeout writing the response"));
      return sendJson(res, 201, single(source));
    }
    return sendJson(res, 404, errorDocument(404, "NotFound", "no route"));
  });
  return { server, stored };
}

const ATTRIBUTES: SourceCreateAttributes = { name: "Photos", deployment: { type: "webproxy", service_subdomains: ["photos", "pics"] } };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const methods = (s: TestServer) => s.requests.map((r) => `${r.method} ${r.path}`);

describe("sources.create", () => {
  it("sends a JSON:API create document and returns the created Source", async () => {
    const made = await sourcesServer([]);
    server = made.server;
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    const source = await client.sources.create(ATTRIBUTES);
    expect(source.attributes.name).toBe("Photos");
    const request = server.requests[0]!;
    expect(request.headers["content-type"]).toBe("application/vnd.api+json");
    const body = JSON.parse(request.body) as { data: { type: string; id?: string; attributes: Record<string, unknown> } };
    expect(body.data.type).toBe("sources");
    expect(body.data.id).toBeUndefined();
    expect(body.data.attributes).toMatchObject({
      name: "Photos",
      enabled: true,
      deployment: { type: "webproxy", service_subdomains: ["photos", "pics"] },
    });
  });

  it("drops read-only attributes sent back from a GET", async () => {
    const made = await sourcesServer([]);
    server = made.server;
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    await client.sources.create({ ...ATTRIBUTES, deployment_status: "deployed", date_deployed: 5 });
    const sent = (JSON.parse(server.requests[0]!.body) as { data: { attributes: Record<string, unknown> } }).data.attributes;
    expect(sent).not.toHaveProperty("deployment_status");
    expect(sent).not.toHaveProperty("date_deployed");
  });

  it("rejects bad attributes before sending, naming the field and the rule", async () => {
    const made = await sourcesServer([]);
    server = made.server;
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    const error = (await client.sources
      .create({ name: "Photos", deployment: { type: "webproxy", service_subdomains: ["photos"], cache_ttl_error: 0 } })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues.map(({ path, rule }) => ({ path, rule }))).toEqual([
      { path: "deployment.cache_ttl_error", rule: "must be from 1 to 31536000 seconds" },
    ]);
    expect(error.message).toBe("invalid Source attributes: deployment.cache_ttl_error: must be from 1 to 31536000 seconds");
    expect(server.requests).toHaveLength(0);
  });

  it("reconciles a connection lost after the POST was applied: returns the Source, creates no duplicate", async () => {
    const made = await sourcesServer(["drop-after-write"]);
    server = made.server;
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    const source = await client.sources.create(ATTRIBUTES);
    expect(made.stored).toHaveLength(1);
    expect(source).toEqual(made.stored[0]);
    expect(methods(server)).toEqual(["POST /api/v1/sources", "GET /api/v1/sources"]);
    expect(server.requests[1]!.query.get("filter[deployment.service_subdomains]")).toBe("photos");
  });

  it("reconciles a 500 returned after the write the same way", async () => {
    const made = await sourcesServer(["500-after-write"]);
    server = made.server;
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    expect(await client.sources.create(ATTRIBUTES)).toEqual(made.stored[0]);
    expect(made.stored).toHaveLength(1);
  });

  it("sends the create once more after a 500 before any write, once the lookup finds nothing", async () => {
    const made = await sourcesServer(["500-before-write"]);
    server = made.server;
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    const source = await client.sources.create(ATTRIBUTES);
    expect(made.stored).toEqual([source]);
    expect(methods(server)).toEqual(["POST /api/v1/sources", "GET /api/v1/sources", "POST /api/v1/sources"]);
  });

  it("gives up with the ServerError once 1 + maxRetries creates failed and nothing was created", async () => {
    const made = await sourcesServer(["500-before-write", "500-before-write", "500-before-write"]);
    server = made.server;
    const clock = new FakeClock();
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock, retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1_000 } });
    await expect(client.sources.create(ATTRIBUTES)).rejects.toBeInstanceOf(ServerError);
    expect(made.stored).toHaveLength(0);
    expect(methods(server).filter((m) => m.startsWith("POST"))).toHaveLength(3);
    // Each repeat waited for the client's backoff (jittered: half to all of 100 ms, then of 200 ms).
    expect(clock.sleeps).toHaveLength(2);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(clock.sleeps[1]).toBeGreaterThanOrEqual(100);
  });

  it("sends the create as often as the retry policy allows, so a run of failures still converges", async () => {
    const made = await sourcesServer(["500-before-write", "500-before-write", "500-before-write"]);
    server = made.server;
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    const source = await client.sources.create(ATTRIBUTES);
    expect(made.stored).toEqual([source]);
    expect(methods(server).filter((m) => m.startsWith("POST"))).toHaveLength(4);
  });

  it("with retries off, sends the create once (a lookup still reconciles an ambiguous failure)", async () => {
    const made = await sourcesServer(["500-before-write"]);
    server = made.server;
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock(), retry: false });
    await expect(client.sources.create(ATTRIBUTES)).rejects.toBeInstanceOf(ServerError);
    expect(methods(server)).toEqual(["POST /api/v1/sources", "GET /api/v1/sources"]);
  });

  it("returns the Source when the repeat is refused because the first POST landed late", async () => {
    const made = await sourcesServer(["drop-after-write"]);
    server = made.server;
    // The first lookup misses (the write is not visible yet); the repeat then meets the taken subdomain.
    const stored = made.stored;
    let hide = true;
    const realFilter = stored.filter.bind(stored);
    stored.filter = ((...args: Parameters<typeof realFilter>) =>
      hide ? ((hide = false), []) : realFilter(...args)) as typeof stored.filter;
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    const source = await client.sources.create(ATTRIBUTES);
    expect(stored).toHaveLength(1);
    expect(source.id).toBe(stored[0]!.id);
    expect(methods(server)).toEqual(["POST /api/v1/sources", "GET /api/v1/sources", "POST /api/v1/sources", "GET /api/v1/sources"]);
  });

  it("does not take over another Source that holds the subdomain", async () => {
    const made = await sourcesServer(["500-before-write"]);
    server = made.server;
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    await client.sources.create({ name: "Someone else", deployment: { type: "webproxy", service_subdomains: ["photos"] } });
    const error = await client.sources.create(ATTRIBUTES).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(made.stored.map((s) => s.attributes.name)).toEqual(["Someone else"]);
  });

  it("does not take over a Source of the same name whose annotation is not the one this create sent", async () => {
    // The second create's POST fails ambiguously: the lookup then finds the other stack's Source.
    const made = await sourcesServer(["none", "500-before-write"]);
    server = made.server;
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    const marked = (mark: string): SourceCreateAttributes => ({
      ...ATTRIBUTES,
      deployment: { ...ATTRIBUTES.deployment, annotation: mark },
    });
    // Another stack's Source: same name, same subdomain, its own mark.
    await client.sources.create(marked("[pulumi-create:prod]"));
    const error = await client.sources.create(marked("[pulumi-create:staging]")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(made.stored.map((s) => s.attributes.deployment.annotation)).toEqual(["[pulumi-create:prod]"]);
  });

  it("does not reconcile a plain validation error from the server", async () => {
    const made = await sourcesServer([]);
    server = made.server;
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    await client.sources.create(ATTRIBUTES);
    await expect(client.sources.create(ATTRIBUTES)).rejects.toBeInstanceOf(BadRequestError);
    expect(methods(server)).toEqual(["POST /api/v1/sources", "POST /api/v1/sources"]);
  });

  it("surfaces a lost connection when the lookup itself cannot reach the server", async () => {
    server = await startTestServer((_, res) => dropConnection(res));
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock(), retry: { maxRetries: 1 } });
    await expect(client.sources.create(ATTRIBUTES)).rejects.toBeInstanceOf(ConnectionError);
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });
});
