// Reading the managed Sources out of an exported stack (`pulumi stack export --show-secrets`).
import { describe, expect, it } from "vitest";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime";
import { declaredSources, NATIVE_SOURCE_TYPE, resourceNames, SOURCE_RESOURCE_TYPE } from "../../cli/src/drift";

// Pulumi's secret envelope, as `pulumi stack export --show-secrets` writes it (the key and signature are @pulumi/pulumi's).
const SECRET_SIG = { [specialSigKey]: specialSecretSig };
const urn = (name: string, type = SOURCE_RESOURCE_TYPE) => `urn:pulumi:prod::site::${type}::${name}`;

function exported(resources: unknown[]) {
  return { version: 3, deployment: { manifest: {}, resources } };
}

const photos = {
  urn: urn("photos"),
  type: SOURCE_RESOURCE_TYPE,
  id: "a".repeat(24),
  custom: true,
  inputs: {
    name: "Photos",
    enabled: true,
    deployment: { type: "webfolder", serviceSubdomains: ["photos"] },
    deploymentSecrets: { ...SECRET_SIG, plaintext: JSON.stringify({ password: "hunter2" }) },
    __provider: "exports.handler = ...",
  },
};

describe("declaredSources", () => {
  it("keeps the Source resources by Pulumi name, with their inputs and secrets unwrapped", () => {
    const assets = { ...photos, urn: urn("assets"), id: "b".repeat(24), inputs: { ...photos.inputs, name: "Assets" } };
    const stack = { urn: urn("site-prod", "pulumi:pulumi:Stack"), type: "pulumi:pulumi:Stack" };
    const sources = declaredSources(exported([stack, photos, assets]));
    expect(sources.map((s) => [s.name, s.id])).toEqual([
      ["assets", "b".repeat(24)],
      ["photos", "a".repeat(24)],
    ]);
    // A dynamic Source's state, its secrets apart in `deploymentSecrets`, read in the core's shape: each where it lives, the API's names.
    expect(sources[1]!.inputs).toEqual({
      name: "Photos",
      enabled: true,
      deployment: { type: "webfolder", service_subdomains: ["photos"], password: "hunter2" },
      options: {},
    });
    expect(sources[1]!.secretPaths).toEqual([["deployment", "password"]]);
  });

  it("records where the program passed other values as secrets, down to list members", () => {
    const deployment = {
      type: "s3",
      s3AccessKey: { ...SECRET_SIG, plaintext: JSON.stringify("AKIASECRET") },
      customDomains: ["public.example.com", { ...SECRET_SIG, plaintext: JSON.stringify("private.example.com") }],
    };
    const [source] = declaredSources(exported([{ ...photos, inputs: { ...photos.inputs, deployment } }]));
    expect(source!.inputs.deployment).toEqual({
      type: "s3",
      s3_access_key: "AKIASECRET",
      custom_domains: ["public.example.com", "private.example.com"],
      password: "hunter2",
    });
    expect(source!.secretPaths).toEqual([
      ["deployment", "s3AccessKey"],
      ["deployment", "customDomains", "1"],
      ["deployment", "password"],
    ]);
  });

  it("skips an old copy waiting for deletion, and reads a stack without resources as none", () => {
    expect(declaredSources(exported([{ ...photos, delete: true }]))).toEqual([]);
    expect(declaredSources({ version: 3, deployment: { manifest: {} } })).toEqual([]);
  });

  it("refuses encrypted secrets, naming the resource", () => {
    const encrypted = { ...photos, inputs: { ...photos.inputs, deploymentSecrets: { ...SECRET_SIG, ciphertext: "v1:abc" } } };
    expect(() => declaredSources(exported([encrypted]))).toThrow(
      `${urn("photos")}: the state's secrets are encrypted (the stack must be exported with --show-secrets)`,
    );
  });

  it("refuses a Source without id or inputs, and a document that is no exported stack", () => {
    expect(() => declaredSources(exported([{ ...photos, id: "" }]))).toThrow(`${urn("photos")}: the state has no Source id`);
    expect(() => declaredSources(exported([{ ...photos, inputs: undefined }]))).toThrow(`${urn("photos")}: the state has no inputs`);
    expect(() => declaredSources({})).toThrow("the exported stack has no deployment");
  });

  it("reads native Sources (any language) beside dynamic ones: their inputs in the core's shape as recorded", () => {
    const native = {
      urn: urn("docs", NATIVE_SOURCE_TYPE),
      type: NATIVE_SOURCE_TYPE,
      id: "c".repeat(24),
      custom: true,
      inputs: {
        name: "Docs",
        enabled: true,
        deployment: {
          type: "webfolder",
          serviceSubdomains: ["docs"],
          password: { ...SECRET_SIG, plaintext: JSON.stringify("hunter2") },
          customDomains: ["docs.example.com"],
        },
      },
    };
    const sources = declaredSources(exported([photos, native]));
    expect(sources.map(({ name, shape, urn: at }) => [name, shape, at])).toEqual([
      ["docs", "native", urn("docs", NATIVE_SOURCE_TYPE)],
      ["photos", "dynamic", urn("photos")],
    ]);
    expect(sources[0]!.inputs).toEqual({
      name: "Docs",
      enabled: true,
      deployment: { type: "webfolder", service_subdomains: ["docs"], password: "hunter2", custom_domains: ["docs.example.com"] },
      options: {},
    });
    expect(sources[0]!.secretPaths).toEqual([["deployment", "password"]]);
    expect(resourceNames(exported([photos, native]))).toEqual(["photos", "docs"]);
  });
});
