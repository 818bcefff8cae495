// What Pulumi stores in the state for every Source as `__provider`: a short module that the
// dynamic-provider host loads as it does (require-from-string, resolved from the working folder)
// and whose handler returns the installed runtime's provider: nothing captured, nothing copied.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { PROVIDER_KEY, SERIALIZED_PROVIDER } from "@asset-delivery/provider/dist/serialized-provider";

// Node's own require (vitest loads modules apart from it), and the host's loader: a dependency of
// @pulumi/pulumi, without type declarations.
const nodeRequire = createRequire(require.resolve("@pulumi/pulumi/cmd/dynamic-provider"));
const requireFromString = nodeRequire("require-from-string") as (code: string) => { handler(): unknown };
const { sourceProvider } = nodeRequire("@asset-delivery/provider/dist/runtime") as { sourceProvider: object };

describe("the serialized provider", () => {
  it("loads, as the dynamic-provider host loads it, into the installed runtime's provider", () => {
    expect(requireFromString(SERIALIZED_PROVIDER).handler()).toBe(sourceProvider);
  });

  it("is one require of the runtime module, under the key the host reads", () => {
    expect(PROVIDER_KEY).toBe("__provider");
    expect(SERIALIZED_PROVIDER.length).toBeLessThan(120);
    expect(SERIALIZED_PROVIDER.match(/require\("[^"]+"\)/g)).toEqual(['require("@asset-delivery/provider/dist/runtime")']);
  });

  it("stands for a provider with every method the engine may call", () => {
    expect(Object.keys(sourceProvider).sort()).toEqual(["check", "configure", "create", "delete", "diff", "read", "update"]);
  });
});
