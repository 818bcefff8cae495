// The built packages of this repo reach each other only through declared exports (the consumer
// test checks the same on the installed tarballs, and Node enforces it there at run time).
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { exportedSubpaths, unexportedRequires } from "../support/package-boundaries";
import { repoRoot } from "../support/pulumi";

const PACKAGES = Object.fromEntries(
  ["sdk", "server", "provider", "cli"].map((name) => [`@asset-delivery/${name}`, path.join(repoRoot(), name)]),
);

describe("package boundaries", () => {
  it("no built module requires another package's path that the package does not export", () => {
    expect(unexportedRequires(PACKAGES)).toEqual([]);
  });

  it("the provider exports the runtime under both names states hold, its core for the other shells and the CLI, and its internals under none", () => {
    const provider = exportedSubpaths(PACKAGES["@asset-delivery/provider"]!);
    expect([...provider].sort()).toEqual([".", "./core", "./dist/runtime", "./package.json", "./runtime", "./secret-envelopes"]);
  });
});
