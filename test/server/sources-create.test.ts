// POST /api/v1/sources (spec 4.2): defaults filled in, every field rule enforced with the field
// named in source.pointer, write-only values never returned, hostnames unique across accounts.
import { SOURCE_TYPES, sourceSchema, writeOnlyFields, type SourceType } from "@asset-delivery/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";
import { minimalDeployment, sourceClient, uniqueLabel, type SourceClient } from "./fixtures";

let server: TestServer;
let sources: SourceClient;
beforeAll(async () => {
  server = await startTestServer();
  sources = sourceClient(server, server.adminKey);
});
afterAll(() => server.close());

describe("create", () => {
  it("creates a Source with a 24-character id, status deploying and every default filled in", async () => {
    const subdomain = uniqueLabel();
    const response = await sources.create({
      name: "Defaults",
      deployment: { type: "webfolder", service_subdomains: [subdomain], webfolder_base_url: "https://o.example.com/" },
    });
    expect(response.status).toBe(201);
    const source = sourceSchema.parse(response.body.data);
    expect(source.id).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(response.headers.get("location")).toBe(`/api/v1/sources/${source.id}`);
    expect(source.attributes).toEqual({
      name: "Defaults",
      enabled: true,
      deployment_status: "deploying",
      date_deployed: null,
      deployment: {
        type: "webfolder",
        annotation: "New deployment created for Source by test-user",
        cache_ttl_behavior: "respect_origin",
        cache_ttl_error: 300,
        cache_ttl_value: 31536000,
        crossdomain_xml_enabled: false,
        custom_domains: [],
        default_params: {},
        image_error: null,
        image_error_append_qs: false,
        image_missing: null,
        image_missing_append_qs: false,
        secure_url_enabled: false,
        service_subdomains: [subdomain],
        webfolder_base_url: "https://o.example.com/",
        username: null,
        password_set: false,
        request_handshake_set: false,
        request_signing_key_set: false,
        "robots.txt": "origin",
      },
    });
    expect(response.body).toMatchObject({ included: [], jsonapi: { version: "1.0" } });
  });

  it("keeps a supplied annotation and ignores read-only attributes sent back", async () => {
    const response = await sources.create({
      name: "Annotated",
      deployment_status: "deployed",
      date_deployed: 5,
      deployment: { ...minimalDeployment("s3"), annotation: "first release", allows_upload: true },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.attributes).toMatchObject({ deployment_status: "deploying", date_deployed: null });
    expect(response.body.data.attributes.deployment).toMatchObject({ annotation: "first release", allows_upload: false });
  });

  it.each(SOURCE_TYPES)("creates a minimal %s Source and returns none of its write-only values", async (type: SourceType) => {
    const deployment = minimalDeployment(type);
    const secrets = writeOnlyFields(type)
      .map((field) => deployment[field])
      .filter((value): value is string => typeof value === "string");
    const created = await sources.create({ name: `minimal ${type}`, deployment });
    expect(created.status).toBe(201);
    const fetched = await sources.get(created.body.data.id);
    const listed = await sources.list(`filter[deployment.type]=${type}&page[size]=100`);
    for (const response of [created, fetched, listed]) {
      for (const field of writeOnlyFields(type)) expect(response.text).not.toContain(`"${field}"`);
      for (const secret of secrets) expect(response.text).not.toContain(secret);
    }
  });

  it("creates a disabled Source when enabled is false", async () => {
    const response = await sources.create({ name: "Off", enabled: false, deployment: minimalDeployment("webproxy") });
    expect(response.body.data.attributes).toMatchObject({ enabled: false, deployment_status: "disabled" });
  });

  it("reports allows_upload and the *_set flags from the stored secrets", async () => {
    const s3 = await sources.create({
      name: "uploads",
      deployment: {
        ...minimalDeployment("s3"),
        upload_credentials: { type: "s3", s3_access_key: "AKIAUP", s3_secret_key: "upload-secret-value" },
      },
    });
    expect(s3.body.data.attributes.deployment.allows_upload).toBe(true);
    expect(s3.text).not.toContain("upload-secret-value");
    expect(s3.text).not.toContain("upload_credentials");
    const web = await sources.create({
      name: "web auth",
      deployment: { ...minimalDeployment("webfolder"), username: "u", password: "p", request_handshake: "h".repeat(32) },
    });
    expect(web.body.data.attributes.deployment).toMatchObject({
      username: "u",
      password_set: true,
      request_handshake_set: true,
      request_signing_key_set: false,
    });
  });
});

describe("validation: each rule answers 400 naming the field in source.pointer", () => {
  const D = "/data/attributes/deployment";
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["name missing", { name: undefined }, "/data/attributes/name", /is required/],
    ["name blank", { name: "   " }, "/data/attributes/name", /must not be blank/],
    ["name too long", { name: "n".repeat(256) }, "/data/attributes/name", /at most 255/],
    ["enabled not boolean", { enabled: "yes" }, "/data/attributes/enabled", /true or false/],
    ["unknown attribute", { colour: "red" }, "/data/attributes/colour", /not a field/],
    ["deployment missing", { deployment: undefined }, `${D}`, /is required/],
    ["unknown type", { deployment: { type: "ftp", service_subdomains: ["a"] } }, `${D}/type`, /must be one of azure, gcs, s3/],
  ];
  const deploymentCases: [string, SourceType, Record<string, unknown>, string, RegExp][] = [
    ["cache_ttl_error below 1", "webproxy", { cache_ttl_error: 0 }, `${D}/cache_ttl_error`, /from 1 to 31536000/],
    ["cache_ttl_error not an integer", "webproxy", { cache_ttl_error: 1.5 }, `${D}/cache_ttl_error`, /integer/],
    ["cache_ttl_value below 1800", "webproxy", { cache_ttl_value: 1799 }, `${D}/cache_ttl_value`, /from 1800 to 31536000/],
    ["cache_ttl_value above a year", "webproxy", { cache_ttl_value: 31536001 }, `${D}/cache_ttl_value`, /from 1800 to 31536000/],
    [
      "cache_ttl_behavior unknown",
      "webproxy",
      { cache_ttl_behavior: "always" },
      `${D}/cache_ttl_behavior`,
      /respect_origin, override_origin, enforce_minimum/,
    ],
    ["no subdomain", "webproxy", { service_subdomains: [] }, `${D}/service_subdomains`, /at least one/],
    ["subdomain with a dot", "webproxy", { service_subdomains: ["a.b"] }, `${D}/service_subdomains/0`, /single subdomain label/],
    ["repeated subdomain", "webproxy", { service_subdomains: ["Dup", "dup"] }, `${D}/service_subdomains/1`, /must not repeat/],
    ["custom domain invalid", "webproxy", { custom_domains: ["not a domain"] }, `${D}/custom_domains/0`, /valid domain/],
    [
      "default_params unknown",
      "webproxy",
      { default_params: { notaparam: 1 } },
      `${D}/default_params/notaparam`,
      /not a rendering parameter/,
    ],
    ["default_params value", "webproxy", { default_params: { w: [1] } }, `${D}/default_params/w`, /string, number or boolean/],
    ["image_error not absolute", "webproxy", { image_error: "/error.png" }, `${D}/image_error`, /absolute http/],
    ["image_missing ftp", "webproxy", { image_missing: "ftp://x.com/a.png" }, `${D}/image_missing`, /absolute http/],
    ["boolean flag", "webproxy", { secure_url_enabled: "true" }, `${D}/secure_url_enabled`, /true or false/],
    ["annotation too long", "webproxy", { annotation: "a".repeat(1001) }, `${D}/annotation`, /at most 1000/],
    ["webproxy robots.txt origin", "webproxy", { "robots.txt": "origin" }, `${D}/robots.txt`, /allow-all, disallow-all/],
    ["username with colon", "webproxy", { username: "a:b" }, `${D}/username`, /must not contain ":"/],
    ["password with control character", "webfolder", { password: "a\u0007b" }, `${D}/password`, /control characters/],
    ["handshake not 32 characters", "webfolder", { request_handshake: "short" }, `${D}/request_handshake`, /exactly 32/],
    ["signing key not latin-1", "webfolder", { request_signing_key: "€".repeat(32) }, `${D}/request_signing_key`, /latin-1/],
    ["webfolder_base_url missing", "webfolder", { webfolder_base_url: undefined }, `${D}/webfolder_base_url`, /is required/],
    ["s3 secret missing", "s3", { s3_secret_key: undefined }, `${D}/s3_secret_key`, /is required/],
    ["s3 bucket uppercase", "s3", { s3_bucket: "MyBucket" }, `${D}/s3_bucket`, /lowercase/],
    ["s3 access key with space", "s3", { s3_access_key: "a b" }, `${D}/s3_access_key`, /white space/],
    ["s3 prefix control character", "s3", { s3_prefix: "a\nb" }, `${D}/s3_prefix`, /control characters/],
    ["upload_credentials incomplete", "s3", { upload_credentials: { type: "s3" } }, `${D}/upload_credentials/s3_access_key`, /is required/],
    ["gcs bucket", "gcs", { gcs_bucket: "-bad" }, `${D}/gcs_bucket`, /bucket name/],
    ["azure account", "azure", { azure_account: "Has-Dash" }, `${D}/azure_account`, /storage account name/],
    ["azure container", "azure", { azure_bucket: "a--b" }, `${D}/azure_bucket`, /container name/],
    ["azure service type", "azure", { azure_service_type: "queue" }, `${D}/azure_service_type`, /blob, file/],
    ["azure sas string", "azure", { azure_sas_string: "a b" }, `${D}/azure_sas_string`, /shared access signature/],
    ["storage provider", "s3_compatible", { storage_provider: "Acme" }, `${D}/storage_provider`, /must be one of/],
    ["region", "s3_compatible", { region: "us east" }, `${D}/region`, /region code/],
    ["endpoint url", "s3_compatible", { endpoint_url: "nyc3" }, `${D}/endpoint_url`, /absolute http/],
    ["field of another type", "webproxy", { s3_bucket: "my-bucket" }, `${D}/s3_bucket`, /not a field/],
  ];

  it.each(cases)("%s", async (_name, attributes, pointer, rule) => {
    const response = await sources.create({ name: "v", deployment: minimalDeployment("webproxy"), ...attributes });
    expectIssue(response, pointer, rule);
  });

  it.each(deploymentCases)("%s", async (_name, type, fields, pointer, rule) => {
    const response = await sources.create({ name: "v", deployment: { ...minimalDeployment(type), ...fields } });
    expectIssue(response, pointer, rule);
  });

  it("reports every invalid field at once", async () => {
    const response = await sources.create({
      name: "",
      deployment: { ...minimalDeployment("webproxy"), cache_ttl_error: 0, cache_ttl_value: 1 },
    });
    expect(response.status).toBe(400);
    const pointers = response.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort();
    expect(pointers).toEqual([
      "/data/attributes/deployment/cache_ttl_error",
      "/data/attributes/deployment/cache_ttl_value",
      "/data/attributes/name",
    ]);
  });

  it("refuses an id or a wrong type in a create document", async () => {
    const withId = await server.app.inject({
      method: "POST",
      url: "/api/v1/sources",
      headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/vnd.api+json" },
      payload: { data: { type: "sources", id: "abc", attributes: { name: "x", deployment: minimalDeployment("webproxy") } } },
    });
    expect(withId.statusCode).toBe(400);
    expect(withId.json().errors[0].source.pointer).toBe("/data/id");
    const wrongType = await server.app.inject({
      method: "POST",
      url: "/api/v1/sources",
      headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/vnd.api+json" },
      payload: { data: { type: "reports", attributes: { name: "x", deployment: minimalDeployment("webproxy") } } },
    });
    expect(wrongType.json().errors[0]).toMatchObject({ source: { pointer: "/data/type" }, detail: 'data.type: must be "sources"' });
  });
});

