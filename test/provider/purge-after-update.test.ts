// `purgeAfterUpdate` against a real server, counted there: purged exactly once after an update
// that changes rendering, never on create, never after a rename or another non-rendering change;
// a failed purge warns and the update still succeeds; a bad list is refused by check.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_DELIVERY_DOMAIN } from "@asset-delivery/sdk";
import { createPurgeStore } from "@asset-delivery/server";
import { checkSource } from "../../provider/src/core/check";
import { pulumiCheckFailure } from "../../provider/src/pulumi-names/paths";
import { sourceProvider } from "../../provider/src/dynamic/runtime";
import { checkedSource } from "../support/checked-source";
import { configureSourceProvider } from "../support/configured-provider";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  await configureSourceProvider(server);
});
afterAll(() => server.close());
afterEach(() => vi.restoreAllMocks());

let labels = 0;
const purgedUrls = (id: string) =>
  createPurgeStore(server.db)
    .listBySource(id)
    .map((p) => p.url);

function declared(subdomain: string, extra: { name?: string; deployment?: Record<string, unknown>; purgeAfterUpdate?: string[] } = {}) {
  return checkedSource({
    name: extra.name ?? "Photos",
    deployment: {
      type: "webfolder",
      serviceSubdomains: [subdomain],
      webfolderBaseUrl: "https://origin.example.com/",
      customDomains: [`${subdomain}.example.com`],
      ...extra.deployment,
    },
    deploymentSecrets: {},
    purgeAfterUpdate: extra.purgeAfterUpdate ?? ["/hero.jpg", `https://${subdomain}.example.com/banner.png?w=1`],
  });
}

describe("purgeAfterUpdate", () => {
  it("purges each listed path or URL exactly once after a rendering change, never on create or after a rename", async () => {
    const subdomain = `purge-after-${++labels}`;
    const { id, outs } = await sourceProvider.create(declared(subdomain));
    expect(purgedUrls(id)).toEqual([]); // never on create

    const { outs: renamed } = await sourceProvider.update(id, outs, declared(subdomain, { name: "Renamed" }));
    expect(purgedUrls(id)).toEqual([]); // a rename does not change rendering

    server.resetRequestCount();
    const { outs: rendered } = await sourceProvider.update(
      id,
      renamed,
      declared(subdomain, { name: "Renamed", deployment: { defaultParams: { auto: "format" } } }),
    );
    expect(server.requestCount("POST", "/api/v1/purge")).toBe(2);
    expect(purgedUrls(id)).toEqual([
      `https://${subdomain}.${DEFAULT_DELIVERY_DOMAIN}/hero.jpg`,
      `https://${subdomain}.example.com/banner.png`,
    ]);

    // Counted as requests, not as stored purges: the server refuses a repeated purge within 10 s
    // with a 409 that stores nothing, and the provider turns that into a warning.
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    // The same declaration again: nothing changes, nothing is purged.
    server.resetRequestCount();
    await sourceProvider.update(id, rendered, declared(subdomain, { name: "Renamed", deployment: { defaultParams: { auto: "format" } } }));
    expect(server.requestCount("POST", "/api/v1/purge")).toBe(0);
    // A change that is not about rendering (another custom domain): no purge either.
    await sourceProvider.update(
      id,
      rendered,
      declared(subdomain, {
        name: "Renamed",
        deployment: { defaultParams: { auto: "format" }, customDomains: [`${subdomain}.example.com`, `${subdomain}.example.org`] },
      }),
    );
    expect(server.requestCount("POST", "/api/v1/purge")).toBe(0);
    expect(warnings).not.toHaveBeenCalled();
    expect(purgedUrls(id)).toHaveLength(2);
  });

  it.each([
    ["cacheTtlError", { cacheTtlError: 60 }],
    ["imageMissing", { imageMissing: "https://origin.example.com/missing.png" }],
    ["secureUrlEnabled", { secureUrlEnabled: true }],
  ])("counts a change of %s as a rendering change", async (_field, deployment) => {
    const subdomain = `purge-field-${++labels}`;
    const { id, outs } = await sourceProvider.create(declared(subdomain, { purgeAfterUpdate: ["/a.jpg"] }));
    await sourceProvider.update(id, outs, declared(subdomain, { deployment, purgeAfterUpdate: ["/a.jpg"] }));
    expect(purgedUrls(id)).toEqual([`https://${subdomain}.${DEFAULT_DELIVERY_DOMAIN}/a.jpg`]);
  });

  it("warns about a purge that fails and still completes the update", async () => {
    const warnings: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((message: string) => void warnings.push(message));
    const subdomain = `purge-warn-${++labels}`;
    const targets = ["https://elsewhere.example.org/a.jpg", "/b.jpg"];
    const { id, outs } = await sourceProvider.create(declared(subdomain, { purgeAfterUpdate: targets }));
    const { outs: updated } = await sourceProvider.update(
      id,
      outs,
      declared(subdomain, { deployment: { cacheTtlError: 120 }, purgeAfterUpdate: targets }),
    );
    expect(updated).toMatchObject({ deployment: { cacheTtlError: 120 } });
    expect(warnings).toEqual([
      expect.stringMatching(
        /purging https:\/\/elsewhere\.example\.org\/a\.jpg after the update failed \(the update itself succeeded\): .*url: the host/,
      ),
    ]);
    expect(purgedUrls(id)).toEqual([`https://${subdomain}.${DEFAULT_DELIVERY_DOMAIN}/b.jpg`]);
  });

  it("refuses a list entry that is neither a path nor an http(s) URL, naming it", () => {
    const result = checkSource({
      name: "x",
      deployment: { type: "webproxy", service_subdomains: ["x"] },
      options: { purgeAfterUpdate: ["hero.jpg"] },
    });
    expect(result.failures.map((f) => pulumiCheckFailure(f).reason)).toEqual([
      expect.stringMatching(/^purgeAfterUpdate\[0\]: must be a path starting with \//),
    ]);
  });
});
