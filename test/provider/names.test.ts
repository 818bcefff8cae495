// The camelCase names of the Source resource are derived from the sdk's field tables, one-to-one.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { deploymentFieldsByType, SOURCE_TYPES } from "@asset-delivery/sdk";
import { sourceAttributeDescriptors } from "../../sdk/src/api/source/descriptors";
import { camelCase, camelSegments, deploymentNames, renameDeployment } from "../../provider/src/pulumi-names/rename";
import { toApiNames, toPulumiNames } from "../../provider/src/pulumi-names/source";
import { describePulumiPath } from "../../provider/src/pulumi-names/paths";
import { UNKNOWN } from "../../provider/src/core/unknowns";

const RECORDED_0_1_0 = path.join(__dirname, "../upgrade/recorded/v0.1.0");

describe("field names", () => {
  it("maps every API field of every type to one camelCase name and back", () => {
    for (const type of SOURCE_TYPES) {
      for (const apiName of Object.keys(deploymentFieldsByType[type])) {
        const camel = deploymentNames.toCamel.get(apiName);
        expect(camel, apiName).toBe(camelCase(apiName));
        expect(deploymentNames.toApi.get(camel!)).toBe(apiName);
        expect(camel).toMatch(/^[a-z][A-Za-z0-9]*$/);
      }
    }
    expect(new Set(deploymentNames.toCamel.values()).size).toBe(deploymentNames.toCamel.size);
  });

  it("renames the spec's irregular names mechanically", () => {
    expect(camelCase("robots.txt")).toBe("robotsTxt");
    expect(camelCase("cache_ttl_behavior")).toBe("cacheTtlBehavior");
    expect(camelCase("s3_access_key")).toBe("s3AccessKey");
    expect(camelCase("image_error_append_qs")).toBe("imageErrorAppendQs");
  });

  it("renames nested objects' fields but never the keys of default_params", () => {
    const api = {
      type: "s3",
      "robots.txt": "origin",
      upload_credentials: { type: "s3", s3_access_key: "AK", s3_secret_key: "SK" },
      default_params: { "txt-font": "Arial", auto: "format" },
    };
    const camel = renameDeployment(api, "toCamel");
    expect(camel).toEqual({
      type: "s3",
      robotsTxt: "origin",
      uploadCredentials: { type: "s3", s3AccessKey: "AK", s3SecretKey: "SK" },
      defaultParams: { "txt-font": "Arial", auto: "format" },
    });
    expect(renameDeployment(camel, "toApi")).toEqual(api);
  });

  it("leaves unknown keys as written, so that check names them as the user did", () => {
    expect(renameDeployment({ type: "webfolder", fooBar: 1 }, "toApi")).toEqual({ type: "webfolder", fooBar: 1 });
  });

  it("turns an API issue path into the user's path", () => {
    expect(camelSegments(["deployment", "cache_ttl_error"])).toEqual(["deployment", "cacheTtlError"]);
    expect(camelSegments(["deployment", "custom_domains", 1])).toEqual(["deployment", "customDomains", 1]);
    expect(camelSegments(["deployment", "default_params", "txt_font"])).toEqual(["deployment", "defaultParams", "txt_font"]);
    expect(camelSegments(["deployment", "upload_credentials", "s3_secret_key"])).toEqual([
      "deployment",
      "uploadCredentials",
      "s3SecretKey",
    ]);
    expect(camelSegments(["name"])).toEqual(["name"]);
  });
});

describe("a Source's values between the core's names and the resource's", () => {
  /** A state as the core keeps it: the API's names, the read-only flags inside the deployment, the provider's options apart. */
  const core = {
    name: "Photos",
    enabled: true,
    deployment_status: "deployed",
    date_deployed: 1_700_000_000,
    deployment: { type: "webfolder", service_subdomains: ["photos"], "robots.txt": "origin", password: "pw", password_set: true },
    options: { waitForDeployment: true },
  };
  /** The same state as the engine keeps it: camelCase, the read-only flags at the top level. */
  const pulumi = {
    name: "Photos",
    enabled: true,
    deploymentStatus: "deployed",
    dateDeployed: 1_700_000_000,
    passwordSet: true,
    deployment: { type: "webfolder", serviceSubdomains: ["photos"], robotsTxt: "origin", password: "pw" },
    waitForDeployment: true,
  };

  it("renames once each way, lifting the read-only deployment fields to the top level and back", () => {
    expect(toPulumiNames(core)).toEqual(pulumi);
    expect(toApiNames(pulumi)).toEqual(core);
  });

  it("reads a Source's state recorded by 0.1.0 (test/upgrade/recorded/v0.1.0), the flags at its top level, and writes it back the same", () => {
    const state = JSON.parse(readFileSync(path.join(RECORDED_0_1_0, "yaml-native", "prod.state.json"), "utf8")) as {
      deployment: { resources: { urn: string; outputs: Record<string, unknown> }[] };
    };
    const recorded = state.deployment.resources.find(({ urn }) => urn.endsWith("::assetdelivery:index:Source::photos"))!.outputs;
    expect(recorded).toMatchObject({ passwordSet: true, requestHandshakeSet: true, requestSigningKeySet: true });
    const read = toApiNames(recorded);
    expect(read).not.toHaveProperty("passwordSet");
    expect(read.deployment).toMatchObject({
      type: "webfolder",
      service_subdomains: ["upgrade-yaml-photos"],
      password_set: true,
      request_handshake_set: true,
      request_signing_key_set: true,
      "robots.txt": "origin",
    });
    expect(toPulumiNames(read)).toEqual(recorded);
  });

  it("reads a state whose deployment also holds a copy of a read-only flag (no release wrote one): the top level's count", () => {
    const copied = { ...pulumi, deployment: { ...pulumi.deployment, passwordSet: false } };
    expect(toApiNames(copied)).toEqual(core);
  });

  it("passes a deployment that is not an object, and unknown keys, as they are", () => {
    expect(toApiNames({ name: "x", deployment: UNKNOWN, fooBar: 1 })).toEqual({ name: "x", deployment: UNKNOWN, fooBar: 1, options: {} });
    expect(toPulumiNames({ deployment: UNKNOWN, deployment_status: UNKNOWN })).toEqual({ deployment: UNKNOWN, deploymentStatus: UNKNOWN });
  });

  it("writes a path of the core's names as the program reads it", () => {
    expect(describePulumiPath(["deployment", "custom_domains", 1])).toBe("deployment.customDomains[1]");
    expect(describePulumiPath(["deployment_status"])).toBe("deploymentStatus");
    expect(describePulumiPath(["purgeAfterUpdate", 0])).toBe("purgeAfterUpdate[0]");
    expect(describePulumiPath([])).toBe("(Source)");
  });
});

// An editor shows the TypeScript resource's doc comments, which the compiler cannot take from the
// field table; this holds them to it (the `enabled` comment had drifted from it once).
describe("the dynamic SourceArgs' doc comments", () => {
  const text = readFileSync(path.join(__dirname, "../../provider/src/dynamic/source-types.ts"), "utf8");
  const docOf = (member: string) => new RegExp(String.raw`/\*\* (.*?) \*/\n\s+${member}\??:`).exec(text)?.[1];

  it.each(sourceAttributeDescriptors.filter((field) => !field.readOnly).map((field) => [field.name, field] as const))(
    "%s says the field table's description and default",
    (name, field) => {
      const expected = field.description! + ("default" in field ? ` Default ${String(field.default)}.` : "");
      expect(docOf(name)).toBe(expected);
    },
  );
});
