// The example programs type-check, strict, with the options Pulumi gives ts-node: the end-to-end
// runs (test/provider/e2e/examples.test.ts) only transpile them, so this is where a wrong field name
// in an example shows. No server is involved, so the minimal project leaves it out (vitest.config.ts).
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../support/pulumi";

it("the examples type-check with the options Pulumi gives ts-node, strict", () => {
  const tsc = path.join(repoRoot(), "node_modules", "typescript", "bin", "tsc");
  expect(() =>
    execFileSync(process.execPath, [tsc, "-p", path.join(repoRoot(), "examples", "tsconfig.json")], { encoding: "utf8" }),
  ).not.toThrow();
}, 180_000);
