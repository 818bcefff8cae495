// Secrets the server is trusted to hold (`assetdelivery:trustedSecrets`, written by `asset-delivery
// import --from-terraform --trust-state-secrets`): bound to a Source id, a write-only field of its
// type and a value; read only where Pulumi has no state of the Source yet (an import's read, an
// adoption by id), for every type's secrets; a bad record refused by name. Against a real server,
// counting the PATCHes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createClient, deploymentFieldDescriptors, SOURCE_TYPES, type AssetDeliveryClient, type Source } from "@asset-delivery/sdk";
import { createSourceProvider, type SourceProvider } from "../../provider/src/core/provider";
import { parseTrustedSecrets } from "../../provider/src/core/trusted-secrets";
import { pulumiConfigReader, TRUSTED_SECRETS_KEY } from "../../provider/src/pulumi-names/config-keys";
import { PULUMI_INSTRUCTIONS } from "../../provider/src/pulumi-names/instructions";
import { checkProviderConfig } from "../../provider/src/plugin/config-check";
import { NativeProvider } from "../../provider/src/plugin/provider";
import { checkedSource } from "../support/checked-source";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let client: AssetDeliveryClient;
let labels = 0;
const label = (prefix: string) => `${prefix}-${++labels}`;
const K32 = (c: string) => c.repeat(32);

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});
beforeEach(() => server.resetRequestCount());

/** A record of camelCase secrets (the tests' declarations) in the API's names. */
function apiNamed(trusted: Record<string, Record<string, string>>): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(trusted).map(([id, fields]) => [
      id,
      Object.fromEntries(Object.entries(fields).map(([field, value]) => [snake(field), value])),
    ]),
  );
}

/** A provider configured as the engine would, with this `trustedSecrets` setting (JSON text), or none. */
function providerTrusting(trusted?: Record<string, Record<string, string>>): SourceProvider {
  const provider = createSourceProvider({ warn: async () => {}, instructions: PULUMI_INSTRUCTIONS });
  const config: Record<string, string> = {
    "assetdelivery:baseUrl": server.url,
    "assetdelivery:apiKey": server.adminKey,
    // The record speaks the API's names, as the import writes it.
    ...(trusted && { [TRUSTED_SECRETS_KEY]: JSON.stringify(apiNamed(trusted)) }),
  };
  provider.configure(pulumiConfigReader((key) => config[key]));
  return provider;
}

/** Every type, with each of its write-only string fields (the Terraform providers' states hold s3's and gcs's). */
const TYPES = {
  s3: { deployment: { type: "s3", s3_bucket: "trusted-bucket", s3_access_key: "AKIA" }, secrets: { s3SecretKey: "s3-secret" } },
  gcs: { deployment: { type: "gcs", gcs_bucket: "trusted-bucket", gcs_access_key: "GOOG" }, secrets: { gcsSecretKey: "gcs-secret" } },
  azure: {
    deployment: { type: "azure", azure_account: "account", azure_bucket: "container", azure_service_type: "blob" },
    secrets: { azureSasString: "sv=2024-01-01&sig=abc" },
  },
  s3_compatible: {
    deployment: {
      type: "s3_compatible",
      access_key_id: "key",
      bucket_name: "bucket",
      endpoint_url: "https://storage.example.com",
      region: "eu-west-1",
      storage_provider: "DigitalOcean",
    },
    secrets: { secretKey: "compatible-secret" },
  },
  webfolder: {
    deployment: { type: "webfolder", webfolder_base_url: "https://origin.example.com/", username: "user" },
    secrets: { password: "folder-password", requestHandshake: K32("h"), requestSigningKey: K32("s") },
  },
  webproxy: {
    deployment: { type: "webproxy", username: "user" },
    secrets: { password: "proxy-password", requestHandshake: K32("p"), requestSigningKey: K32("q") },
  },
} as const;
type TypeName = keyof typeof TYPES;

const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Each type's each secret: the controls below show that every one of them is sent unless trusted. */
const SECRET_FIELDS = (Object.keys(TYPES) as TypeName[]).flatMap((type) =>
  Object.keys(TYPES[type].secrets).map((field) => [type, field] as const),
);

