// Type-level checks of the Source types: a deployment of one type rejects another type's fields,
// secrets are never in a returned deployment, and PATCH may omit them.
import { describe, expectTypeOf, it } from "vitest";
import type {
  Deployment,
  DeploymentInput,
  DeploymentInputOf,
  DeploymentOf,
  DeploymentPatchInput,
  ListQuery,
  SelectedSource,
  Source,
  SourceCreateAttributes,
  sourceListSpec,
  SourcePatchAttributes,
} from "@asset-delivery/sdk";

describe("deployment input types", () => {
  it("a deployment of one type rejects another type's fields", () => {
    const webproxy: DeploymentInput = { type: "webproxy", service_subdomains: ["a"] };
    expectTypeOf(webproxy).toMatchTypeOf<DeploymentInput>();
    // @ts-expect-error: s3_bucket belongs to s3
    const mixed: DeploymentInput = { type: "webproxy", service_subdomains: ["a"], s3_bucket: "images" };
    const mixed2: DeploymentInputOf<"s3"> = {
      type: "s3",
      service_subdomains: ["a"],
      s3_access_key: "k",
      s3_bucket: "b",
      s3_secret_key: "s",
      // @ts-expect-error: webfolder_base_url belongs to webfolder
      webfolder_base_url: "https://x",
    };
    void mixed;
    void mixed2;
  });

  it("each type's required fields are required", () => {
    // @ts-expect-error: s3 needs its bucket and keys
    const s3: DeploymentInput = { type: "s3", service_subdomains: ["a"] };
    // @ts-expect-error: service_subdomains is required
    const noSubdomains: DeploymentInput = { type: "webproxy" };
    void s3;
    void noSubdomains;
  });

  it("enums are literal unions", () => {
    expectTypeOf<DeploymentInputOf<"webproxy">["robots.txt"]>().toEqualTypeOf<"allow-all" | "disallow-all" | undefined>();
    expectTypeOf<DeploymentInputOf<"s3_compatible">["storage_provider"]>().toEqualTypeOf<"DigitalOcean" | "Wasabi" | "Linode">();
    // @ts-expect-error: not a storage provider
    const provider: DeploymentInputOf<"s3_compatible">["storage_provider"] = "Backblaze";
    void provider;
  });

  it("read-only fields are not part of the input", () => {
    expectTypeOf<DeploymentInputOf<"webfolder">>().not.toHaveProperty("password_set");
    expectTypeOf<DeploymentInputOf<"s3">>().not.toHaveProperty("allows_upload");
  });
});

describe("returned deployment types", () => {
  it("have no secrets and every read-only flag", () => {
    expectTypeOf<DeploymentOf<"s3">>().not.toHaveProperty("s3_secret_key");
    expectTypeOf<DeploymentOf<"webfolder">>().not.toHaveProperty("password");
    expectTypeOf<DeploymentOf<"webfolder">["password_set"]>().toEqualTypeOf<boolean>();
    expectTypeOf<DeploymentOf<"s3">["allows_upload"]>().toEqualTypeOf<boolean>();
    expectTypeOf<DeploymentOf<"s3">["cache_ttl_error"]>().toEqualTypeOf<number>();
  });

  it("narrow by type", () => {
    const deployment = {} as Deployment;
    if (deployment.type === "gcs") expectTypeOf(deployment.gcs_bucket).toEqualTypeOf<string>();
    expectTypeOf<Source["attributes"]["deployment"]>().toEqualTypeOf<Deployment>();
  });

  it("a fields selection makes every attribute optional", () => {
    expectTypeOf<SelectedSource["attributes"]["name"]>().toEqualTypeOf<string | undefined>();
  });

  it("a fields selection's deployment may hold any returned field of any type, never a secret", () => {
    type Selected = NonNullable<SelectedSource["attributes"]["deployment"]>;
    expectTypeOf<Selected["s3_bucket"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Selected["password_set"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Selected>().not.toHaveProperty("password");
  });
});

describe("create and PATCH attributes", () => {
  it("create needs name and deployment; PATCH needs neither", () => {
    // @ts-expect-error: name is required at creation
    const noName: SourceCreateAttributes = { deployment: { type: "webproxy", service_subdomains: ["a"] } };
    const patch: SourcePatchAttributes = { enabled: false };
    void noName;
    void patch;
  });

  it("a PATCH deployment may omit secrets, a create one may not", () => {
    const patch: DeploymentPatchInput = { type: "s3", service_subdomains: ["a"], s3_access_key: "k", s3_bucket: "b" };
    // @ts-expect-error: s3_secret_key is required at creation
    const create: DeploymentInput = { type: "s3", service_subdomains: ["a"], s3_access_key: "k", s3_bucket: "b" };
    void patch;
    void create;
  });
});

describe("list query types", () => {
  it("accepts the Source filters and sorts only", () => {
    const query: ListQuery<typeof sourceListSpec> = { filter: { "deployment.type": "s3", enabled: true }, sort: ["-name"] };
    void query;
    // @ts-expect-error: not a Source filter
    const badFilter: ListQuery<typeof sourceListSpec> = { filter: { color: "red" } };
    // @ts-expect-error: boolean filter
    const badBoolean: ListQuery<typeof sourceListSpec> = { filter: { enabled: "yes" } };
    // @ts-expect-error: not sortable
    const badSort: ListQuery<typeof sourceListSpec> = { sort: ["deployment.type"] };
    void badFilter;
    void badBoolean;
    void badSort;
  });
});
