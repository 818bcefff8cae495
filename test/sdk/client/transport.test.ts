// The request core against a real loopback server: headers, error mapping, timeouts, network
// failures, response validation, keep-alive and the hooks.
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  createClient,
  MethodNotAllowedError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  type ResponseInfo,
  type RequestInfo,
} from "@asset-delivery/sdk";
import { closedPort, sendJson, startTestServer, type TestServer } from "../../support/http-test-server";
import { errorDocument, single, sourceResource } from "../../support/api-documents";

const API_KEY = "SecretKey0123456789";
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("request core", () => {
  it("sends the JSON:API media type, the bearer key and the user agent", async () => {
    const source = sourceResource();
    server = await startTestServer((_, res) => sendJson(res, 200, single(source)));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, userAgent: "tests/1" });
    const got = await client.sources.get(source.id);
    expect(got).toEqual(source);
    const [request] = server.requests;
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe(`/api/v1/sources/${source.id}`);
    expect(request?.headers.accept).toBe("application/vnd.api+json");
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers["user-agent"]).toBe("tests/1");
    await client.close();
  });

  it("keeps a path prefix of the base URL", async () => {
    const source = sourceResource();
    server = await startTestServer((_, res) => sendJson(res, 200, single(source)));
    const client = createClient({ baseUrl: `${server.url}/gateway/`, apiKey: API_KEY });
    await client.sources.get(source.id);
    expect(server.requests[0]?.path).toBe(`/gateway/api/v1/sources/${source.id}`);
    await client.close();
  });

  it("reuses kept-alive connections for sequential requests", async () => {
    const source = sourceResource();
    server = await startTestServer((_, res) => sendJson(res, 200, single(source)));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, pacing: false });
    for (let i = 0; i < 10; i++) await client.sources.get(source.id);
    expect(server.requests).toHaveLength(10);
    // undici may open a second socket while the first is being released; never one per request.
    expect(server.connections).toBeLessThanOrEqual(2);
    await client.close();
  });

  it.each([
    [400, BadRequestError, "ValidationError"],
    [401, AuthenticationError, "Unauthorized"],
    [403, PermissionError, "Forbidden"],
    [404, NotFoundError, "NotFound"],
    [405, MethodNotAllowedError, "MethodNotAllowed"],
    [429, RateLimitError, "TooManyRequests"],
    [500, ServerError, "InternalServerError"],
    [503, ServerError, "ServiceUnavailable"],
  ] as const)("maps %i to %s with every error object", async (status, ErrorClass, title) => {
    server = await startTestServer((_, res) => sendJson(res, status, errorDocument(status, title, `detail of ${status}`, `req-${status}`)));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: false });
    const error = await client.sources.get("a".repeat(24)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(status);
    expect(apiError.title).toBe(title);
    expect(apiError.detail).toBe(`detail of ${status}`);
    expect(apiError.requestId).toBe(`req-${status}`);
    expect(apiError.errors).toHaveLength(1);
    expect(apiError.method).toBe("GET");
    expect(apiError.path).toBe(`/api/v1/sources/${"a".repeat(24)}`);
    expect(apiError.message).toContain(`GET /api/v1/sources/${"a".repeat(24)} failed with ${status} ${title}`);
    expect(JSON.stringify(apiError)).not.toContain(API_KEY);
    expect(apiError.message).not.toContain(API_KEY);
    expect(apiError.stack).not.toContain(API_KEY);
    await client.close();
  });

  it("keeps every error object of a document with several", async () => {
    const document = errorDocument(400, "ValidationError", "name: is required");
    document.errors.push({ ...document.errors[0]!, detail: "deployment: is required" });
    server = await startTestServer((_, res) => sendJson(res, 400, document));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const error = (await client.sources.get("a".repeat(24)).catch((e: unknown) => e)) as BadRequestError;
    expect(error.errors.map((e) => e.detail)).toEqual(["name: is required", "deployment: is required"]);
    expect(error.detail).toBe("name: is required; deployment: is required");
    await client.close();
  });

  it("wraps an error body that is not JSON:API, with the request id header", async () => {
    server = await startTestServer((_, res) => res.writeHead(502, { "x-request-id": "gw-7" }).end("Bad gateway from proxy"));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: false });
    const error = (await client.sources.get("a".repeat(24)).catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.title).toBe("HTTP 502");
    expect(error.detail).toBe("Bad gateway from proxy");
    expect(error.requestId).toBe("gw-7");
    expect(error.errors).toEqual([]);
    await client.close();
  });

  it("reports a refused connection as a ConnectionError before sending", async () => {
    const client = createClient({ baseUrl: await closedPort(), apiKey: API_KEY, retry: false });
    const error = (await client.sources.get("a".repeat(24)).catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.phase).toBe("before-send");
    expect(error.code).toBe("ECONNREFUSED");
    expect(error.message).not.toContain(API_KEY);
    await client.close();
  });

  it("reports a dropped connection as a ConnectionError after sending", async () => {
    server = await startTestServer((_, res) => res.socket?.destroy());
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: false });
    const error = (await client.sources.get("a".repeat(24)).catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.phase).toBe("after-send");
    await client.close();
  });

  it("gives up after timeoutMs with a TimeoutError", async () => {
    server = await startTestServer(() => undefined); // never answers
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: false, timeoutMs: 150 });
    const started = performance.now();
    const error = (await client.sources.get("a".repeat(24)).catch((e: unknown) => e)) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.timeoutMs).toBe(150);
    expect(error.message).toContain("150 ms");
    expect(performance.now() - started).toBeLessThan(2_000);
    await client.close();
  });

  it("raises ResponseValidationError naming the field of a response that breaks the schema", async () => {
    const source = sourceResource();
    const broken = {
      ...source,
      attributes: { ...source.attributes, deployment: { ...source.attributes.deployment, cache_ttl_error: "300" } },
    };
    server = await startTestServer((_, res) => sendJson(res, 200, single(broken)));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const error = (await client.sources.get(source.id).catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((i) => i.path)).toContain("data.attributes.deployment.cache_ttl_error");
    expect(error.message).toContain("data.attributes.deployment.cache_ttl_error");
    await client.close();
  });

  it("checks a response's rules, not only its types: a repeated subdomain is refused", async () => {
    const source = sourceResource();
    const deployment = { ...source.attributes.deployment, service_subdomains: ["assets", "ASSETS"] };
    server = await startTestServer((_, res) => sendJson(res, 200, single({ ...source, attributes: { ...source.attributes, deployment } })));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    // More than once: the first parse and the later ones may take different paths through zod.
    for (let i = 0; i < 3; i++) {
      const error = (await client.sources.get(source.id).catch((e: unknown) => e)) as ResponseValidationError;
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.message).toContain('data.attributes.deployment.service_subdomains.1: must not repeat "ASSETS"');
    }
    await client.close();
  });

  it("raises ResponseValidationError for a body that is not JSON", async () => {
    server = await startTestServer((_, res) => res.writeHead(200).end("<html>hello</html>"));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const error = (await client.sources.get("a".repeat(24)).catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toContain("must be a JSON document");
    await client.close();
  });

  it("tolerates unknown members in responses", async () => {
    const source = sourceResource();
    const extended = { ...single({ ...source, links: { self: "x" }, attributes: { ...source.attributes, future_field: 1 } }), links: {} };
    server = await startTestServer((_, res) => sendJson(res, 200, extended));
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    expect(await client.sources.get(source.id)).toEqual(source);
    await client.close();
  });

  it("reports each request to the hooks without the API key", async () => {
    const source = sourceResource();
    server = await startTestServer((_, res) => sendJson(res, 200, single(source)));
    const requests: RequestInfo[] = [];
    const responses: ResponseInfo[] = [];
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      onRequest: (i) => requests.push(i),
      onResponse: (i) => responses.push(i),
    });
    await client.sources.get(source.id, { fields: ["name"] });
    expect(requests).toEqual([
      { method: "GET", path: `/api/v1/sources/${source.id}?fields%5Bsources%5D=name`, endpointClass: "default", attempt: 0 },
    ]);
    expect(responses).toHaveLength(1);
    expect(responses[0]).toMatchObject({ method: "GET", status: 200, endpointClass: "default", attempt: 0 });
    expect(responses[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify([requests, responses])).not.toContain(API_KEY);
    await client.close();
  });
});