it("TYPES declares every type, each with every write-only string field it has (the field table's; a record holds strings only)", () => {
  expect(Object.keys(TYPES).sort()).toEqual([...SOURCE_TYPES].sort());
  for (const type of SOURCE_TYPES) {
    const strings = deploymentFieldDescriptors(type).filter((field) => field.writeOnly && field.type === "string");
    expect(Object.keys(TYPES[type].secrets).map(snake).sort(), type).toEqual(strings.map((field) => field.apiName).sort());
  }
});

/** A Source of this type made with its secrets, as Terraform made it. */
async function made(type: TypeName): Promise<Source> {
  const { deployment, secrets } = TYPES[type];
  const apiSecrets = Object.fromEntries(Object.entries(secrets).map(([field, value]) => [snake(field), value]));
  return client.sources.create({
    name: `Made ${type}`,
    deployment: { ...deployment, service_subdomains: [label(type.replace("_", "-"))], ...apiSecrets } as never,
  });
}

/** The declaration of the live Source with these secrets (camelCase), as the engine hands it to create. */
function declared(source: Source, secrets: Record<string, string>, adopt = true) {
  const { deployment } = source.attributes;
  const open = Object.fromEntries(
    Object.entries(deployment).filter(([key]) => !key.endsWith("_set") && !["allows_upload", "annotation"].includes(key)),
  );
  return checkedSource({
    name: source.attributes.name,
    enabled: source.attributes.enabled,
    deployment: { ...open, ...Object.fromEntries(Object.entries(secrets).map(([field, value]) => [snake(field), value])) },
    ...(adopt && { adoptSourceId: source.id }),
  });
}

describe("adoption by id (sourcesFromConfig, the dynamic Source)", () => {
  it.each(Object.keys(TYPES) as TypeName[])(
    "%s: trusted secrets equal to the declared ones: no PATCH, recorded in the state",
    async (type) => {
      const source = await made(type);
      const { secrets } = TYPES[type];
      const provider = providerTrusting({ [source.id]: secrets });
      server.resetRequestCount();
      const { id, outs } = await provider.create(declared(source, secrets));
      expect(id).toBe(source.id);
      expect(server.requestCount("PATCH")).toBe(0);
      for (const [field, value] of Object.entries(secrets)) expect(outs.deployment).toHaveProperty(snake(field), value);
      await provider.close();
    },
  );

  // The controls of "no PATCH" above: each secret would be sent were it not trusted.
  it.each(SECRET_FIELDS)("%s.%s: declared other than the trusted value, it is sent: one PATCH", async (type, field) => {
    const source = await made(type);
    const { secrets } = TYPES[type];
    const provider = providerTrusting({ [source.id]: secrets });
    server.resetRequestCount();
    await provider.create(declared(source, { ...secrets, [field]: K32("c") }));
    expect(server.requestCount("PATCH")).toBe(1);
    await provider.close();
  });

  it("bound to the Source id: another Source's trusted secrets are not this one's", async () => {
    const [source, other] = [await made("s3"), await made("s3")];
    const provider = providerTrusting({ [other.id]: TYPES.s3.secrets });
    server.resetRequestCount();
    await provider.create(declared(source, TYPES.s3.secrets));
    expect(server.requestCount("PATCH")).toBe(1);
    await provider.close();
  });

  it("without the record, as before: every declared secret is sent", async () => {
    const source = await made("gcs");
    const provider = providerTrusting();
    server.resetRequestCount();
    await provider.create(declared(source, TYPES.gcs.secrets));
    expect(server.requestCount("PATCH")).toBe(1);
    await provider.close();
  });

  it("a field the Source's type does not have is not trusted", async () => {
    const source = await made("s3");
    const provider = providerTrusting({ [source.id]: { gcsSecretKey: "s3-secret" } });
    server.resetRequestCount();
    await provider.create(declared(source, TYPES.s3.secrets));
    expect(server.requestCount("PATCH")).toBe(1);
    await provider.close();
  });
});