describe("at most 100 hostnames per Source, subdomains and custom domains together", () => {
  const names = (count: number, make: (i: number) => string) => Array.from({ length: count }, (_, i) => make(i));
  const tooMany = /must name at most 100 hostnames: a Source has at most 100, service_subdomains and custom_domains together/;

  it("creates a Source with 100, refuses 101 on create and on update, and reserves nothing refused", async () => {
    const label = uniqueLabel("many");
    const hundred = { ...minimalDeployment("webproxy", label), custom_domains: names(99, (i) => `d${i}.${label}.example.com`) };
    const id = await sources.createOk({ name: "a hundred hostnames", deployment: hundred });

    const overBoth = { ...minimalDeployment("webproxy"), custom_domains: names(100, (i) => `x${i}.${uniqueLabel()}.example.com`) };
    expectIssue(await sources.create({ name: "101", deployment: overBoth }), "/data/attributes/deployment/custom_domains", /\(101 given\)/);
    const overOne = { ...minimalDeployment("webproxy"), service_subdomains: names(101, () => uniqueLabel()) };
    expectIssue(
      await sources.create({ name: "101 subdomains", deployment: overOne }),
      "/data/attributes/deployment/service_subdomains",
      tooMany,
    );
    expectIssue(
      await sources.patch(id, { deployment: { ...hundred, custom_domains: [...hundred.custom_domains, `one-more.${label}.example.com`] } }),
      "/data/attributes/deployment/custom_domains",
      tooMany,
    );
    // The refused hostnames were never reserved: a new Source may take one.
    expect(
      (
        await sources.create({
          name: "free",
          deployment: { ...minimalDeployment("webproxy"), custom_domains: [overBoth.custom_domains[0]] },
        })
      ).status,
    ).toBe(201);
  });

  it("refuses 70,000 custom domains (an 800 KB body) by their count, before checking any of them", async () => {
    // Not one is a valid domain: a single error says the members were never looked at.
    const response = await sources.create({
      name: "bomb",
      deployment: { ...minimalDeployment("webproxy"), custom_domains: names(70_000, (i) => `x ${i}`) },
    });
    expectIssue(response, "/data/attributes/deployment/custom_domains", tooMany);
    expect(response.body.errors).toHaveLength(1);
  });
});

