// Credentials: the stack's config first, then the environment; a clear message naming both ways
// when something is missing.
import { describe, expect, it } from "vitest";
import { createSourceProvider } from "../../provider/src/core/provider";
import { resolveSettings } from "../../provider/src/core/settings";
import { PULUMI_INSTRUCTIONS } from "../../provider/src/pulumi-names/instructions";

const config = (values: Record<string, string>) => (key: string) => values[key];

describe("resolveSettings", () => {
  it("prefers the stack's config to the environment", () => {
    const env = { ASSET_DELIVERY_BASE_URL: "https://env.example", ASSET_DELIVERY_API_KEY: "envkey" };
    expect(resolveSettings(config({ "assetdelivery:apiKey": "configkey" }), env)).toEqual({
      baseUrl: "https://env.example",
      apiKey: "configkey",
    });
  });

  it("names every missing setting and how to set it, in the words of the caller's tool", () => {
    expect(() => resolveSettings(config({}), {})).toThrow(
      "Asset Delivery credentials missing: set the API address (assetdelivery:baseUrl or ASSET_DELIVERY_BASE_URL) and the API key (assetdelivery:apiKey, a secret, or ASSET_DELIVERY_API_KEY)",
    );
    expect(() => resolveSettings(config({}), {}, PULUMI_INSTRUCTIONS)).toThrow(
      "Asset Delivery credentials missing: set the API address (`pulumi config set assetdelivery:baseUrl <url>` or ASSET_DELIVERY_BASE_URL) and the API key (`pulumi config set --secret assetdelivery:apiKey <key>` or ASSET_DELIVERY_API_KEY)",
    );
    expect(() => resolveSettings(config({ "assetdelivery:baseUrl": "https://x.example", "assetdelivery:apiKey": " " }), {})).toThrow(
      /the API key/,
    );
  });

  it("reads the pacing as JSON, for plans with higher limits", () => {
    const base = { "assetdelivery:baseUrl": "https://x.example", "assetdelivery:apiKey": "k" };
    expect(resolveSettings(config({ ...base, "assetdelivery:pacing": "false" }), {}).pacing).toBe(false);
    expect(
      resolveSettings(config(base), { ASSET_DELIVERY_PACING: '{"limits":{"createSource":{"limit":600,"intervalMs":3600000}}}' }).pacing,
    ).toEqual({
      limits: { createSource: { limit: 600, intervalMs: 3_600_000 } },
    });
    expect(() => resolveSettings(config({ ...base, "assetdelivery:pacing": "off" }), {})).toThrow(
      'assetdelivery:pacing (or ASSET_DELIVERY_PACING): must be JSON: false, true or {"limits": {...}}',
    );
  });

  it("checks the delivery domain with the sdk's domain rule, naming the setting", () => {
    const base = { "assetdelivery:baseUrl": "https://x.example", "assetdelivery:apiKey": "k" };
    expect(resolveSettings(config({ ...base, "assetdelivery:deliveryDomain": "img.example.net" }), {}).deliveryDomain).toBe(
      "img.example.net",
    );
    expect(() => resolveSettings(config(base), { ASSET_DELIVERY_DELIVERY_DOMAIN: "localhost" })).toThrow(
      /^assetdelivery:deliveryDomain \(or ASSET_DELIVERY_DELIVERY_DOMAIN\): must be a valid domain name .*, not "localhost"$/,
    );
    expect(() => resolveSettings(config({ ...base, "assetdelivery:deliveryDomain": "https://img.example.net" }), {})).toThrow(
      /assetdelivery:deliveryDomain .*must be a valid domain name/,
    );
  });

  it("refuses an http:// baseUrl for a host other than loopback at check, the preview's first step, unless allowed", () => {
    // The core's check runs in both shells (the dynamic Source's and the plugin's), before any request.
    const checked = (values: Record<string, string>) => {
      const provider = createSourceProvider({ warn: async () => {}, env: {} });
      provider.configure(config(values));
      return () => provider.check({ name: "Images", deployment: { type: "webproxy", serviceSubdomains: ["images"] } });
    };
    expect(checked({ "assetdelivery:baseUrl": "http://example.com" })).toThrow(
      /^assetdelivery:baseUrl \(or ASSET_DELIVERY_BASE_URL\): must be https:\/\/ .*to example\.com\. Use https:\/\/, or to send it anyway set assetdelivery:allowInsecureHttp to true/,
    );
    expect(checked({ "assetdelivery:baseUrl": "http://example.com", "assetdelivery:allowInsecureHttp": "true" })).not.toThrow();
    expect(checked({ "assetdelivery:baseUrl": "http://127.0.0.1:8787" })).not.toThrow();
    expect(checked({})).not.toThrow(); // no address yet: check needs no configuration
  });
});
