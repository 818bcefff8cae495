// `check` applies every rule of the sdk's schemas before any API call and names the property as
// the program wrote it; values unknown during a preview are tolerated. Here as the dynamic resource
// runs it (secrets apart in `deploymentSecrets`, merged and split at the dynamic shell's edge).
import { beforeAll, describe, expect, it } from "vitest";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { sourceProvider } from "../../provider/src/dynamic/runtime";

// Not configured: check needs no configuration, and without one it looks no host name up (the
// hand-over checks list the account). A file run before this one in the worker may have configured it.
beforeAll(() => sourceProvider.configure({ config: { get: () => undefined, require: (key: string) => key } }));

/** The dynamic shell's check (dynamic/runtime.ts), as the host calls it for a new resource. */
async function checkSource(news: Record<string, unknown>) {
  const { inputs, failures } = await sourceProvider.check({}, news);
  if (!failures) throw new Error("the dynamic shell's check answered without its failures (an empty list when there are none)");
  return { inputs, failures };
}

const webfolder = { type: "webfolder", serviceSubdomains: ["photos"], webfolderBaseUrl: "https://origin.example.com/images/" };
const s3 = { type: "s3", serviceSubdomains: ["assets"], s3AccessKey: "AKIAEXAMPLE", s3Bucket: "my-bucket" };

const reasons = async (inputs: Record<string, unknown>) => (await checkSource(inputs)).failures.map((f) => f.reason);

