// Every failure is a JSON:API error document (spec 7) with the request id; unknown paths 404,
// unknown methods 405 with Allow, unsupported media types 415, malformed JSON 400.
import { errorDocumentSchema, fieldIssue, JSONAPI_MEDIA_TYPE } from "@asset-delivery/sdk";
import { validationFailed } from "@asset-delivery/server";
import { request, type Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startTestServer, type ApiResponse, type TestServer } from "../support/server";
import { createDocument, minimalDeployment } from "./fixtures";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function expectErrorDocument(response: ApiResponse, status: number, title: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe(JSONAPI_MEDIA_TYPE);
  const document = errorDocumentSchema.parse(response.body);
  const requestId = response.headers.get("x-request-id");
  // 32 hexadecimal characters, as the real service's request ids are.
  expect(requestId).toMatch(/^[0-9a-f]{32}$/);
  for (const error of document.errors) {
    expect(error).toMatchObject({ id: requestId, status: String(status), title });
    expect(error.detail.length).toBeGreaterThan(10);
  }
  expect(response.body.jsonapi).toEqual({ version: "1.0" });
  expect(response.body.server).toEqual(response.body.meta.server);
  return document;
}

describe("error documents", () => {
  it("answers an unknown path with a JSON:API 404", async () => {
    const response = await apiRequest(`${server.url}/api/v1/nothing-here`, { key: server.adminKey });
    const document = expectErrorDocument(response, 404, "NotFound");
    expect(document.errors[0]!.detail).toContain("/api/v1/nothing-here");
  });

  it("answers a method a known path lacks with 405 and Allow, before authentication and body parsing", async () => {
    const remove = await apiRequest(`${server.url}/api/v1/sources/abc`, { method: "DELETE", body: "{not json" });
    expectErrorDocument(remove, 405, "MethodNotAllowed");
    expect(remove.headers.get("allow")).toBe("GET, HEAD, PATCH");
    const put = await apiRequest(`${server.url}/api/v1/sources`, { method: "PUT", key: server.adminKey });
    expectErrorDocument(put, 405, "MethodNotAllowed");
    expect(put.headers.get("allow")).toBe("GET, HEAD, POST");
  });

  it("answers TRACE and QUERY on a known path with 405 too (every method the router knows)", async () => {
    // QUERY is newer than undici's list of method names; undici sends any token.
    for (const method of ["TRACE", "QUERY"] as Dispatcher.HttpMethod[]) {
      const response = await request(`${server.url}/api/v1/sources`, { method });
      expect(response.statusCode, method).toBe(405);
      expect(response.headers.allow).toBe("GET, HEAD, POST");
      expect((await response.body.json()) as { errors: { title: string }[] }).toMatchObject({ errors: [{ title: "MethodNotAllowed" }] });
    }
  });

  it("refuses a body that is not JSON:API or JSON with 415", async () => {
    const response = await apiRequest(`${server.url}/api/v1/sources`, {
      method: "POST",
      key: server.adminKey,
      body: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    const document = expectErrorDocument(response, 415, "UnsupportedMediaType");
    expect(document.errors[0]!.detail).toContain(JSONAPI_MEDIA_TYPE);
  });

  it("accepts application/json as well as the JSON:API media type", async () => {
    const body = createDocument({ name: "plain json", deployment: minimalDeployment("webproxy") });
    const response = await apiRequest(`${server.url}/api/v1/sources`, {
      method: "POST",
      key: server.adminKey,
      body,
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(201);
    // Exactly the media type: JSON:API forbids parameters such as charset.
    expect(response.headers.get("content-type")).toBe(JSONAPI_MEDIA_TYPE);
  });

  it("answers malformed JSON with 400", async () => {
    const response = await apiRequest(`${server.url}/api/v1/sources`, { method: "POST", key: server.adminKey, body: '{"data": {' });
    const document = expectErrorDocument(response, 400, "BadRequest");
    expect(document.errors[0]!.detail).toMatch(/not valid JSON/);
  });

  it("answers a missing body with 400", async () => {
    const response = await apiRequest(`${server.url}/api/v1/sources`, { method: "POST", key: server.adminKey });
    const document = expectErrorDocument(response, 400, "BadRequest");
    expect(document.errors[0]!.detail).toMatch(/no body/);
  });

  it("answers a body that is not a JSON:API document with a validation error", async () => {
    const response = await apiRequest(`${server.url}/api/v1/sources`, { method: "POST", key: server.adminKey, body: [1, 2] });
    const document = expectErrorDocument(response, 400, "ValidationError");
    expect(document.errors[0]!.detail).toMatch(/JSON:API document/);
  });

  it("gives every response its own request id, across refills of the server's pool of random bytes", async () => {
    // The pool holds 256 ids: 600 requests draw from three fills of it.
    const ids = new Set<string | null>();
    for (let i = 0; i < 600; i++) {
      const response = await apiRequest(`${server.url}/api/v1/nowhere`);
      const id = response.headers.get("x-request-id");
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(600);
  });

  it("ignores a request id sent by the client", async () => {
    const response = await apiRequest(`${server.url}/api/v1/nowhere`, { headers: { "x-request-id": "client-chosen" } });
    expect(response.headers.get("x-request-id")).not.toBe("client-chosen");
  });
});

describe("validation errors", () => {
  it("point at a field whose name holds a dot, and name it without the document's prefix", async () => {
    const error = validationFailed([
      fieldIssue(["data", "attributes", "deployment", "robots.txt"], "must be one of origin, allow-all, disallow-all"),
    ]);
    expect(error.detail).toBe("deployment.robots.txt: must be one of origin, allow-all, disallow-all");
    expect(error.entries[0]!.source).toEqual({ pointer: "/data/attributes/deployment/robots.txt" });
  });
});