describe("hostnames are unique across all accounts, case-insensitively", () => {
  it("refuses a subdomain another account uses, naming the field and the value but not the other Source", async () => {
    const label = uniqueLabel("shared");
    const otherId = await sourceClient(server, server.accountKey(["Sources"], "uniq-other")).createOk({
      name: "theirs",
      deployment: minimalDeployment("webproxy", label),
    });
    const response = await sources.create({ name: "mine", deployment: minimalDeployment("webproxy", label.toUpperCase()) });
    expectIssue(response, "/data/attributes/deployment/service_subdomains/0", /already used by another Source/);
    expect(response.body.errors[0].detail).toContain(label.toUpperCase());
    expect(response.text).not.toContain(otherId);
    expect(response.text).not.toContain("theirs");
  });

  it("refuses a custom domain in use, in any case, and frees it when its Source lets it go", async () => {
    const domain = `${uniqueLabel("img")}.example.com`;
    const firstId = await sources.createOk({ name: "first", deployment: { ...minimalDeployment("webproxy"), custom_domains: [domain] } });
    const second = await sources.create({
      name: "second",
      deployment: { ...minimalDeployment("webproxy"), custom_domains: ["other.example.org", domain.toUpperCase()] },
    });
    expectIssue(second, "/data/attributes/deployment/custom_domains/1", /already used by another Source/);
    const first = await sources.get(firstId);
    const released = await sources.patch(firstId, { deployment: { ...first.body.data.attributes.deployment, custom_domains: [] } });
    expect(released.status).toBe(200);
    const retry = await sources.create({ name: "second", deployment: { ...minimalDeployment("webproxy"), custom_domains: [domain] } });
    expect(retry.status).toBe(201);
  });

  it("lets a Source keep its own hostnames on update", async () => {
    const label = uniqueLabel();
    const id = await sources.createOk({ name: "own", deployment: minimalDeployment("webproxy", label) });
    const response = await sources.patch(id, {
      deployment: { type: "webproxy", service_subdomains: [label.toUpperCase(), uniqueLabel()] },
    });
    expect(response.status).toBe(200);
  });
});

function expectIssue(response: { status: number; body: any }, pointer: string, rule: RegExp) {
  expect(response.status).toBe(400);
  const error = response.body.errors.find((e: { source?: { pointer?: string } }) => e.source?.pointer === pointer);
  expect(error, `no error at ${pointer}: ${JSON.stringify(response.body.errors)}`).toBeDefined();
  expect(error.title).toBe("ValidationError");
  expect(error.detail).toMatch(rule);
  // The detail names the field as the caller knows it.
  expect(error.detail.startsWith(pointer.replace("/data/attributes/", "").replace(/\//g, "."))).toBe(true);
}
