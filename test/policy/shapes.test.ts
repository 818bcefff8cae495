// The policy pack tells a Source by its type tokens and reads a dynamic Source's secrets by the
// sdk's rule (sdk/src/source-resource.ts: it does not depend on the provider). These tie each to
// the provider that declares the resources: its tokens, and its dynamic shell's merge, each side
// compared with the values written out.
import { describe, expect, it } from "vitest";
import { DYNAMIC_SOURCE_TYPE, NATIVE_SOURCE_TYPE, UNKNOWN } from "@asset-delivery/policy";
import { deploymentWithSecrets } from "@asset-delivery/sdk";
import { dynamicToCore, NATIVE_SOURCE_TYPE as PROVIDER_NATIVE_TYPE, SOURCE_RESOURCE_TYPE } from "@asset-delivery/provider";
import { dynamicSource } from "../../policy/src/shapes/dynamic-source";
import { unknownValue as ENGINE_UNKNOWN } from "../../provider/src/engine/protocol-values";
import { analyzed } from "./analyzed-source";

const webfolder = { type: "webfolder", serviceSubdomains: ["photos"], webfolderBaseUrl: "https://o.example.com/" };

describe("the policy pack's Source shapes", () => {
  it("are the provider's type tokens, as states name the resources", () => {
    expect(DYNAMIC_SOURCE_TYPE).toBe("pulumi-nodejs:dynamic/assetdelivery:Source");
    expect(SOURCE_RESOURCE_TYPE).toBe("pulumi-nodejs:dynamic/assetdelivery:Source");
    expect(NATIVE_SOURCE_TYPE).toBe("assetdelivery:index:Source");
    expect(PROVIDER_NATIVE_TYPE).toBe("assetdelivery:index:Source");
  });

  it("merge a dynamic Source's secrets into its deployment as the provider's dynamic shell does", () => {
    const props = { name: "Photos", deployment: webfolder, deploymentSecrets: { password: "pw", requestHandshake: null } };
    const merged = { ...webfolder, password: "pw", requestHandshake: null };
    expect(dynamicSource(props).deployment).toEqual(merged);
    expect(dynamicToCore(props).deployment).toEqual(merged);
    const none = { name: "Photos", deployment: webfolder };
    expect(dynamicSource(none).deployment).toEqual(webfolder);
    expect(dynamicToCore(none).deployment).toEqual(webfolder);
  });

  it("make each of the type's secrets unknown while the secrets are, as the provider's dynamic shell does", () => {
    const props = { name: "Photos", deployment: webfolder, deploymentSecrets: ENGINE_UNKNOWN };
    // What the analyzer is given: the properties behind @pulumi/policy's unknown-checking proxy.
    const policy = dynamicSource(analyzed(DYNAMIC_SOURCE_TYPE, "photos", props).props).deployment as Record<string, unknown>;
    const provider = dynamicToCore(props).deployment as Record<string, unknown>;
    const unknownIn = (deployment: Record<string, unknown>, marker: unknown) =>
      Object.keys(deployment).filter((key) => deployment[key] === marker);
    // A webfolder's secrets (the field table's).
    const secrets = ["password", "requestHandshake", "requestSigningKey"];
    expect(unknownIn(policy, UNKNOWN).sort()).toEqual(secrets);
    expect(unknownIn(provider, ENGINE_UNKNOWN).sort()).toEqual(secrets);
  });

  it("are the sdk's rule, which the provider's dynamic shell follows for declared, absent and unknown secrets", () => {
    const unknownSecrets = { password: ENGINE_UNKNOWN, requestHandshake: ENGINE_UNKNOWN, requestSigningKey: ENGINE_UNKNOWN };
    const cases: [unknown, unknown][] = [
      [
        { password: "pw", requestHandshake: null },
        { ...webfolder, password: "pw", requestHandshake: null },
      ],
      [{}, webfolder],
      [undefined, webfolder],
      [ENGINE_UNKNOWN, { ...webfolder, ...unknownSecrets }],
    ];
    for (const [deploymentSecrets, expected] of cases) {
      expect(deploymentWithSecrets<unknown>(webfolder, deploymentSecrets, ENGINE_UNKNOWN)).toEqual(expected);
      expect(dynamicToCore({ name: "Photos", deployment: webfolder, deploymentSecrets }).deployment).toEqual(expected);
    }
    // A deployment that is not an object (check reports it) is given back as it came.
    expect(deploymentWithSecrets<unknown>(ENGINE_UNKNOWN, ENGINE_UNKNOWN, ENGINE_UNKNOWN)).toBe(ENGINE_UNKNOWN);
    expect(dynamicToCore({ name: "Photos", deployment: ENGINE_UNKNOWN, deploymentSecrets: ENGINE_UNKNOWN }).deployment).toBe(
      ENGINE_UNKNOWN,
    );
  });
});
