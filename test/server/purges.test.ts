// POST /api/v1/purge (as the vendor's docs describe it; the spec names only the Purge permission
// and the "purge asset" limit): hosts of the caller's Sources only, the query ignored, 409 for the
// same URL within 10 s, sub-images named with their Source, every accepted purge recorded with
// the Source it hit, and the 10-per-second limit.
import { DEFAULT_DELIVERY_DOMAIN } from "@asset-delivery/sdk";
import { createPurgeStore } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startTestServer, type TestServer } from "../support/server";
import { minimalDeployment, sourceClient, uniqueLabel } from "./fixtures";

let clock = Date.parse("2026-11-23T00:00:00Z");
let server: TestServer;
let key: string;
let sourceId: string;
let subdomain: string;
const customDomain = `${uniqueLabel("cdn")}.example.com`;
beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
  key = server.accountKey(["Purge", "Sources"]);
  subdomain = uniqueLabel("purged");
  sourceId = await sourceClient(server, key).createOk({
    name: "purge fixture",
    deployment: { ...minimalDeployment("webproxy", subdomain), custom_domains: [customDomain] },
  });
});
afterAll(() => server.close());

const purge = (attributes: Record<string, unknown>, withKey = key) =>
  apiRequest(`${server.url}/api/v1/purge`, { method: "POST", key: withKey, body: { data: { type: "purges", attributes } } });
const recorded = () => createPurgeStore(server.db).listBySource(sourceId);

