// The native plugin through the real Pulumi CLI: a stack whose baseUrl is http:// on a host other
// than loopback is refused at preview, by CheckConfig, with a message naming the setting and the
// way to allow it, before any request (the run shows no attempt to connect anywhere).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { yamlStack, type YamlStack } from "./yaml-stack";

let stack: YamlStack;

beforeAll(async () => {
  stack = await yamlStack(
    "plugin-insecure-http",
    "dev",
    {
      resources: {
        images: {
          type: "assetdelivery:index:Source",
          properties: { name: "Images", deployment: { type: "webproxy", serviceSubdomains: ["plugin-insecure-http"] } },
        },
      },
    },
    { credentials: { baseUrl: "http://example.com", apiKey: "a-key-that-must-not-travel-in-clear" } },
  );
}, 120_000);

afterAll(async () => {
  await stack?.remove();
});

describe("baseUrl over plain HTTP", () => {
  it("refuses baseUrl: http://example.com at preview with a clear message and no request", async () => {
    const preview = await stack.pulumi(["preview"]);
    const output = preview.stdout + preview.stderr;
    expect(preview.code, output).not.toBe(0);
    expect(output).toContain("over http:// the API key would travel in clear text to example.com");
    expect(output).toContain("assetdelivery:allowInsecureHttp");
    expect(output).not.toMatch(/ENOTFOUND|ECONNREFUSED|EAI_AGAIN|ConnectionError|fetch failed/);
    expect(output).not.toContain("a-key-that-must-not-travel-in-clear");
  }, 120_000);
});
