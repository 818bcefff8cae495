// docs/registry/reference.md is generated from the schema the plugin serves: it must be what the
// generator writes today (regenerate with `bash tools/plugin-reference.sh`).
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { referenceMarkdown } from "../../provider/src/plugin/reference";
import { packageSchema } from "../../provider/src/plugin/schema";
import { repoRoot } from "../support/pulumi";

describe("the plugin's reference docs", () => {
  it("are the schema's, as generated (bash tools/plugin-reference.sh)", () => {
    const version = (JSON.parse(fs.readFileSync(path.join(repoRoot(), "provider", "package.json"), "utf8")) as { version: string }).version;
    const generated = referenceMarkdown(packageSchema(version) as unknown as Parameters<typeof referenceMarkdown>[0]);
    expect(fs.readFileSync(path.join(repoRoot(), "docs", "registry", "reference.md"), "utf8")).toBe(generated);
    for (const fn of ["getSource", "getSources", "getReports", "getReport", "getVideoJob"])
      expect(generated).toContain(`assetdelivery:index:${fn}`);
    expect(generated).toMatch(/\| `s3SecretKey` \| string \| yes \| yes \|/);
  });
});
