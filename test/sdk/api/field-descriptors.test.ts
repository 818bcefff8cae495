// The plain field descriptors everyone outside the API contract reads instead of the zod schemas:
// tied here to what the schemas do (the defaults a parse fills in, the fields a create requires,
// what a response may hold), so that a descriptor cannot say something the rule does not.
import { describe, expect, it } from "vitest";
import {
  attributePresentWhile,
  camelCase,
  deploymentCreateSchema,
  deploymentDefaults,
  deploymentFieldDescriptors,
  deploymentFieldsByType,
  deploymentFieldTypes,
  deploymentSchema,
  SOURCE_TYPES,
  sourceAttributeDescriptors,
  sourceCreateAttributesSchema,
  WRITABLE_SOURCE_ATTRIBUTE_DEFAULTS,
  type SourceType,
} from "@asset-delivery/sdk";
import { COMPLETE } from "../../support/api-documents";
import { issuesOf } from "../../support/schema-issues";

describe("field descriptors", () => {
  it.each(SOURCE_TYPES)("%s: one per field of the table, `type` first, each with its camelCase name", (type) => {
    const fields = deploymentFieldDescriptors(type);
    expect(fields.map((f) => f.apiName)).toEqual(["type", ...Object.keys(deploymentFieldsByType[type])]);
    for (const field of fields) expect(field.name).toBe(camelCase(field.apiName));
    expect(fields.find((f) => f.apiName === "robots.txt")?.name).toBe("robotsTxt");
    expect(fields[0]).toMatchObject({ type: "string", enum: [type], required: true });
  });

  it.each(SOURCE_TYPES)("%s: the defaults are what parsing a minimal create fills in", (type) => {
    const parsed = deploymentCreateSchema.parse(COMPLETE[type]) as Record<string, unknown>;
    const filled = Object.fromEntries(Object.entries(parsed).filter(([name, value]) => !(name in COMPLETE[type]) && value !== undefined));
    expect(deploymentDefaults(type)).toEqual(filled);
  });

  it.each(SOURCE_TYPES)("%s: the required fields are those a create without them is refused for", (type) => {
    const required = deploymentFieldDescriptors(type)
      .filter((f) => f.required && f.apiName !== "type")
      .map((f) => `deployment.${f.apiName}: is required`);
    expect(issuesOf(sourceCreateAttributesSchema, { name: "x", deployment: { type } }).sort()).toEqual(required.sort());
  });

  it.each(SOURCE_TYPES)("%s: a response holds every field but the write-only ones", (type) => {
    const response = deploymentSchema.parse({ ...deploymentCreateSchema.parse(COMPLETE[type]), annotation: "made", ...flagsOf(type) });
    const returned = deploymentFieldDescriptors(type).filter((f) => !f.writeOnly && f.default !== undefined);
    for (const field of returned) expect(response).toHaveProperty([field.apiName]);
    for (const field of deploymentFieldDescriptors(type).filter((f) => f.writeOnly)) expect(response).not.toHaveProperty([field.apiName]);
  });

  it("describes the shapes a schema needs: enums, lists, maps, nested objects, nullable values, presence flags", () => {
    const s3 = new Map(deploymentFieldDescriptors("s3").map((f) => [f.apiName, f]));
    expect(s3.get("cache_ttl_behavior")).toMatchObject({ type: "string", enum: ["respect_origin", "override_origin", "enforce_minimum"] });
    expect(s3.get("cache_ttl_error")).toMatchObject({ type: "integer", default: 300, affectsRendering: true });
    expect(s3.get("custom_domains")).toMatchObject({ type: "array", items: { type: "string" }, default: [] });
    expect(s3.get("default_params")).toMatchObject({ type: "map", values: { type: "oneOf" } });
    expect(s3.get("image_error")).toMatchObject({ type: "string", nullable: true, default: null });
    expect(s3.get("s3_secret_key")).toMatchObject({ writeOnly: true, required: true });
    expect(s3.get("allows_upload")).toMatchObject({ type: "boolean", readOnly: true, required: false, presenceOf: "upload_credentials" });
    expect(s3.get("upload_credentials")).toMatchObject({ type: "object", writeOnly: true, nullable: true, required: false });
    expect(s3.get("upload_credentials")).toHaveProperty("fields", [
      expect.objectContaining({ apiName: "type", enum: ["s3"] }),
      expect.objectContaining({ apiName: "s3_access_key", name: "s3AccessKey", required: true }),
      expect.objectContaining({ apiName: "s3_secret_key", name: "s3SecretKey", required: true }),
    ]);
    expect(deploymentFieldDescriptors("webproxy").find((f) => f.apiName === "robots.txt")).toMatchObject({
      enum: ["allow-all", "disallow-all"],
      default: "allow-all",
    });
  });

  it("says which types each deployment field belongs to", () => {
    expect(deploymentFieldTypes.get("cache_ttl_error")).toEqual(SOURCE_TYPES);
    expect(deploymentFieldTypes.get("password")).toEqual(["webfolder", "webproxy"]);
    expect(deploymentFieldTypes.get("s3_bucket")).toEqual(["s3"]);
  });

  it("describes the attributes besides the deployment, their default as a create fills it in", () => {
    expect(sourceAttributeDescriptors.map((f) => [f.apiName, f.name, f.readOnly])).toEqual([
      ["name", "name", false],
      ["enabled", "enabled", false],
      ["deployment_status", "deploymentStatus", true],
      ["date_deployed", "dateDeployed", true],
      ["secure_url_token", "secureUrlToken", true],
    ]);
    const parsed = sourceCreateAttributesSchema.parse({ name: "x", deployment: COMPLETE.webproxy });
    expect(WRITABLE_SOURCE_ATTRIBUTE_DEFAULTS).toEqual({ enabled: parsed.enabled });
  });

  it("mark an attribute present only while a deployment flag is on, which the server and a preview both read", () => {
    expect(sourceAttributeDescriptors.filter((f) => f.presentWhile !== undefined).map((f) => [f.apiName, f.presentWhile])).toEqual([
      ["secure_url_token", "secure_url_enabled"],
    ]);
    expect(attributePresentWhile("secure_url_token")).toBe("secure_url_enabled");
    expect(attributePresentWhile("deployment_status")).toBeUndefined();
    // The flag is a boolean every type has, so the condition means the same for every Source.
    expect(deploymentFieldTypes.get("secure_url_enabled")).toEqual(SOURCE_TYPES);
    for (const type of SOURCE_TYPES)
      expect(deploymentFieldDescriptors(type).find((f) => f.apiName === "secure_url_enabled")).toMatchObject({ type: "boolean" });
  });

  it("describe every field, for the documents and schemas made from them", () => {
    for (const type of SOURCE_TYPES) {
      for (const field of deploymentFieldDescriptors(type)) expect(field.description, `${type} ${field.apiName}`).toMatch(/\S/);
    }
    for (const field of sourceAttributeDescriptors) expect(field.description, field.apiName).toMatch(/\S/);
  });

  it("are plain data", () => {
    for (const type of SOURCE_TYPES) {
      const fields = deploymentFieldDescriptors(type);
      expect(JSON.parse(JSON.stringify(fields))).toEqual(fields);
    }
  });
});

/** The read-only flags of a type as a response carries them. */
function flagsOf(type: SourceType): Record<string, boolean> {
  return Object.fromEntries(
    deploymentFieldDescriptors(type)
      .filter((f) => f.readOnly)
      .map((f) => [f.apiName, false]),
  );
}
