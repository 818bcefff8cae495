// The provider writes Pulumi's protocol values itself (provider/src/engine/protocol-values.ts) so
// that the plugin does not load @pulumi/pulumi's runtime for them; they must be @pulumi/pulumi's.
import { specialSecretSig, specialSigKey, unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { describe, expect, it } from "vitest";
import * as ours from "../../provider/src/engine/protocol-values";

describe("Pulumi's protocol values", () => {
  it("are @pulumi/pulumi's own", () => {
    expect({ ...ours }).toEqual({ unknownValue, specialSigKey, specialSecretSig });
  });
});
