// The pack as users configure it: exactly the seven policies by name, with their default
// levels and config schemas, and the ready-to-run pack folder at the package's version.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { policies, POLICY_PACK_NAME } from "@asset-delivery/policy";
import { repoRoot } from "../support/pulumi";

describe("the policy pack", () => {
  it("has the seven policies of issue 30, named and levelled as users configure them", () => {
    expect(Object.fromEntries(policies.map((policy) => [policy.name, policy.enforcementLevel]))).toEqual({
      "source-https-origins": "mandatory",
      "source-secure-urls": "advisory",
      "source-webproxy-signed": "advisory",
      "source-allowed-types": "mandatory",
      "source-cache-ttl-bounds": "advisory",
      "source-custom-domain-suffixes": "mandatory",
      "sources-unique-names": "advisory",
    });
    expect(policies.find((policy) => policy.name === "sources-unique-names")).toHaveProperty("validateStack");
  });

  it("states its config in JSON Schema, with the API's own TTL bounds as defaults", () => {
    const schemas = Object.fromEntries(policies.map((policy) => [policy.name, policy.configSchema?.properties]));
    expect(schemas["source-cache-ttl-bounds"]).toMatchObject({ min: { default: 1800 }, max: { default: 31_536_000 } });
    expect(schemas["source-allowed-types"]?.types).toMatchObject({
      items: { enum: ["azure", "gcs", "s3", "webfolder", "webproxy", "s3_compatible"] },
    });
    expect(schemas["source-custom-domain-suffixes"]?.suffixes).toMatchObject({ type: "array" });
  });

  it("ships a pack folder that serves it at the package's version", () => {
    const policyDir = path.join(repoRoot(), "policy");
    const read = (file: string) => JSON.parse(fs.readFileSync(path.join(policyDir, file), "utf8")) as { version: string; files: string[] };
    expect(read("pack/package.json").version).toBe(read("package.json").version);
    expect(read("package.json").files).toContain("pack");
    expect(fs.readFileSync(path.join(policyDir, "pack", "PulumiPolicy.yaml"), "utf8")).toMatch(/^runtime: nodejs$/m);
    expect(POLICY_PACK_NAME).toBe("asset-delivery");
  });
});