describe("check", () => {
  it("accepts a valid Source and fills in the API's defaults", async () => {
    const { inputs, failures } = await checkSource({ name: "Photos", deployment: webfolder, deploymentSecrets: {} });
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({
      name: "Photos",
      enabled: true,
      waitForDeployment: true,
      deploymentTimeoutSeconds: 300,
      deployment: {
        ...webfolder,
        cacheTtlBehavior: "respect_origin",
        cacheTtlError: 300,
        cacheTtlValue: 31_536_000,
        customDomains: [],
        defaultParams: {},
        robotsTxt: "origin",
        username: null,
      },
      deploymentSecrets: {},
    });
    expect(inputs.deployment).not.toHaveProperty("annotation");
  });

  it("names each broken rule by the camelCase path the user wrote", async () => {
    const failures = await reasons({
      name: " ",
      deployment: {
        ...webfolder,
        serviceSubdomains: ["photos", "PHOTOS"],
        cacheTtlError: 0,
        robotsTxt: "maybe",
        defaultParams: { w: 100, "not-a-param": 1 },
        s3Bucket: "x",
      },
      deploymentSecrets: { requestHandshake: "too short" },
    });
    expect(failures).toEqual(
      expect.arrayContaining([
        "name: must not be blank",
        "deployment.cacheTtlError: must be from 1 to 31536000 seconds",
        'deployment.serviceSubdomains[1]: must not repeat "PHOTOS" (names are compared case-insensitively)',
        "deployment.robotsTxt: must be one of origin, allow-all, disallow-all",
        'deployment.defaultParams["not-a-param"]: "not-a-param" is not a rendering parameter of the URL API',
        "deployment.s3Bucket: is not a field of this object",
        "deployment.requestHandshake: must be exactly 32 characters long",
      ]),
    );
    expect(failures).toHaveLength(7);
  });

  it("refuses more than 100 hostnames at preview, naming the field and the rule", async () => {
    const domains = (count: number) => Array.from({ length: count }, (_, i) => `d${i}.example.com`);
    expect(await reasons({ name: "Photos", deployment: { ...webfolder, customDomains: domains(99) }, deploymentSecrets: {} })).toEqual([]);
    expect(await reasons({ name: "Photos", deployment: { ...webfolder, customDomains: domains(100) }, deploymentSecrets: {} })).toEqual([
      "deployment.customDomains: must name at most 100 hostnames: a Source has at most 100, service_subdomains and custom_domains together (101 given)",
    ]);
  });

  it("requires a type's write-only secrets at creation, and names them where they were declared", async () => {
    expect(await reasons({ name: "Assets", deployment: s3, deploymentSecrets: {} })).toEqual(["deployment.s3SecretKey: is required"]);
  });

  it("lets an adopted Source keep the secrets stored on the server", async () => {
    const { failures, inputs } = await checkSource({
      name: "Assets",
      deployment: s3,
      deploymentSecrets: {},
      adoptSourceId: "a".repeat(24),
    });
    expect(failures).toEqual([]);
    expect(inputs.adoptSourceId).toBe("a".repeat(24));
  });

  it("rejects an unknown deployment type with the list of types", async () => {
    expect(await reasons({ name: "x", deployment: { type: "ftp", serviceSubdomains: ["a"] } })).toEqual([
      "deployment.type: must be one of azure, gcs, s3, webfolder, webproxy, s3_compatible",
    ]);
  });

  it("validates the provider's own inputs", async () => {
    expect(
      await reasons({ name: "x", deployment: webfolder, waitForDeployment: "yes", deploymentTimeoutSeconds: 0, adoptSourceId: "short" }),
    ).toEqual([
      "waitForDeployment: must be true or false",
      "deploymentTimeoutSeconds: must be from 1 to 3600 seconds",
      "adoptSourceId: must be a 24-character Source id",
    ]);
  });

  it("keeps secrets apart from the public deployment in the checked inputs", async () => {
    const { inputs } = await checkSource({
      name: "Assets",
      deployment: s3,
      deploymentSecrets: { s3SecretKey: "SECRET", uploadCredentials: { type: "s3", s3AccessKey: "UA", s3SecretKey: "US" } },
    });
    expect(inputs.deploymentSecrets).toEqual({
      s3SecretKey: "SECRET",
      uploadCredentials: { type: "s3", s3AccessKey: "UA", s3SecretKey: "US" },
    });
    expect(JSON.stringify(inputs.deployment)).not.toContain("SECRET");
    expect(JSON.stringify(inputs.deployment)).not.toContain("US");
  });

  it("tolerates values not known during a preview, and still reports the known mistakes", async () => {
    const { inputs, failures } = await checkSource({
      name: unknownValue,
      deployment: { ...s3, serviceSubdomains: ["assets", unknownValue], s3Bucket: unknownValue, cacheTtlValue: 10 },
      deploymentSecrets: { s3SecretKey: unknownValue },
    });
    expect(failures.map((f) => f.reason)).toEqual(["deployment.cacheTtlValue: must be from 1800 to 31536000 seconds"]);
    expect(inputs.name).toBe(unknownValue);
  });

  it("fills the defaults and normalizes every known path when one value is not known yet (a preview's diff shows only that one)", async () => {
    const declared = {
      name: "Photos",
      deployment: { ...webfolder, cacheTtlError: 600 },
      deploymentSecrets: { password: "origin-password" },
      purgeAfterUpdate: ["/a.jpg"],
    };
    const known = await checkSource(declared);
    expect(known.failures).toEqual([]);
    for (const [path, partly] of [
      ["name", { ...declared, name: unknownValue }],
      ["enabled", { ...declared, enabled: unknownValue }],
      ["deployment.customDomains", { ...declared, deployment: { ...declared.deployment, customDomains: [unknownValue] } }],
      ["deploymentSecrets.password", { ...declared, deploymentSecrets: { password: unknownValue } }],
      ["deploymentSecrets", { ...declared, deploymentSecrets: unknownValue }],
      ["deploymentTimeoutSeconds", { ...declared, deploymentTimeoutSeconds: unknownValue }],
    ] as const) {
      const checked = await checkSource(partly);
      expect(checked.failures, path).toEqual([]);
      // The same inputs as the known declaration's, but the one unknown path.
      const [top, inner] = path.split(".") as [string, string | undefined];
      const expected = structuredClone(known.inputs) as Record<string, Record<string, unknown>>;
      if (inner === undefined) expected[top] = unknownValue as never;
      else expected[top]![inner] = inner === "customDomains" ? [unknownValue] : unknownValue;
      expect(checked.inputs, path).toEqual(expected);
    }
  });

  it("drops read-only fields and fills the deployment's defaults of its type, with an unknown value elsewhere", async () => {
    const { inputs, failures } = await checkSource({
      name: unknownValue,
      deployment: { ...s3, allowsUpload: true },
      deploymentSecrets: { s3SecretKey: "SECRET" },
    });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({
      name: unknownValue,
      enabled: true,
      waitForDeployment: true,
      deploymentTimeoutSeconds: 300,
      deployment: {
        ...s3,
        cacheTtlBehavior: "respect_origin",
        cacheTtlError: 300,
        cacheTtlValue: 31_536_000,
        crossdomainXmlEnabled: false,
        customDomains: [],
        defaultParams: {},
        imageError: null,
        imageErrorAppendQs: false,
        imageMissing: null,
        imageMissingAppendQs: false,
        secureUrlEnabled: false,
        robotsTxt: "origin",
        s3Prefix: null,
      },
      deploymentSecrets: { s3SecretKey: "SECRET" },
    });
  });

  it("tolerates secrets not known yet as a whole, required ones included", async () => {
    const { inputs, failures } = await checkSource({ name: "Assets", deployment: s3, deploymentSecrets: unknownValue });
    expect(failures).toEqual([]);
    expect(inputs.deploymentSecrets).toBe(unknownValue);
    expect(inputs.deployment).toMatchObject({ ...s3, cacheTtlError: 300 });
  });

  it("keeps the declared secrets of a deployment not known as a whole", async () => {
    const { inputs, failures } = await checkSource({ name: "Photos", deployment: unknownValue, deploymentSecrets: { password: "pw" } });
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ name: "Photos", enabled: true, deployment: unknownValue, deploymentSecrets: { password: "pw" } });
  });

  it("tolerates a deployment whose type is not known yet", async () => {
    expect(await reasons({ name: "x", deployment: { ...webfolder, type: unknownValue } })).toEqual([]);
  });
});

describe("check of the provider's options", () => {
  it("refuses a program's own property named as the core keeps the options (`options`), by that name", async () => {
    const { failures } = await checkSource({
      name: "Photos",
      deployment: webfolder,
      deploymentSecrets: {},
      options: { waitForDeployment: false },
    });
    expect(failures).toEqual([{ property: "options", reason: "options: not a property of a Source" }]);
  });
});
