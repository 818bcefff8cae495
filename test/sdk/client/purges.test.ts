// client.purges against the project's server: typed results, a 409 reported as "already purging"
// (one request, no retry), bad input refused before sending, and pacing to 10 per second under the
// server's real limits (no 429 reaches the caller, none is even provoked).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createClient,
  DEFAULT_DELIVERY_DOMAIN,
  NotFoundError,
  RequestValidationError,
  type AssetDeliveryClient,
} from "@asset-delivery/sdk";
import { startTestServer, type TestServer } from "../../support/server";

let server: TestServer;
let client: AssetDeliveryClient;
let host: string;
let sourceId: string;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: "spec" });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey });
  const label = `sdk-purge-${process.pid}`;
  sourceId = (await client.sources.create({ name: "purged", deployment: { type: "webproxy", service_subdomains: [label] } })).id;
  host = `https://${label}.${DEFAULT_DELIVERY_DOMAIN}`;
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe("client.purges.create", () => {
  it("answers accepted with the purge id, then already-purging for the same URL in one request", async () => {
    const first = await client.purges.create(`${host}/a.jpg?w=100`);
    expect(first).toEqual({ status: "accepted", purgeId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    server.resetRequestCount();
    expect(await client.purges.create(`${host}/a.jpg`)).toEqual({ status: "already-purging" });
    expect(server.requestCount("POST", "/api/v1/purge")).toBe(1);
  });

  it("purges a sub-image with its Source", async () => {
    expect(await client.purges.create("https://marks.example.net/logo.png", { subImage: true, sourceId })).toMatchObject({
      status: "accepted",
    });
  });

  it("refuses bad input before sending, naming the field", async () => {
    server.resetRequestCount();
    await expect(client.purges.create("not a url")).rejects.toThrow(RequestValidationError);
    await expect(client.purges.create(`${host}/b.jpg`, { subImage: true })).rejects.toThrow(/source_id: is required with sub_image: true/);
    expect(server.requestCount("POST", "/api/v1/purge")).toBe(0);
  });

  it("reports a host of no Source as the API's error, not as a result", async () => {
    await expect(client.purges.create(`https://nobody.${DEFAULT_DELIVERY_DOMAIN}/c.jpg`)).rejects.toThrow(/url: the host/);
    await expect(client.purges.create(`https://nobody.${DEFAULT_DELIVERY_DOMAIN}/c.jpg`)).rejects.not.toThrow(NotFoundError);
  });

  it("paces itself to 10 per second: 25 purges at once, all accepted, no 429 provoked", async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the bucket full again
    server.resetRequestCount();
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => client.purges.create(`${host}/paced/${i}.jpg`)));
    const elapsed = performance.now() - started;
    expect(results.every((r) => r.status === "accepted")).toBe(true);
    expect(server.requestCount("POST", "/api/v1/purge")).toBe(25);
    // A burst of 10, then one per 100 ms: the last 15 need at least 1.4 s.
    expect(elapsed).toBeGreaterThanOrEqual(1_300);
  });
});
