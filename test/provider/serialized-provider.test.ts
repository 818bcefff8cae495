// What Pulumi stores in the state for every Source as `__provider`: a short module that the
// dynamic-provider host loads as it does (require-from-string, resolved from the working folder)
// and whose handler returns the installed runtime's provider: nothing captured, nothing copied.
import * as fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { PROVIDER_KEY, SERIALIZED_PROVIDER } from "../../provider/src/dynamic/serialized-provider";

// Node's own require (vitest loads modules apart from it), and the host's loader: a dependency of
// @pulumi/pulumi, without type declarations.
const nodeRequire = createRequire(require.resolve("@pulumi/pulumi/cmd/dynamic-provider"));
const requireFromString = nodeRequire("require-from-string") as (code: string) => { handler(): unknown };
const { sourceProvider } = nodeRequire("@asset-delivery/provider/runtime") as { sourceProvider: object };

// What every state written before the `./runtime` export existed holds: it must load for good.
const LEGACY_SERIALIZED_PROVIDER = 'exports.handler = () => require("@asset-delivery/provider/dist/runtime").sourceProvider;\n';

describe("the serialized provider", () => {
  it("loads, as the dynamic-provider host loads it, into the installed runtime's provider", () => {
    expect(requireFromString(SERIALIZED_PROVIDER).handler()).toBe(sourceProvider);
  });

  it("of older states still loads, through the package's exports, into the same provider", () => {
    expect(requireFromString(LEGACY_SERIALIZED_PROVIDER).handler()).toBe(sourceProvider);
  });

  it("names only paths the package exports, so Node resolves them however the package is installed", () => {
    const exported = Object.keys((nodeRequire("@asset-delivery/provider/package.json") as { exports: object }).exports);
    expect(exported).toEqual(expect.arrayContaining(["./runtime", "./dist/runtime"]));
    // An unexported path is refused: the exports map, not the file layout, is what the texts rely on.
    expect(() => nodeRequire("@asset-delivery/provider/dist/core/session")).toThrow(
      expect.objectContaining({ code: "ERR_PACKAGE_PATH_NOT_EXPORTED" }),
    );
  });

  it("is one require of the runtime module, under the key the host reads", () => {
    // The key the installed dynamic-provider host reads the provider from (its own constant, not exported).
    const host = fs.readFileSync(nodeRequire.resolve("@pulumi/pulumi/cmd/dynamic-provider"), "utf8");
    expect(/\bconst providerKey = "([^"]+)";/.exec(host)?.[1]).toBe(PROVIDER_KEY);
    expect(SERIALIZED_PROVIDER.length).toBeLessThan(120);
    expect(SERIALIZED_PROVIDER.match(/require\("[^"]+"\)/g)).toEqual(['require("@asset-delivery/provider/runtime")']);
  });

  it("stands for a provider with every method the engine may call", () => {
    expect(Object.keys(sourceProvider).sort()).toEqual(["check", "configure", "create", "delete", "diff", "read", "update"]);
  });
});
