// The comparison alone: declared inputs (as `check` leaves them in the state) against Sources as
// the API returns them, into the report model.
import { describe, expect, it } from "vitest";
import type { Source } from "@asset-delivery/sdk";
import { checkedSource } from "../support/checked-source";
import { compareSources, SOURCE_RESOURCE_TYPE, type DeclaredSource } from "../../cli/src/drift";
import { acceptedFields } from "../../cli/src/drift/compare";
import { sourceResource, WEBFOLDER } from "../support/api-documents";

const ID = "a".repeat(24);
const OTHER_ID = "b".repeat(24);

/** A Source as the state records it: the program's camelCase args, checked (defaults filled, secrets apart). */
function declared(args: Record<string, unknown>, name = "photos", id = ID, secretPaths: string[][] = []): DeclaredSource {
  const urn = `urn:pulumi:dev::site::${SOURCE_RESOURCE_TYPE}::${name}`;
  return { name, urn, shape: "dynamic", id, inputs: checkedSource({ name: "Photos", ...args }), secretPaths };
}

const photosArgs = {
  deployment: { type: "webfolder", serviceSubdomains: ["photos"], webfolderBaseUrl: "https://origin.example.com/images/" },
};

/** The same Source as the server returns it (generated annotation, read-only flags false), then edited. */
function live(deployment: Record<string, unknown> = {}, attributes: Partial<Source["attributes"]> = {}, id = ID): Source {
  const source = sourceResource({ id, deployment: WEBFOLDER, deployment_status: "deployed" });
  const edited = { ...source.attributes.deployment, ...deployment } as Source["attributes"]["deployment"];
  return { ...source, attributes: { ...source.attributes, deployment: edited, ...attributes } };
}

/** The drift found, without what identifies the resource and the way out (tested below on their own). */
function driftOf(source: DeclaredSource, server: Source | undefined) {
  return compareSources("dev", [source], new Map([[source.id, server]])).drifted.map(
    ({ urn: _urn, shape: _shape, wayOut: _wayOut, ...drift }) => drift,
  );
}

