// Type-level tests of the Source resource's arguments: `deployment` is a union discriminated by
// `type`, so each type's fields complete and another type's are rejected.
import { describe, expectTypeOf, it } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import type { SourceArgs, SourceDeploymentArgs, SourceDeploymentArgsOf, SourceDeploymentSecretsOf, Source } from "../../provider/src";
import type { CamelCase } from "../../provider/src/pulumi-names/rename";
import type { ReadOnlySourceAttribute, WritableSourceAttribute } from "@asset-delivery/sdk";

describe("SourceArgs", () => {
  it("accepts each type with its own fields, camelCase", () => {
    const s3: SourceDeploymentArgs = {
      type: "s3",
      serviceSubdomains: ["assets"],
      s3AccessKey: "AK",
      s3Bucket: "bucket",
      s3SecretKey: "SK",
      robotsTxt: "origin",
      cacheTtlBehavior: "override_origin",
    };
    const webfolder: SourceDeploymentArgs = {
      type: "webfolder",
      serviceSubdomains: ["photos"],
      webfolderBaseUrl: "https://origin.example.com/",
      password: "pw",
      requestHandshake: "h".repeat(32),
    };
    const webproxy: SourceDeploymentArgs = { type: "webproxy", serviceSubdomains: ["proxy"], robotsTxt: "disallow-all" };
    const azure: SourceDeploymentArgs = {
      type: "azure",
      serviceSubdomains: ["az"],
      azureAccount: "acct",
      azureBucket: "cont",
      azureSasString: "sv=1",
      azureServiceType: "blob",
    };
    const gcs: SourceDeploymentArgs = { type: "gcs", serviceSubdomains: ["g"], gcsAccessKey: "AK", gcsBucket: "b-b", gcsSecretKey: "SK" };
    const compatible: SourceDeploymentArgs = {
      type: "s3_compatible",
      serviceSubdomains: ["c"],
      accessKeyId: "AK",
      bucketName: "bucket",
      endpointUrl: "https://s3.example.com",
      region: "nyc3",
      secretKey: "SK",
      storageProvider: "Wasabi",
    };
    expectTypeOf([s3, webfolder, webproxy, azure, gcs, compatible]).toExtend<SourceDeploymentArgs[]>();
  });

  it("rejects another type's fields", () => {
    const wrong: SourceDeploymentArgs = {
      type: "webfolder",
      serviceSubdomains: ["photos"],
      webfolderBaseUrl: "https://origin.example.com/",
      // @ts-expect-error s3Bucket is a field of s3, not of webfolder
      s3Bucket: "bucket",
    };
    // @ts-expect-error webproxy's robots.txt cannot be "origin"
    const proxy: SourceDeploymentArgs = { type: "webproxy", serviceSubdomains: ["p"], robotsTxt: "origin" };
    void wrong;
    void proxy;
  });

  it("rejects the API's snake_case names", () => {
    // @ts-expect-error the resource takes serviceSubdomains, not service_subdomains
    const snake: SourceDeploymentArgs = { type: "webproxy", service_subdomains: ["p"] };
    void snake;
  });

  it("requires each type's required fields", () => {
    // @ts-expect-error s3 needs s3Bucket
    const missing: SourceDeploymentArgsOf<"s3"> = { type: "s3", serviceSubdomains: ["a"], s3AccessKey: "AK", s3SecretKey: "SK" };
    void missing;
    expectTypeOf<SourceDeploymentArgsOf<"webfolder">>().toHaveProperty("webfolderBaseUrl");
    expectTypeOf<SourceDeploymentArgsOf<"webfolder">>().not.toHaveProperty("passwordSet");
  });

  it("takes Pulumi inputs for every field, lists of inputs included", () => {
    const secret = pulumi.secret("SK");
    const label = pulumi.output("assets");
    const args: SourceArgs = {
      name: pulumi.output("Assets"),
      deployment: { type: "s3", serviceSubdomains: [label], s3AccessKey: "AK", s3Bucket: "bucket", s3SecretKey: secret },
    };
    expectTypeOf(args).toExtend<SourceArgs>();
  });

  it("names the write-only secrets of a type", () => {
    expectTypeOf<keyof SourceDeploymentSecretsOf<"s3">>().toEqualTypeOf<"s3SecretKey" | "uploadCredentials">();
    expectTypeOf<keyof SourceDeploymentSecretsOf<"webfolder">>().toEqualTypeOf<"password" | "requestHandshake" | "requestSigningKey">();
  });
});

describe("Source outputs", () => {
  it("has every returned attribute, read-only deployment fields at the top level", () => {
    expectTypeOf<Source["deploymentStatus"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Source["passwordSet"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<Source["allowsUpload"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<Source["secureUrlToken"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
  });

  it("declares every top-level attribute the sdk lists, camelCase", () => {
    // The class declares them one by one (each with its documentation): a new attribute in the sdk fails here.
    expectTypeOf<CamelCase<WritableSourceAttribute | ReadOnlySourceAttribute>>().toExtend<keyof Source>();
  });
});
