// The one walker of Pulumi's secret envelopes (`@asset-delivery/provider/secret-envelopes`): the
// engine's wire form and an exported state's forms, on @pulumi/pulumi's own constants.
import { describe, expect, it } from "vitest";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { EncryptedSecretError, openSecretEnvelopes, secretEnvelope } from "@asset-delivery/provider/secret-envelopes";

const sig = { [specialSigKey]: specialSecretSig };

describe("openSecretEnvelopes", () => {
  it("opens the engine's wire form {sig, value} wherever it is nested, and says where", () => {
    const wire = {
      name: "Photos",
      deployment: { type: "webproxy", password: { ...sig, value: "pw" }, customDomains: ["a", { ...sig, value: "b" }] },
    };
    expect(openSecretEnvelopes(wire)).toEqual({
      value: { name: "Photos", deployment: { type: "webproxy", password: "pw", customDomains: ["a", "b"] } },
      secretPaths: [
        ["deployment", "password"],
        ["deployment", "customDomains", 1],
      ],
    });
  });

  it("opens an exported state's {sig, plaintext} (JSON text), a secret inside a secret included", () => {
    const inner = { ...sig, plaintext: JSON.stringify("hunter2") };
    const exported = { deploymentSecrets: { ...sig, plaintext: JSON.stringify({ password: inner }) } };
    expect(openSecretEnvelopes(exported)).toEqual({
      value: { deploymentSecrets: { password: "hunter2" } },
      secretPaths: [["deploymentSecrets"], ["deploymentSecrets", "password"]],
    });
  });

  it("refuses an exported state's {sig, ciphertext}, naming the path", () => {
    const encrypted = { deployment: { password: { ...sig, ciphertext: "v1:abc" } } };
    expect(() => openSecretEnvelopes(encrypted)).toThrow(EncryptedSecretError);
    expect(() => openSecretEnvelopes(encrypted)).toThrow(
      "deployment.password: the secret is encrypted (export the stack with --show-secrets)",
    );
  });

  it("refuses another special object (a resource reference, an asset) and leaves plain values alone", () => {
    expect(() => openSecretEnvelopes({ site: { [specialSigKey]: "5cf8f73096256a8f31e491e813e4eb8e", urn: "x" } })).toThrow(
      "site: resources, assets and output values are not supported here",
    );
    expect(openSecretEnvelopes(["a", 1, null, { b: true }])).toEqual({ value: ["a", 1, null, { b: true }], secretPaths: [] });
  });

  it("keeps a member named __proto__ a member of the opened value, not its prototype", () => {
    const { value, secretPaths } = openSecretEnvelopes(
      JSON.parse(`{"__proto__": ${JSON.stringify({ password: { ...sig, value: "pw" } })}}`),
    );
    expect(secretPaths).toEqual([["__proto__", "password"]]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ password: "pw" });
  });

  it("wraps a value in the wire form it opens", () => {
    expect(openSecretEnvelopes({ token: secretEnvelope("t") })).toEqual({ value: { token: "t" }, secretPaths: [["token"]] });
  });
});
