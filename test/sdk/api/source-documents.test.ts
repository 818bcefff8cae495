// The shape of Source documents: required fields per type, unknown and read-only fields, secrets
// that are accepted but never returned, PATCH bodies that keep secrets by omitting them.
import { describe, expect, it } from "vitest";
import {
  deploymentSchema,
  readOnlyFields,
  requiredWriteOnlyFields,
  selectedSourceSchema,
  SOURCE_TYPES,
  sourceCreateAttributesSchema,
  sourcePatchAttributesSchema,
  sourceSchema,
  writeOnlyFields,
  type SourceType,
} from "@asset-delivery/sdk";
import { COMPLETE, returnedDeployment, sourceResource } from "../../support/api-documents";
import { issuesOf } from "../../support/schema-issues";

/** The fields each type requires at creation besides type and service_subdomains (spec 2.3, `*`). */
const REQUIRED: Record<SourceType, string[]> = {
  s3: ["s3_access_key", "s3_bucket", "s3_secret_key"],
  gcs: ["gcs_access_key", "gcs_bucket", "gcs_secret_key"],
  azure: ["azure_account", "azure_bucket", "azure_sas_string", "azure_service_type"],
  webfolder: ["webfolder_base_url"],
  webproxy: [],
  s3_compatible: ["access_key_id", "bucket_name", "endpoint_url", "region", "secret_key", "storage_provider"],
};

const create = (deployment: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  issuesOf(sourceCreateAttributesSchema, { name: "Photos", deployment, ...extra });

describe("required fields per type", () => {
  it.each(SOURCE_TYPES)("%s: a complete deployment passes, each required field missing fails", (type) => {
    expect(create(COMPLETE[type])).toEqual([]);
    for (const field of ["service_subdomains", ...REQUIRED[type]]) {
      const { [field]: _removed, ...rest } = COMPLETE[type];
      expect(create(rest)).toEqual([`deployment.${field}: is required`]);
    }
  });

  it("the required secrets are the write-only fields without a default", () => {
    expect(requiredWriteOnlyFields("s3")).toEqual(["s3_secret_key"]);
    expect(requiredWriteOnlyFields("azure")).toEqual(["azure_sas_string"]);
    expect(requiredWriteOnlyFields("webfolder")).toEqual([]);
  });
});

describe("unknown and foreign fields", () => {
  it("rejects a field of another type, naming it", () => {
    expect(create({ ...COMPLETE.webproxy, s3_bucket: "images" })).toEqual(["deployment.s3_bucket: is not a field of this object"]);
    expect(create({ ...COMPLETE.s3, webfolder_base_url: "https://x.example.com" })).toEqual([
      "deployment.webfolder_base_url: is not a field of this object",
    ]);
  });

  it("rejects unknown attributes and deployment fields", () => {
    expect(create(COMPLETE.webproxy, { color: "red" })).toEqual(["color: is not a field of this object"]);
    expect(create({ ...COMPLETE.webproxy, cache_ttl: 5 })).toEqual(["deployment.cache_ttl: is not a field of this object"]);
  });
});

describe("read-only fields", () => {
  it("are ignored when sent back, at the top level and in the deployment", () => {
    const parsed = sourceCreateAttributesSchema.parse({
      name: "Photos",
      deployment_status: "deployed",
      date_deployed: 1,
      secure_url_token: "t",
      deployment: { ...COMPLETE.s3, allows_upload: true },
    });
    expect(parsed.deployment_status).toBeUndefined();
    expect(parsed.date_deployed).toBeUndefined();
    expect(parsed.secure_url_token).toBeUndefined();
    expect((parsed.deployment as Record<string, unknown>).allows_upload).toBeUndefined();
  });

  it("are the set flags of the web types and allows_upload of the storage types", () => {
    expect(readOnlyFields("webfolder").sort()).toEqual(["password_set", "request_handshake_set", "request_signing_key_set"]);
    expect(readOnlyFields("gcs")).toEqual(["allows_upload"]);
    expect(readOnlyFields("s3_compatible")).toEqual([]);
  });

  it("are worked out once per type, and each caller gets a copy of its own", () => {
    readOnlyFields("gcs").push("changed_by_a_caller");
    writeOnlyFields("gcs").length = 0;
    expect(readOnlyFields("gcs")).toEqual(["allows_upload"]);
    expect(writeOnlyFields("gcs")).toContain("gcs_secret_key");
    expect(readOnlyFields("gcs")).not.toBe(readOnlyFields("gcs"));
  });
});

describe("write-only fields in responses", () => {
  it.each(SOURCE_TYPES)("%s: a returned deployment has no secret and every read-only flag", (type) => {
    const returned = returnedDeployment(COMPLETE[type] as never) as Record<string, unknown>;
    for (const secret of writeOnlyFields(type)) expect(returned).not.toHaveProperty(secret);
    expect(issuesOf(deploymentSchema, returned)).toEqual([]);
  });

  it("drops a secret a server would wrongly return, and requires the read-only flags", () => {
    const returned: Record<string, unknown> = { ...returnedDeployment(COMPLETE.webfolder as never), password: "leaked" };
    expect(deploymentSchema.parse(returned)).not.toHaveProperty("password");
    const { password_set: _dropped, ...withoutFlag } = returned;
    const issues = issuesOf(deploymentSchema, withoutFlag);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^password_set: /);
  });

  it("validates a whole returned Source, with a 24-character id", () => {
    const source = sourceResource();
    expect(issuesOf(sourceSchema, source)).toEqual([]);
    expect(issuesOf(sourceSchema, { ...source, id: "short" })).toEqual(["id: must be a 24-character Source id"]);
  });

  it("validates a fields selection member by member", () => {
    const id = "a".repeat(24);
    expect(issuesOf(selectedSourceSchema, { id, type: "sources", attributes: { deployment: { default_params: { w: 1 } } } })).toEqual([]);
    expect(issuesOf(selectedSourceSchema, { id, type: "sources", attributes: { deployment: { cache_ttl_value: 5 } } })).toEqual([
      "attributes.deployment.cache_ttl_value: must be from 1800 to 31536000 seconds",
    ]);
  });
});

describe("PATCH attributes", () => {
  it("may omit every attribute", () => {
    expect(issuesOf(sourcePatchAttributesSchema, {})).toEqual([]);
    expect(issuesOf(sourcePatchAttributesSchema, { enabled: false })).toEqual([]);
  });

  it("fills in no create default: an omitted attribute keeps its stored value", () => {
    expect(sourceCreateAttributesSchema.parse({ name: "Photos", deployment: COMPLETE.webproxy }).enabled).toBe(true);
    expect(sourcePatchAttributesSchema.parse({ name: "Photos" })).toEqual({ name: "Photos" });
  });

  it.each(SOURCE_TYPES)("%s: a deployment may omit its secrets to keep the stored ones", (type) => {
    const withoutSecrets = Object.fromEntries(Object.entries(COMPLETE[type]).filter(([name]) => !writeOnlyFields(type).includes(name)));
    expect(issuesOf(sourcePatchAttributesSchema, { deployment: withoutSecrets })).toEqual([]);
    expect(create(withoutSecrets)).toEqual(requiredWriteOnlyFields(type).map((name) => `deployment.${name}: is required`));
  });

  it("still checks the deployment's other required fields and rules", () => {
    const { s3_bucket: _removed, ...rest } = COMPLETE.s3;
    expect(issuesOf(sourcePatchAttributesSchema, { deployment: rest })).toEqual(["deployment.s3_bucket: is required"]);
    expect(issuesOf(sourcePatchAttributesSchema, { name: "" })).toEqual(["name: must not be blank"]);
  });
});
