// Reading the live Sources costs list pages, not one request per Source: 150 Sources in two pages,
// plus one GET for each id missing from the listing (to confirm it is gone).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@asset-delivery/sdk";
import { liveSources } from "../../cli/src/drift/live-sources";
import { startTestServer, type TestServer } from "../support/server";

const SOURCES = 150;
let server: TestServer;
let ids: string[];

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  const client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  const created = [];
  for (let i = 0; i < SOURCES; i++)
    created.push(await client.sources.create({ name: `Source ${i}`, deployment: { type: "webproxy", service_subdomains: [`live-${i}`] } }));
  ids = created.map((source) => source.id);
  await client.close();
});

afterAll(async () => {
  await server?.close();
});

describe("liveSources", () => {
  it("answers every id from two list pages and confirms the missing ones with a GET each", async () => {
    const missing = ["x".repeat(24), "y".repeat(24)];
    server.resetRequestCount();
    const { live: found, enabled } = await liveSources({ baseUrl: server.url, apiKey: server.adminKey }, [...ids, ...missing]);
    expect(server.requestCount("GET", "/api/v1/sources")).toBe(2);
    expect(server.requestCount("GET", /^\/api\/v1\/sources\/\w{24}$/)).toBe(2);
    expect(server.requestCount()).toBe(4);
    expect(ids.every((id) => found.get(id)?.id === id)).toBe(true);
    expect(missing.map((id) => found.has(id) && found.get(id))).toEqual([undefined, undefined]);
    expect(enabled.map((source) => source.id)).toEqual(ids);
  }, 120_000);

  it("lists the enabled Sources the filters select with the API's filters", async () => {
    server.resetRequestCount();
    const { enabled } = await liveSources({ baseUrl: server.url, apiKey: server.adminKey }, ids.slice(0, 1), {
      filter: { name: "Source 14" },
      or: { "deployment.service_subdomains": "live-149" },
    });
    // name contains "Source 14" (Source 14, 140-149) and the one or: condition holds: only Source 149.
    expect(enabled.map((source) => source.attributes.name)).toEqual(["Source 149"]);
    expect(server.requestCount()).toBe(2); // the filtered page, and the one managed Source read from page 0
  }, 120_000);

  it("can be asked again in the same process: each call closes only the client it opened", async () => {
    const credentials = { baseUrl: server.url, apiKey: server.adminKey };
    const { live: first } = await liveSources(credentials, ids.slice(0, 2));
    const { live: second } = await liveSources(credentials, ids.slice(0, 2));
    expect([...second.values()].map((source) => source?.id)).toEqual([...first.values()].map((source) => source?.id));
    expect([...second.keys()]).toEqual(ids.slice(0, 2));
  }, 120_000);
});
