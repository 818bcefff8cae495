// `diff` compares the checked inputs with the state exactly (the core's shape: the API's names,
// secrets where they live in the deployment); only a switch to another adopted Source replaces.
import { describe, expect, it } from "vitest";
import { diffSource } from "../../provider/src/core/diff";
import { detailedDiff } from "../../provider/src/engine/detailed-diff";
import { planPatches } from "../../provider/src/core/lifecycle/patch";
import { declaredAttributes } from "../../provider/src/core/codec";
import { sourceOutputs, type SourceInputs } from "../../provider/src/core/codec";
import { UNKNOWN } from "../../provider/src/core/unknowns";
import { toApiNames, toPulumiNames } from "../../provider/src/pulumi-names/source";
import { sourceResource } from "../support/api-documents";
import { checkedSource } from "../support/checked-source";

const ID = "b".repeat(24);
const webfolder = { type: "webfolder" as const, service_subdomains: ["photos"], webfolder_base_url: "https://origin.example.com/images/" };

/** The state after a create: what the server returned plus the declared secrets and options. */
function stateOf(inputs: SourceInputs) {
  return sourceOutputs(sourceResource({ id: ID, deployment: { ...webfolder }, deployment_status: "deployed" }), inputs);
}

const declared = (deployment: Record<string, unknown> = {}, secrets: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  checkedSource({
    name: "Photos",
    deployment: {
      type: "webfolder",
      serviceSubdomains: ["photos"],
      webfolderBaseUrl: "https://origin.example.com/images/",
      ...deployment,
      ...secrets,
    },
    ...extra,
  });

describe("diff", () => {
  it("finds no change between the declaration and the state it produced (read-only fields and the generated annotation ignored)", () => {
    const inputs = declared();
    expect(diffSource(ID, stateOf(inputs), inputs)).toMatchObject({ changes: false, replaces: [], changed: [], deploymentFields: [] });
  });

  it("reports a changed field of the deployment", () => {
    const inputs = declared();
    const diff = diffSource(ID, stateOf(inputs), declared({ cacheTtlError: 60 }));
    expect(diff).toMatchObject({ changed: ["deployment"], deploymentFields: ["cache_ttl_error"] });
    // The native plugin's detailed diff names the leaf as the program writes it.
    expect([...detailedDiff(stateOf(inputs), declared({ cacheTtlError: 60 }), diff)]).toEqual([["deployment.cacheTtlError", "update"]]);
  });

  it("reports a changed name alone", () => {
    const inputs = declared();
    expect(diffSource(ID, stateOf(inputs), { ...inputs, name: "Renamed" }).changed).toEqual(["name"]);
  });

  it("treats a changed write-only secret as a change", () => {
    const before = declared({}, { password: "old-password" });
    const after = declared({}, { password: "new-password" });
    expect(diffSource(ID, stateOf(before), after)).toMatchObject({
      changes: true,
      changed: ["deployment"],
      deploymentFields: ["password"],
      replaces: [],
    });
  });

  describe("a secret whose presence the server's flag contradicts (seen by a refresh)", () => {
    /** The state after a refresh that saw the server's `*_set` flags as given. */
    const refreshedState = (inputs: ReturnType<typeof declared>, flags: Record<string, boolean>) => {
      const state = stateOf(inputs);
      return { ...state, deployment: { ...state.deployment, ...flags } };
    };

    it("is a change when a declared secret was cleared on the server", () => {
      const inputs = declared({}, { password: "pw-declared", requestHandshake: null });
      expect(diffSource(ID, refreshedState(inputs, { password_set: false }), inputs)).toMatchObject({
        changed: ["deployment"],
        deploymentFields: ["password"],
      });
    });

    it("is a change when a secret declared as cleared (null) was set on the server", () => {
      const inputs = declared({}, { requestHandshake: null });
      expect(diffSource(ID, refreshedState(inputs, { request_handshake_set: true }), inputs)).toMatchObject({
        changed: ["deployment"],
        deploymentFields: ["request_handshake"],
      });
    });

    it("is no change when the flags agree with what is declared", () => {
      const inputs = declared({}, { password: "pw-declared", requestHandshake: null });
      expect(diffSource(ID, refreshedState(inputs, { password_set: true, request_handshake_set: false }), inputs).changes).toBe(false);
    });

    it("is no change for a secret the program leaves undeclared: the server keeps what it has", () => {
      const inputs = declared();
      expect(diffSource(ID, refreshedState(inputs, { password_set: true, request_signing_key_set: true }), inputs).changes).toBe(false);
    });

    it("sends the declared secrets again, in the whole deployment", () => {
      const inputs = declared({}, { password: "pw-declared" });
      const diff = diffSource(ID, refreshedState(inputs, { password_set: false }), inputs);
      expect(planPatches(diff, declaredAttributes(inputs), true)).toEqual({
        deploys: false, // a secret alone starts no deployment
        patches: [{ deployment: expect.objectContaining({ type: "webfolder", password: "pw-declared" }) }],
      });
    });
  });

  it("finds no change in a state written before the read-only flags were kept once (also inside deployment): an upgrade shows no diff", () => {
    const inputs = declared({}, { password: "pw-declared" });
    // The resource's state: the flags once, at the top level.
    const state = toPulumiNames(stateOf(inputs));
    expect(state.deployment).not.toHaveProperty("passwordSet");
    expect(state).toMatchObject({ passwordSet: false, requestHandshakeSet: false, requestSigningKeySet: false });
    const flags = { passwordSet: true, requestHandshakeSet: false, requestSigningKeySet: false };
    const before = { ...state, ...flags, deployment: { ...(state.deployment as object), ...flags } };
    expect(diffSource(ID, toApiNames(before) as ReturnType<typeof stateOf>, inputs)).toMatchObject({
      changes: false,
      replaces: [],
      changed: [],
    });
  });

  it("compares a declared annotation, and ignores the server's own otherwise", () => {
    const inputs = declared({ annotation: "managed by Pulumi" });
    expect(diffSource(ID, stateOf(inputs), inputs).changed).toEqual(["deployment"]);
  });

  it("updates a type change in place", () => {
    const inputs = declared();
    const s3 = checkedSource({
      name: "Photos",
      deployment: { type: "s3", serviceSubdomains: ["photos"], s3AccessKey: "AK", s3Bucket: "bucket", s3SecretKey: "SK" },
    });
    expect(diffSource(ID, stateOf(inputs), s3)).toMatchObject({ changes: true, replaces: [], changed: ["deployment"] });
    expect(diffSource(ID, stateOf(inputs), s3).deploymentFields).toEqual(expect.arrayContaining(["type", "s3_secret_key"]));
  });

  it("replaces only when another Source is to be adopted", () => {
    const inputs = declared();
    expect(diffSource(ID, stateOf(inputs), { ...inputs, options: { ...inputs.options, adoptSourceId: ID } }).replaces).toEqual([]);
    expect(diffSource(ID, stateOf(inputs), { ...inputs, options: { ...inputs.options, adoptSourceId: "c".repeat(24) } }).replaces).toEqual([
      "adoptSourceId",
    ]);
  });

  it("counts a value not known yet as a change", () => {
    const inputs = declared();
    expect(diffSource(ID, stateOf(inputs), { ...inputs, name: UNKNOWN as unknown as string }).changed).toEqual(["name"]);
  });

  it("notices a change of how to wait, without it touching the Source", () => {
    const inputs = declared();
    expect(diffSource(ID, stateOf(inputs), { ...inputs, options: { ...inputs.options, waitForDeployment: false } }).changed).toEqual([
      "waitForDeployment",
    ]);
  });
});
