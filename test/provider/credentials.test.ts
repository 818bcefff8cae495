// Credentials: the stack's config first, then the environment; a clear message naming both ways
// when something is missing.
import { describe, expect, it } from "vitest";
import { createSourceProvider } from "../../provider/src/core/provider";
import { resolveSettings } from "../../provider/src/core/settings";
import { PULUMI_INSTRUCTIONS } from "../../provider/src/pulumi-names/instructions";
import { CONFIG_KEYS, pulumiConfigReader } from "../../provider/src/pulumi-names/config-keys";

/** The core reads a setting by its name (`apiKey`), not by a key of Pulumi's configuration. */
const config = (values: Record<string, string>) => (name: string) => values[name];

describe("resolveSettings", () => {
  it("prefers the stack's config to the environment", () => {
    const env = { ASSET_DELIVERY_BASE_URL: "https://env.example", ASSET_DELIVERY_API_KEY: "envkey" };
    expect(resolveSettings(config({ apiKey: "configkey" }), env)).toEqual({
      baseUrl: "https://env.example",
      apiKey: "configkey",
    });
  });

  it("names every missing setting and how to set it, in the words of the caller's tool", () => {
    expect(() => resolveSettings(config({}), {})).toThrow(
      "Asset Delivery credentials missing: set the API address (baseUrl or ASSET_DELIVERY_BASE_URL) and the API key (apiKey, a secret, or ASSET_DELIVERY_API_KEY)",
    );
    expect(() => resolveSettings(config({}), {}, PULUMI_INSTRUCTIONS)).toThrow(
      "Asset Delivery credentials missing: set the API address (`pulumi config set assetdelivery:baseUrl <url>` or ASSET_DELIVERY_BASE_URL) and the API key (`pulumi config set --secret assetdelivery:apiKey <key>` or ASSET_DELIVERY_API_KEY)",
    );
    expect(() => resolveSettings(config({ baseUrl: "https://x.example", apiKey: " " }), {})).toThrow(/the API key/);
  });

  it("reads the pacing as JSON, for plans with higher limits", () => {
    const base = { baseUrl: "https://x.example", apiKey: "k" };
    expect(resolveSettings(config({ ...base, pacing: "false" }), {}).pacing).toBe(false);
    expect(
      resolveSettings(config(base), { ASSET_DELIVERY_PACING: '{"limits":{"createSource":{"limit":600,"intervalMs":3600000}}}' }).pacing,
    ).toEqual({
      limits: { createSource: { limit: 600, intervalMs: 3_600_000 } },
    });
    expect(() => resolveSettings(config({ ...base, pacing: "off" }), {})).toThrow(
      'pacing (or ASSET_DELIVERY_PACING): must be JSON: false, true or {"limits": {...}}',
    );
    // The shells' words: the setting's key in the stack's configuration.
    expect(() => resolveSettings(config({ ...base, pacing: "off" }), {}, PULUMI_INSTRUCTIONS)).toThrow(
      'assetdelivery:pacing (or ASSET_DELIVERY_PACING): must be JSON: false, true or {"limits": {...}}',
    );
  });

  it("checks the delivery domain with the sdk's domain rule, naming the setting", () => {
    const base = { baseUrl: "https://x.example", apiKey: "k" };
    expect(resolveSettings(config({ ...base, deliveryDomain: "img.example.net" }), {}).deliveryDomain).toBe("img.example.net");
    expect(() => resolveSettings(config(base), { ASSET_DELIVERY_DELIVERY_DOMAIN: "localhost" })).toThrow(
      /^deliveryDomain \(or ASSET_DELIVERY_DELIVERY_DOMAIN\): must be a valid domain name .*, not "localhost"$/,
    );
    expect(() => resolveSettings(config({ ...base, deliveryDomain: "https://img.example.net" }), {})).toThrow(
      /^deliveryDomain .*must be a valid domain name/,
    );
  });

  it("refuses an http:// baseUrl for a host other than loopback at check, the preview's first step, unless allowed", () => {
    // The core's check runs in both shells (the dynamic Source's and the plugin's), before any request.
    const checked = (values: Record<string, string>) => {
      const provider = createSourceProvider({ warn: async () => {}, env: {}, instructions: PULUMI_INSTRUCTIONS });
      provider.configure(config(values));
      return () => provider.check({ name: "Images", deployment: { type: "webproxy", serviceSubdomains: ["images"] } });
    };
    expect(checked({ baseUrl: "http://example.com" })).toThrow(
      /^assetdelivery:baseUrl \(or ASSET_DELIVERY_BASE_URL\): must be https:\/\/ .*to example\.com\. Use https:\/\/, or to send it anyway set assetdelivery:allowInsecureHttp to true/,
    );
    expect(checked({ baseUrl: "http://example.com", allowInsecureHttp: "true" })).not.toThrow();
    expect(checked({ baseUrl: "http://127.0.0.1:8787" })).not.toThrow();
    expect(checked({})).not.toThrow(); // no address yet: check needs no configuration
  });
});

describe("a stack's configuration (pulumi-names/config-keys.ts)", () => {
  it("keeps each setting under the package's namespace, which the shells' reader maps the core's names to", () => {
    expect(CONFIG_KEYS).toEqual({
      baseUrl: "assetdelivery:baseUrl",
      apiKey: "assetdelivery:apiKey",
      pacing: "assetdelivery:pacing",
      deliveryDomain: "assetdelivery:deliveryDomain",
      allowInsecureHttp: "assetdelivery:allowInsecureHttp",
      maxWait: "assetdelivery:maxWait",
    });
    const stack: Record<string, string> = { "assetdelivery:baseUrl": "https://x.example", "assetdelivery:apiKey": "k", apiKey: "not read" };
    expect(
      resolveSettings(
        pulumiConfigReader((key) => stack[key]),
        {},
      ),
    ).toEqual({ baseUrl: "https://x.example", apiKey: "k" });
  });
});
