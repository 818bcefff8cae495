// The plugin's property values on the wire: secrets taken off and put back where they live, unknowns
// the engine's string on the wire and the core's value inside, undefined left out.
import { describe, expect, it } from "vitest";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { describePath } from "../../provider/src/core/property-path";
import { decodeStruct, encodeStruct, UNKNOWN } from "../../provider/src/plugin/wire";

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const secret = (value: unknown) => ({ [SIG]: SECRET, value });

describe("plugin wire format", () => {
  it("decodes nested secrets into plain values and their paths", () => {
    const struct = encodeStruct({ name: "x", deployment: { password: "p", customDomains: ["a", "b"] } }, [
      ["deployment", "password"],
      ["deployment", "customDomains", 1],
    ]);
    expect(struct.toJavaScript()).toEqual({ name: "x", deployment: { password: secret("p"), customDomains: ["a", secret("b")] } });
    const decoded = decodeStruct(struct);
    expect(decoded.values).toEqual({ name: "x", deployment: { password: "p", customDomains: ["a", "b"] } });
    // Struct keeps members in key order: compared as a set.
    expect(decoded.secrets).toHaveLength(2);
    expect(decoded.secrets).toEqual(
      expect.arrayContaining([
        ["deployment", "password"],
        ["deployment", "customDomains", 1],
      ]),
    );
  });

  it("marks only paths that exist, once (a path inside a secret is covered by it), and drops undefined", () => {
    const struct = encodeStruct({ deployment: { type: "s3", s3SecretKey: "k", annotation: undefined } }, [
      ["deployment", "s3SecretKey"],
      ["deployment", "password"],
      ["secureUrlToken"],
      ["deployment"],
    ]);
    expect(struct.toJavaScript()).toEqual({ deployment: secret({ type: "s3", s3SecretKey: "k" }) });
  });

  it("writes the core's unknowns as the engine's string and reads them back, and refuses resources and other special values by path", () => {
    const encoded = encodeStruct({ deployment: { cacheTtlValue: UNKNOWN, customDomains: [UNKNOWN] } });
    expect(encoded.toJavaScript()).toEqual({ deployment: { cacheTtlValue: unknownValue, customDomains: [unknownValue] } });
    expect(decodeStruct(encoded).values).toEqual({ deployment: { cacheTtlValue: UNKNOWN, customDomains: [UNKNOWN] } });
    const resource = encodeStruct({ deployment: { ref: { [SIG]: "5cf8f73096256a8f31e491e813e4eb8e", urn: "u" } } });
    expect(() => decodeStruct(resource)).toThrow("deployment.ref: resources, assets and output values are not supported here");
  });

  it("writes property paths as the engine does", () => {
    expect(describePath(["deployment", "customDomains", 1])).toBe("deployment.customDomains[1]");
    expect(describePath(["deployment", "defaultParams", "txt-font"])).toBe('deployment.defaultParams["txt-font"]');
  });
});
