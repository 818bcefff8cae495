// The native plugin's configuration: provider arguments (or the stack's config), else ASSET_DELIVERY_*,
// every bad or missing setting named.
import { describe, expect, it } from "vitest";
import { checkProviderConfig } from "../../provider/src/plugin/config-check";
import { configFromRequest } from "../../provider/src/plugin/config";
import { NativeProvider } from "../../provider/src/plugin/provider";
import { UNKNOWN } from "../../provider/src/plugin/wire";

describe("plugin configuration", () => {
  it("takes the provider's arguments, else the environment", () => {
    expect(checkProviderConfig({ baseUrl: "http://127.0.0.1:1", apiKey: "k1" }, {})).toEqual({
      settings: { baseUrl: "http://127.0.0.1:1", apiKey: "k1" },
      failures: [],
    });
    expect(checkProviderConfig({ apiKey: "k1" }, { ASSET_DELIVERY_BASE_URL: "https://env.example" }).settings).toEqual({
      baseUrl: "https://env.example",
      apiKey: "k1",
    });
    // Pacing given as the value itself (a YAML program's object) or as JSON text.
    expect(checkProviderConfig({ baseUrl: "https://a.example", apiKey: "k", pacing: false }, {}).settings?.pacing).toBe(false);
    expect(checkProviderConfig({ baseUrl: "https://a.example", apiKey: "k", pacing: "false" }, {}).settings?.pacing).toBe(false);
  });

  it("names what is missing or wrong, never echoing the key", () => {
    expect(checkProviderConfig({}, {}).failures[0]!.reason).toMatch(/assetdelivery:baseUrl.*ASSET_DELIVERY_BASE_URL.*assetdelivery:apiKey/);
    expect(checkProviderConfig({ baseUrl: "nope", apiKey: "secret key with spaces" }, {}).failures).toEqual([
      {
        property: "baseUrl",
        reason: expect.stringMatching(/^assetdelivery:baseUrl \(or ASSET_DELIVERY_BASE_URL\): must be an absolute http/),
      },
      {
        property: "apiKey",
        reason: expect.stringMatching(/^assetdelivery:apiKey \(or ASSET_DELIVERY_API_KEY\): must be the API key as issued/),
      },
    ]);
    expect(JSON.stringify(checkProviderConfig({ baseUrl: "nope", apiKey: "secret key with spaces" }, {}))).not.toContain("secret key");
    expect(checkProviderConfig({ baseUrl: "https://a.example", apiKey: "k", pacing: "{" }, {}).failures[0]).toMatchObject({
      property: "pacing",
    });
    expect(checkProviderConfig({ baseUrl: "https://a.example", apiKey: "k", deliveryDomain: "-bad-" }, {}).failures[0]).toMatchObject({
      property: "deliveryDomain",
    });
  });

  it("refuses http:// for a host other than loopback, naming the setting that allows it, unless it is set", () => {
    const refused = checkProviderConfig({ baseUrl: "http://example.com", apiKey: "k" }, {});
    expect(refused.settings).toBeUndefined();
    expect(refused.failures).toEqual([
      {
        property: "baseUrl",
        reason:
          "assetdelivery:baseUrl (or ASSET_DELIVERY_BASE_URL): must be https:// for a host other than loopback (localhost, 127.0.0.0/8, ::1): over http:// the API key would travel in clear text to example.com. Use https://, or to send it anyway set assetdelivery:allowInsecureHttp to true (or ASSET_DELIVERY_ALLOW_INSECURE_HTTP=true)",
      },
    ]);
    expect(checkProviderConfig({ baseUrl: "http://example.com", apiKey: "k", allowInsecureHttp: true }, {}).settings).toEqual({
      baseUrl: "http://example.com",
      apiKey: "k",
      allowInsecureHttp: true,
    });
    expect(
      checkProviderConfig({ baseUrl: "http://example.com", apiKey: "k" }, { ASSET_DELIVERY_ALLOW_INSECURE_HTTP: "true" }).failures,
    ).toEqual([]);
    expect(checkProviderConfig({ baseUrl: "http://example.com", apiKey: "k", allowInsecureHttp: "yes" }, {}).failures[0]).toMatchObject({
      property: "allowInsecureHttp",
    });
    expect(checkProviderConfig({ baseUrl: "http://127.0.0.1:8787", apiKey: "k" }, {}).failures).toEqual([]);
  });

  it("does not judge values not known yet", () => {
    expect(checkProviderConfig({ baseUrl: UNKNOWN, apiKey: "k" }, {})).toEqual({ failures: [] });
  });

  it("reads Configure's arguments, else its variables in either form", () => {
    const variables = new Map([
      ["assetdelivery:config:baseUrl", "https://old-form.example"],
      ["assetdelivery:apiKey", "from-variables"],
    ]);
    expect(configFromRequest({ apiKey: "from-args" }, variables)).toEqual({ baseUrl: "https://old-form.example", apiKey: "from-args" });
  });

  it("reads the secrets the server is trusted to hold (assetdelivery:trustedSecrets) beside the settings", () => {
    const trusted = JSON.stringify({ ["a".repeat(24)]: { s3_secret_key: "held" } });
    const variables = new Map([["assetdelivery:trustedSecrets", trusted]]);
    expect(configFromRequest({ baseUrl: "https://api.example" }, variables)).toEqual({
      baseUrl: "https://api.example",
      trustedSecrets: trusted,
    });
    // Secret in the provider's state even when set without --secret, as the API key is; a bad
    // record named without its values.
    const checked = new NativeProvider({}).checkConfig({
      values: { baseUrl: "https://api.example", trustedSecrets: trusted },
      secrets: [],
    });
    expect(checked.failures.map((failure) => failure.property)).not.toContain("trustedSecrets");
    expect(checked.inputs.secrets).toContainEqual(["trustedSecrets"]);
    const bad = new NativeProvider({}).checkConfig({
      values: { baseUrl: "https://api.example", apiKey: "k", trustedSecrets: JSON.stringify({ ["a".repeat(24)]: { s3_bucket: "held" } }) },
      secrets: [],
    });
    expect(bad.failures.map((failure) => failure.property)).toEqual(["trustedSecrets"]);
    expect(JSON.stringify(bad.failures)).not.toContain("held");
  });
});
