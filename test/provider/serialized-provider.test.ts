// What Pulumi stores in the state for every Source: a few lines that `require` the installed
// provider, with nothing captured (no client, no credential, no copied module).
import { describe, expect, it } from "vitest";
import { serializeFunction } from "@pulumi/pulumi/runtime/closure/serializeClosure";
import { serializedProvider } from "@asset-delivery/provider/dist/serialized-provider";
import { sourceProvider } from "@asset-delivery/provider/dist/runtime";

describe("the serialized provider", () => {
  it("is a small require of the runtime module, whatever the process holds", async () => {
    process.env.ASSET_DELIVERY_API_KEY = "key-that-must-not-be-captured";
    try {
      const { text } = await serializeFunction(() => serializedProvider, { allowSecrets: true });
      expect(text.length).toBeLessThan(3000);
      expect(text.match(/require\("[^"]+"\)/g)).toEqual(Array(7).fill('require("@asset-delivery/provider/dist/runtime")'));
      expect(text).not.toContain("key-that-must-not-be-captured");
      expect(text).not.toMatch(/createClient|undici|zod|sourceProvider = /);
    } finally {
      delete process.env.ASSET_DELIVERY_API_KEY;
    }
  });

  it("has every method of the provider it stands for", () => {
    expect(Object.keys(serializedProvider).sort()).toEqual(Object.keys(sourceProvider).sort());
  });
});