describe("an import's read (pulumi import, the import option: the native plugin)", () => {
  it.each(Object.keys(TYPES) as TypeName[])(
    "%s: the state records the trusted secrets; the same declared ones are no change",
    async (type) => {
      const source = await made(type);
      const { secrets } = TYPES[type];
      const provider = providerTrusting({ [source.id]: secrets });
      const imported = await provider.import(source.id);
      for (const [field, value] of Object.entries(secrets)) expect(imported.outputs.deployment).toHaveProperty(snake(field), value);
      // What `pulumi import` prints declares no secret.
      expect(JSON.stringify(imported.inputs)).not.toContain(Object.values(secrets)[0]);
      expect(provider.diff(source.id, imported.outputs, declared(source, secrets, false)).changes).toBe(false);
      const [field] = Object.keys(secrets);
      const changed = provider.diff(source.id, imported.outputs, declared(source, { ...secrets, [field!]: K32("z") }, false));
      expect(changed).toMatchObject({ changes: true, deploymentFields: [snake(field!)] });
      expect(server.requestCount("PATCH")).toBe(0);
      await provider.close();
    },
  );

  it("without the record the state holds no secret: the declared ones are a change, as before", async () => {
    const source = await made("s3");
    const provider = providerTrusting();
    const imported = await provider.import(source.id);
    expect(imported.outputs.deployment).not.toHaveProperty("s3_secret_key");
    expect(provider.diff(source.id, imported.outputs, declared(source, TYPES.s3.secrets, false)).changes).toBe(true);
    await provider.close();
  });
});

describe("a bad record is refused, naming where", () => {
  const id = "a".repeat(24);
  it.each([
    ["not JSON", "{", /^assetdelivery:trustedSecrets: must be JSON/],
    ["not an object", "[]", /^assetdelivery:trustedSecrets: must be an object of Source ids/],
    ["a bad id", '{"12": {}}', /^assetdelivery:trustedSecrets: "12": must be a 24-character Source id/],
    [
      "a field that is no secret",
      `{"${id}": {"s3_bucket": "b"}}`,
      new RegExp(`^assetdelivery:trustedSecrets: ${id}\\.s3_bucket: not a write-only field`),
    ],
    [
      "a write-only field in the resource's names, not the API's",
      `{"${id}": {"s3SecretKey": "k"}}`,
      new RegExp(`^assetdelivery:trustedSecrets: ${id}\\.s3SecretKey: not a write-only field`),
    ],
    ["an empty value", `{"${id}": {"password": ""}}`, new RegExp(`${id}\\.password: must be a non-empty string`)],
  ])("%s", (_, text, message) => {
    expect(() => parseTrustedSecrets(text, PULUMI_INSTRUCTIONS)).toThrow(message);
  });

  it("by the steps that read it only: a refresh still works, an adoption fails naming the key", async () => {
    const source = await made("s3");
    const provider = createSourceProvider({ warn: async () => {}, instructions: PULUMI_INSTRUCTIONS });
    const config: Record<string, string> = {
      "assetdelivery:baseUrl": server.url,
      "assetdelivery:apiKey": server.adminKey,
      [TRUSTED_SECRETS_KEY]: "{",
    };
    provider.configure(pulumiConfigReader((key) => config[key]));
    const imported = await providerTrusting().import(source.id);
    expect((await provider.read(source.id, imported.outputs)).id).toBe(source.id);
    await expect(provider.create(declared(source, TYPES.s3.secrets))).rejects.toThrow(/^assetdelivery:trustedSecrets: must be JSON/);
    await provider.close();
  });

  it("by the native provider's configuration check, as a failure of trustedSecrets", async () => {
    const values = { baseUrl: server.url, apiKey: server.adminKey, trustedSecrets: "{" };
    expect(checkProviderConfig(values).failures).toEqual([
      { property: "trustedSecrets", reason: expect.stringMatching(/^assetdelivery:trustedSecrets: must be JSON/) },
    ]);
    const provider = new NativeProvider();
    await expect(provider.configure(values)).rejects.toThrow(/must be JSON/);
    await provider.close();
  });
});