describe("compareSources", () => {
  it("finds no drift when the server has what the state declares (defaults, read-only flags and the generated annotation ignored)", () => {
    expect(compareSources("dev", [declared(photosArgs)], new Map([[ID, live()]]))).toEqual({
      stack: "dev",
      sourceCount: 1,
      drifted: [],
      unmanaged: [],
    });
  });

  it("reports a scalar, a list and the name by their camelCase paths", () => {
    const server = live({ cache_ttl_error: 900, custom_domains: ["cdn.example.com"] }, { name: "Renamed" });
    expect(driftOf(declared(photosArgs), server)).toEqual([
      {
        name: "photos",
        id: ID,
        status: "changed",
        fields: [
          { field: "name", declared: "Photos", live: "Renamed" },
          { field: "deployment.cacheTtlError", declared: 300, live: 900 },
          { field: "deployment.customDomains", declared: [], live: ["cdn.example.com"] },
        ],
      },
    ]);
  });

  it("reports a nested object key by key, quoting keys that are no identifiers, absent on the side that lacks them", () => {
    const source = declared({ deployment: { ...photosArgs.deployment, defaultParams: { w: 400, "txt-font": "Arial" } } });
    const server = live({ default_params: { w: 800, q: 75 } });
    expect(driftOf(source, server)[0]!.fields).toEqual([
      { field: "deployment.defaultParams.w", declared: 400, live: 800 },
      { field: 'deployment.defaultParams["txt-font"]', declared: "Arial" },
      { field: "deployment.defaultParams.q", live: 75 },
    ]);
  });

  it("compares the annotation only when the program declares one", () => {
    const annotated = declared({ deployment: { ...photosArgs.deployment, annotation: "managed by pulumi" } });
    expect(driftOf(annotated, live({ annotation: "managed by pulumi" }))).toEqual([]);
    // The create mark the provider adds to it (docs/interrupted-runs.md) is not drift.
    expect(driftOf(annotated, live({ annotation: "managed by pulumi [pulumi-create:0123456789abcdef0123456789abcdef]" }))).toEqual([]);
    expect(driftOf(annotated, live({ annotation: "edited by hand" }))[0]!.fields).toEqual([
      { field: "deployment.annotation", declared: "managed by pulumi", live: "edited by hand" },
    ]);
    expect(driftOf(declared(photosArgs), live({ annotation: "edited by hand" }))).toEqual([]);
  });

  it("reports a Source disabled on the server while declared enabled as retired, with its other changes", () => {
    const server = live({ cache_ttl_error: 900 }, { enabled: false, deployment_status: "disabled" });
    expect(driftOf(declared(photosArgs), server)).toEqual([
      {
        name: "photos",
        id: ID,
        status: "retired",
        fields: [
          { field: "enabled", declared: true, live: false },
          { field: "deployment.cacheTtlError", declared: 300, live: 900 },
        ],
      },
    ]);
  });

  it("reports a Source declared disabled and enabled on the server as changed, and one disabled on both sides as no drift", () => {
    const disabled = declared({ ...photosArgs, enabled: false });
    expect(driftOf(disabled, live())).toEqual([
      { name: "photos", id: ID, status: "changed", fields: [{ field: "enabled", declared: false, live: true }] },
    ]);
    expect(driftOf(disabled, live({}, { enabled: false, deployment_status: "disabled" }))).toEqual([]);
  });

  it("reports a Source the server does not have, or reports deleted, as gone", () => {
    expect(driftOf(declared(photosArgs), undefined)).toEqual([{ name: "photos", id: ID, status: "gone", fields: [] }]);
    expect(driftOf(declared(photosArgs), live({}, { deployment_status: "deleted" }))).toEqual([
      { name: "photos", id: ID, status: "gone", fields: [] },
    ]);
  });

  it("reveals a secret's presence through its flag, never its value", () => {
    const withPassword = declared({ deployment: { ...photosArgs.deployment, password: "hunter2", requestHandshake: "H".repeat(32) } });
    const server = live({ request_handshake_set: true });
    expect(driftOf(withPassword, server)[0]!.fields).toEqual([
      { field: "deployment.password", secret: true, declared: "set", live: "not set", flag: "passwordSet" },
    ]);
    expect(JSON.stringify(driftOf(withPassword, server))).not.toContain("hunter2");
  });

  it("reports a secret declared cleared (null) but set on the server; an undeclared secret is not compared", () => {
    const cleared = declared({ deployment: { ...photosArgs.deployment, password: null } });
    expect(driftOf(cleared, live({ password_set: true }))[0]!.fields).toEqual([
      { field: "deployment.password", secret: true, declared: "not set", live: "set", flag: "passwordSet" },
    ]);
    expect(driftOf(declared(photosArgs), live({ password_set: true, request_signing_key_set: true }))).toEqual([]);
  });

  it("reads upload credentials through allowsUpload, and cannot tell anything of secrets without a flag", () => {
    const s3 = {
      type: "s3",
      serviceSubdomains: ["photos"],
      s3AccessKey: "AKIAEXAMPLE",
      s3Bucket: "photos-bucket",
      s3SecretKey: "s3-secret",
    };
    const source = declared({ deployment: { ...s3, uploadCredentials: { type: "s3", s3AccessKey: "AKIAUP", s3SecretKey: "up-secret" } } });
    const server = sourceResource({
      id: ID,
      deployment: {
        type: "s3",
        service_subdomains: ["photos"],
        s3_access_key: "AKIAEXAMPLE",
        s3_bucket: "photos-bucket",
        s3_secret_key: "rotated-by-hand",
      },
      deployment_status: "deployed",
    });
    expect(driftOf(source, server)[0]!.fields).toEqual([
      { field: "deployment.uploadCredentials", secret: true, declared: "set", live: "not set", flag: "allowsUpload" },
    ]);
  });

  it("never shows a value the program passed as a secret, nor a list or object around one", () => {
    const source = declared(
      { deployment: { ...photosArgs.deployment, customDomains: ["private.example.com"], imageError: "https://errors.example.com/e.png" } },
      "photos",
      ID,
      [["deployment", "customDomains", "0"], ["deployment", "imageError"], ["name"]],
    );
    const server = live({ custom_domains: [], image_error: "https://elsewhere.example.com/e.png" }, { name: "Renamed" });
    const fields = driftOf(source, server)[0]!.fields;
    expect(fields).toEqual([
      { field: "name", secret: true, declared: "set", live: "different" },
      { field: "deployment.customDomains", secret: true, declared: "set", live: "different" },
      { field: "deployment.imageError", secret: true, declared: "set", live: "different" },
    ]);
    expect(driftOf(source, live({ image_error: null, custom_domains: ["private.example.com"] }))[0]!.fields).toEqual([
      { field: "deployment.imageError", secret: true, declared: "set", live: "not set" },
    ]);
  });

  it("after a type change on the server, reports the type and each field of either type, and no secret", () => {
    const withPassword = declared({ deployment: { ...photosArgs.deployment, password: "hunter2" } });
    const server = sourceResource({
      id: ID,
      deployment: { type: "webproxy", service_subdomains: ["photos"] },
      deployment_status: "deployed",
    });
    expect(driftOf(withPassword, server)[0]!.fields).toEqual([
      { field: "deployment.type", declared: "webfolder", live: "webproxy" },
      { field: "deployment.webfolderBaseUrl", declared: "https://origin.example.com/images/" },
      { field: "deployment.robotsTxt", declared: "origin", live: "allow-all" },
    ]);
  });

  it("keeps the order it is given and counts every declared Source", () => {
    const report = compareSources(
      "prod",
      [declared(photosArgs, "assets", OTHER_ID), declared(photosArgs, "photos", ID)],
      new Map([
        [OTHER_ID, live({ cache_ttl_error: 60 }, {}, OTHER_ID)],
        [ID, undefined],
      ]),
    );
    expect(report.sourceCount).toBe(2);
    expect(report.drifted.map((d) => [d.name, d.status])).toEqual([
      ["assets", "changed"],
      ["photos", "gone"],
    ]);
  });

  it("offers each drifted Source a way back (up --refresh) and a way to keep the server's values, by where it is declared", () => {
    const server = live({ cache_ttl_error: 900 });
    const urn = (name: string) => `urn:pulumi:dev::site::${SOURCE_RESOURCE_TYPE}::${name}`;
    const native = {
      ...declared(photosArgs, "native"),
      shape: "native" as const,
      urn: "urn:pulumi:dev::site::assetdelivery:index:Source::native",
    };
    const report = compareSources(
      "dev",
      [declared(photosArgs, "inCode"), declared(photosArgs, "inConfig"), native, declared(photosArgs, "gone", OTHER_ID)],
      new Map([
        [ID, server],
        [OTHER_ID, undefined],
      ]),
      [],
      new Set(["inConfig"]),
    );
    expect(Object.fromEntries(report.drifted.map((drift) => [drift.name, drift.wayOut]))).toEqual({
      inCode: {
        revert: [`pulumi up --stack dev --target ${urn("inCode")} --refresh`],
        keep: [`pulumi refresh --stack dev --target ${urn("inCode")}`],
        keepNote: "then set the program's `new Source(...)` to the Live values (Pulumi cannot import a dynamic resource to print its code)",
      },
      inConfig: {
        revert: [`pulumi up --stack dev --target ${urn("inConfig")} --refresh`],
        keep: [`pulumi refresh --stack dev --target ${urn("inConfig")}`, "asset-delivery drift --stack dev --accept inConfig"],
      },
      native: {
        revert: ["pulumi up --stack dev --target urn:pulumi:dev::site::assetdelivery:index:Source::native --refresh"],
        keep: ["pulumi refresh --stack dev --target urn:pulumi:dev::site::assetdelivery:index:Source::native"],
        keepNote: "then declare it in the program as below",
      },
      gone: {
        revert: [`pulumi up --stack dev --target ${urn("gone")} --refresh`],
        keep: [`pulumi refresh --stack dev --target ${urn("gone")}`],
        keepNote: "then remove its declaration: the server has no Source to keep",
      },
    });
  });
});

describe("acceptedFields", () => {
  it("gives each differing value by its path in the declaration, undefined for a field the server dropped", () => {
    const source = declared({ deployment: { ...photosArgs.deployment, defaultParams: { w: 400, h: 300 } } });
    const server = live(
      { default_params: { w: 800 }, custom_domains: ["cdn.example.com"] },
      { enabled: false, deployment_status: "disabled" },
    );
    expect(acceptedFields(source, server)).toEqual({
      fields: [
        { path: ["enabled"], live: false },
        { path: ["deployment", "customDomains"], live: ["cdn.example.com"] },
        { path: ["deployment", "defaultParams", "w"], live: 800 },
        { path: ["deployment", "defaultParams", "h"], live: undefined },
      ],
    });
  });

  it("refuses a Source that is gone, or whose secret differs, saying why", () => {
    expect(acceptedFields(declared(photosArgs), undefined)).toEqual({
      refused: "the server no longer has it: remove its declaration instead",
    });
    const withPassword = declared({ deployment: { ...photosArgs.deployment, password: "hunter2" } });
    expect(acceptedFields(withPassword, live())).toEqual({
      refused: "deployment.password is a secret: declare it with pulumi config set --secret",
    });
  });
});