describe("POST /api/v1/purge", () => {
  it("accepts a URL on a service subdomain: 200 with the purge id, recorded with its Source and without the query", async () => {
    clock += 60_000;
    const before = recorded().length;
    const response = await purge({ url: `https://${subdomain}.${DEFAULT_DELIVERY_DOMAIN}/images/bridge.jpg?w=400&h=300` });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: "purges",
      attributes: { purge_id: response.body.data.id },
    });
    expect(response.body).toMatchObject({ included: [], jsonapi: { version: "1.0" } });
    const records = recorded();
    expect(records).toHaveLength(before + 1);
    expect(records.at(-1)).toMatchObject({
      id: response.body.data.id,
      sourceId,
      url: `https://${subdomain}.${DEFAULT_DELIVERY_DOMAIN}/images/bridge.jpg`,
      subImage: false,
      createdAt: clock,
    });
  });

  it("accepts a URL on a custom domain, in any case", async () => {
    clock += 60_000;
    const response = await purge({ url: `https://${customDomain.toUpperCase()}/a.png` });
    expect(response.status).toBe(200);
    expect(recorded().at(-1)).toMatchObject({ url: `https://${customDomain}/a.png`, sourceId });
  });

  it("answers 409 for the same URL (whatever its query) within 10 seconds, and accepts it again after", async () => {
    clock += 60_000;
    const url = `https://${subdomain}.${DEFAULT_DELIVERY_DOMAIN}/again.jpg`;
    expect((await purge({ url })).status).toBe(200);
    const count = recorded().length;
    clock += 9_999;
    const repeated = await purge({ url: `${url}?w=10` });
    expect(repeated.status).toBe(409);
    expect(repeated.body.errors[0]).toMatchObject({ status: "409", title: "Conflict" });
    expect(repeated.body.errors[0].detail).toMatch(/already being purged.*10 seconds apart/);
    expect(recorded()).toHaveLength(count);
    // Another path on the same host is another URL.
    expect((await purge({ url: `https://${subdomain}.${DEFAULT_DELIVERY_DOMAIN}/other.jpg` })).status).toBe(200);
    clock += 1;
    expect((await purge({ url })).status).toBe(200);
  });

  it("refuses a host that is not one of the account's Sources, naming the field", async () => {
    const otherKey = server.accountKey(["Purge"], "purge-other-account");
    const cases = [
      [`https://${subdomain}.${DEFAULT_DELIVERY_DOMAIN}/x.jpg`, otherKey], // another account's subdomain
      [`https://${customDomain}/x.jpg`, otherKey], // another account's custom domain
      [`https://nobody-${uniqueLabel()}.${DEFAULT_DELIVERY_DOMAIN}/x.jpg`, key],
      [`https://a.${subdomain}.${DEFAULT_DELIVERY_DOMAIN}/x.jpg`, key], // not a single label
      [`https://${subdomain}.elsewhere.example/x.jpg`, key],
    ] as const;
    for (const [url, withKey] of cases) {
      const response = await purge({ url }, withKey);
      expect(response.status, url).toBe(400);
      expect(response.body.errors[0].detail).toMatch(
        /^url: the host ".*" must be a service subdomain on delivery\.example or a custom domain of one of this account's Sources$/,
      );
      expect(response.body.errors[0].source).toEqual({ pointer: "/data/attributes/url" });
    }
  });

  it("refuses a bad document with one error per field", async () => {
    const response = await purge({ url: "not a url", sub_image: "yes", colour: "red" });
    expect(response.status).toBe(400);
    const details = response.body.errors.map((e: { detail: string }) => e.detail);
    expect(details).toEqual(
      expect.arrayContaining([
        "url: must be an absolute http:// or https:// URL",
        "sub_image: must be true or false",
        "colour: is not a field of this object",
      ]),
    );
  });

  it("purges a sub-image (on any host) with the Source that uses it; source_id required with it and only with it", async () => {
    clock += 60_000;
    const url = "https://marks.example.net/logo.png";
    const ok = await purge({ url, sub_image: true, source_id: sourceId });
    expect(ok.status).toBe(200);
    expect(recorded().at(-1)).toMatchObject({ url, sourceId, subImage: true });

    const missing = await purge({ url, sub_image: true });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].detail).toMatch(/^source_id: is required with sub_image: true/);
    const without = await purge({ url: `https://${subdomain}.${DEFAULT_DELIVERY_DOMAIN}/y.jpg`, source_id: sourceId });
    expect(without.body.errors[0].detail).toBe("source_id: is only accepted with sub_image: true");
    const foreign = await purge({ url, sub_image: true, source_id: sourceId }, server.accountKey(["Purge"], "purge-other-account"));
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0].detail).toBe(`source_id: no Source "${sourceId}" in this account`);
  });

  it("needs Purge (or Account Admin): a Sources key gets 403", async () => {
    const response = await purge({ url: `https://${subdomain}.${DEFAULT_DELIVERY_DOMAIN}/z.jpg` }, server.accountKey(["Sources"]));
    expect(response.status).toBe(403);
    expect(response.body.errors[0].detail).toContain('"Purge" permission');
  });
});

describe("the purge-asset limit: 10 per second per account", () => {
  it("admits a burst of 10, then 429; its own class, apart from the default one", async () => {
    const limited = await startTestServer({ rateLimits: "spec", now: () => clock });
    try {
      const limitedKey = limited.accountKey(["Account Admin"]);
      const label = uniqueLabel("limited");
      await sourceClient(limited, limitedKey).createOk({ name: "limited", deployment: minimalDeployment("webproxy", label) });
      const send = (i: number) =>
        apiRequest(`${limited.url}/api/v1/purge`, {
          method: "POST",
          key: limitedKey,
          body: { data: { type: "purges", attributes: { url: `https://${label}.${DEFAULT_DELIVERY_DOMAIN}/${i}.jpg` } } },
        });
      for (let i = 0; i < 10; i++) expect((await send(i)).status).toBe(200);
      const refused = await send(10);
      expect(refused.status).toBe(429);
      expect(refused.body.errors[0].meta).toMatchObject({ endpoint_class: "purgeAsset", limit: 10 });
      expect((await apiRequest(`${limited.url}/api/v1/sources`, { key: limitedKey })).status).toBe(200);
      clock += 100;
      expect((await send(11)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
