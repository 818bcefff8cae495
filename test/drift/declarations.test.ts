// The secrets a printed declaration reads from config, which the report names ("Its secrets come
// from config: `pulumi config set --secret …`"): only those the live Source holds, by its flags
// (`password_set`, `request_handshake_set`, `request_signing_key_set`, `allows_upload`) and the
// write-only keys its type requires, plus the values the program passes as secrets.
import { describe, expect, it } from "vitest";
import { deploymentCreateSchema, type DeploymentInput } from "@asset-delivery/sdk";
import { secretsOf } from "../../cli/src/drift/declarations/secrets";
import { terraformSecretKey } from "../../cli/src/import/terraform";
import type { DeclaredSource } from "../../cli/src/drift/declared-state";
import { COMPLETE, sourceResource } from "../support/api-documents";

function liveDeclared(
  name: string,
  deployment: Record<string, unknown>,
  flags: Record<string, boolean> = {},
  secretPaths: string[][] = [],
) {
  const live = sourceResource({ name, deployment: deployment as DeploymentInput });
  Object.assign(live.attributes.deployment, flags);
  const declared: DeclaredSource = {
    name,
    urn: `urn:pulumi:prod::site::assetdelivery:index:Source::${name}`,
    shape: "native",
    id: live.id,
    inputs: {
      name,
      enabled: true,
      deployment: deploymentCreateSchema.parse(deployment),
      options: { waitForDeployment: true, deploymentTimeoutSeconds: 600 },
    },
    secretPaths,
  };
  return { declared, live };
}

const keys = (source: ReturnType<typeof liveDeclared>) => secretsOf(source).map(({ key }) => key);

describe("the secrets a declaration reads from config", () => {
  it("are none for a web proxy or web folder that holds no password, handshake or signing key", () => {
    expect(keys(liveDeclared("docs", COMPLETE.webproxy))).toEqual([]);
    expect(keys(liveDeclared("photos", COMPLETE.webfolder))).toEqual([]);
  });

  it("are the write-only fields whose flag says set, and only those", () => {
    expect(keys(liveDeclared("photos", COMPLETE.webfolder, { password_set: true }))).toEqual(["photosPassword"]);
    expect(keys(liveDeclared("proxy", COMPLETE.webproxy, { request_handshake_set: true, request_signing_key_set: true }))).toEqual([
      "proxyRequestHandshake",
      "proxyRequestSigningKey",
    ]);
  });

  it("include the write-only key a storage type requires, and upload credentials only when allows_upload says so", () => {
    expect(keys(liveDeclared("assets", COMPLETE.s3))).toEqual(["assetsS3SecretKey"]);
    expect(keys(liveDeclared("assets", COMPLETE.s3, { allows_upload: true }))).toEqual(["assetsUploadCredentials", "assetsS3SecretKey"]);
    expect(keys(liveDeclared("files", COMPLETE.azure))).toEqual(["filesAzureSasString"]);
    expect(keys(liveDeclared("bucket", COMPLETE.s3_compatible))).toEqual(["bucketSecretKey"]);
  });

  it("include a value the program passes as a secret, with the live value to find in the code", () => {
    const source = liveDeclared("assets", COMPLETE.s3, {}, [["deployment", "s3AccessKey"]]);
    expect(secretsOf(source)).toEqual([
      { path: ["deployment", "s3SecretKey"], key: "assetsS3SecretKey" },
      { path: ["deployment", "s3AccessKey"], key: "assetsS3AccessKey", value: "AKIA1" },
    ]);
  });

  it("are named as the Terraform import wrote them, whatever the resource name: one rule", () => {
    for (const name of ["media-0", "photos_eu", "Shop.Images", "cdn--thumbs-2"]) {
      const stored = liveDeclared(name, COMPLETE.s3);
      expect(keys(stored)).toEqual([terraformSecretKey(true, name, "s3SecretKey")]);
    }
  });
});
