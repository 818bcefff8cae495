// What tools/plugin-reference.sh writes from the schema the plugin serves must be what is committed:
// docs/reference.md and provider/schema.json, the schema as the Pulumi Registry reads it, with the
// metadata the Registry shows (regenerate both with `bash tools/plugin-reference.sh`).
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { referenceMarkdown } from "../../provider/src/plugin/reference";
import { packageSchema, schemaJson } from "../../provider/src/plugin/schema";
import { repoRoot } from "../support/pulumi";

const root = repoRoot();
const version = (JSON.parse(fs.readFileSync(path.join(root, "provider", "package.json"), "utf8")) as { version: string }).version;

describe("the plugin's reference docs", () => {
  it("are the schema's, as generated (bash tools/plugin-reference.sh)", () => {
    const generated = referenceMarkdown(packageSchema(version) as unknown as Parameters<typeof referenceMarkdown>[0]);
    expect(fs.readFileSync(path.join(root, "docs", "reference.md"), "utf8")).toBe(generated);
    for (const fn of ["getSource", "getSources", "getReports", "getReport", "getVideoJob"])
      expect(generated).toContain(`assetdelivery:index:${fn}`);
    expect(generated).toMatch(/\| `s3SecretKey` \| string \| yes \| yes \|/);
  });
});

describe("provider/schema.json", () => {
  const committed = fs.readFileSync(path.join(root, "provider", "schema.json"), "utf8");

  it("is the schema the plugin serves, as generated (bash tools/plugin-reference.sh)", () => {
    expect(committed).toBe(schemaJson(packageSchema(version)));
  });

  it("carries the Registry's metadata: a category keyword, and a logo that is a file of this repository", () => {
    const schema = JSON.parse(committed) as Record<string, unknown>;
    const repository = "https://github.com/asset-delivery/asset-delivery-as-code";
    expect(schema).toMatchObject({
      name: "assetdelivery",
      displayName: "Asset Delivery",
      homepage: expect.stringMatching(new RegExp(`^${repository}`)),
      repository,
      license: "Apache-2.0",
      publisher: "asset-delivery",
    });
    expect((schema.keywords as string[]).filter((keyword) => keyword.startsWith("category/"))).toEqual(["category/cloud"]);
    const logo = /^https:\/\/raw\.githubusercontent\.com\/asset-delivery\/asset-delivery-as-code\/main\/(.+)$/.exec(
      schema.logoUrl as string,
    );
    expect(logo, String(schema.logoUrl)).not.toBeNull();
    expect(fs.readFileSync(path.join(root, logo![1]!), "utf8")).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });
});
