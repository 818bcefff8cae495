// The resource options Pulumi's dynamic provider host does not pass a provider, honoured by the
// dynamic Source's shell as the engine honours them for the native plugin (dynamic/resource-options.ts):
// `replaceOnChanges` matched by Pulumi's path rules (engine/replace-on-changes.ts, after the
// engine's ParsePropertyPath and Contains), `customTimeouts` read as Go durations
// (engine/custom-timeouts.ts). The diff is the runtime's own, on values as the host hands them; no server.
import { describe, expect, it } from "vitest";
import { containsPath, formatPulumiPath, parsePulumiPath } from "../../provider/src/engine/replace-on-changes";
import { durationSeconds } from "../../provider/src/engine/custom-timeouts";
import { sourceOutputs } from "../../provider/src/core/codec";
import { sourceProvider } from "../../provider/src/dynamic/runtime";
import { toDynamic, withSecretsInPlace } from "../../provider/src/dynamic/shape";
import { dynamicIgnoreChanges, resourceOptionsOf } from "../../provider/src/dynamic/resource-options";
import { sourceResource } from "../support/api-documents";
import { checkedSource } from "../support/checked-source";

describe("Pulumi's property paths (the engine's ParsePropertyPath)", () => {
  it("parses names, quoted keys, indexes and wildcards", () => {
    expect(parsePulumiPath("name")).toEqual(["name"]);
    expect(parsePulumiPath("deployment.customDomains[1]")).toEqual(["deployment", "customDomains", 1]);
    expect(parsePulumiPath('deployment["defaultParams"]["txt-font"]')).toEqual(["deployment", "defaultParams", "txt-font"]);
    expect(parsePulumiPath('root["key with \\"escaped\\" quotes"]')).toEqual(["root", 'key with "escaped" quotes']);
    expect(parsePulumiPath('root["key with a ."][100]')).toEqual(["root", "key with a .", 100]);
    expect(parsePulumiPath("root.array[*].field")).toEqual(["root", "array", "*", "field"]);
    expect(parsePulumiPath('root.array["*"].field')).toEqual(["root", "array", "*", "field"]);
    // Tolerated as the engine tolerates them: a "." before "[", a name the grammar would not allow.
    expect(parsePulumiPath("root.[0]")).toEqual(["root", 0]);
    expect(parsePulumiPath("txt-font")).toEqual(["txt-font"]);
    expect(parsePulumiPath("")).toEqual([]);
  });

  it("refuses what the engine refuses, with its reason", () => {
    expect(() => parsePulumiPath(".name")).toThrow("expected property path to start with a name or index");
    expect(() => parsePulumiPath("deployment.")).toThrow("expected property path to end with a name or index");
    expect(() => parsePulumiPath("deployment.customDomains[0")).toThrow("missing closing bracket in array index");
    expect(() => parsePulumiPath("deployment.customDomains[first]")).toThrow('invalid array index: "first"');
    expect(() => parsePulumiPath('root["open')).toThrow("missing closing quote in property name");
    expect(() => parsePulumiPath('root["key"x')).toThrow("missing closing bracket in property access");
  });
});

describe("one path containing another (the engine's PropertyPath.Contains)", () => {
  const contains = (listed: string, changed: string) => containsPath(parsePulumiPath(listed), parsePulumiPath(changed));

  it("contains the path itself and every path within it", () => {
    expect(contains("name", "name")).toBe(true);
    expect(contains("deployment", "deployment.customDomains[0]")).toBe(true);
    expect(contains("deployment.customDomains", "deployment.customDomains[1]")).toBe(true);
    expect(contains('deployment["customDomains"]', "deployment.customDomains[1]")).toBe(true);
  });

  it("takes `*` for any one segment, a name or an index", () => {
    expect(contains("*", "name")).toBe(true);
    expect(contains("*", "deployment.password")).toBe(true);
    expect(contains("deployment.customDomains[*]", "deployment.customDomains[3]")).toBe(true);
    expect(contains("deployment.*", "deployment.customDomains[3]")).toBe(true);
    expect(contains("*.customDomains", "deployment.serviceSubdomains[0]")).toBe(false);
  });

  it("contains no other path, none shorter than itself, and tells an index from a name", () => {
    expect(contains("name", "enabled")).toBe(false);
    expect(contains("deployment.customDomains", "deployment")).toBe(false);
    expect(contains("deployment.customDomains[0]", "deployment.customDomains[1]")).toBe(false);
    expect(contains('deployment.customDomains["0"]', "deployment.customDomains[0]")).toBe(false);
    expect(contains("deploy", "deployment")).toBe(false);
  });
});

describe("customTimeouts as the engine reads them (Go's time.ParseDuration, in seconds)", () => {
  it("reads each unit, fractions, a sum and a sign", () => {
    expect(durationSeconds("2s")).toBe(2);
    expect(durationSeconds("5m")).toBe(300);
    expect(durationSeconds("1h30m")).toBe(5400);
    expect(durationSeconds("1.5h")).toBe(5400);
    expect(durationSeconds(".5s")).toBe(0.5);
    expect(durationSeconds("1500ms")).toBe(1.5);
    expect(durationSeconds("2us")).toBeCloseTo(2e-6);
    expect(durationSeconds("2µs")).toBeCloseTo(2e-6);
    expect(durationSeconds("0")).toBe(0);
    expect(durationSeconds("-5m")).toBe(-300);
  });

  it("refuses what Go refuses", () => {
    for (const text of ["", "5", "00", "5 m", "1d", "m", ".s", "1h-30m", "1mss", "3000000h"])
      expect(durationSeconds(text), text).toBeUndefined();
  });
});

describe("the dynamic shell's diff with the Source class's options (what the host hands it)", () => {
  const ID = "c".repeat(24);
  const URN = "urn:pulumi:dev::options::pulumi-nodejs:dynamic/assetdelivery:Source::photos";
  const base = {
    name: "Photos",
    deployment: { type: "webproxy", serviceSubdomains: ["photos"], customDomains: ["photos.example.com"], password: "one" },
  };
  /** check's inputs in the dynamic shape, the URN and the options the Source class would add. */
  const dynamicInputs = (declared: Record<string, unknown>, resourceOptions?: Record<string, unknown>) => ({
    ...toDynamic(checkedSource(declared), {}),
    resourceUrn: URN,
    ...(resourceOptions && { resourceOptions }),
  });
  /** The state after `declared`'s create (what the server returned, the declared secrets), in the dynamic shape. */
  const dynamicState = (declared: Record<string, unknown>) => {
    const inputs = checkedSource(declared);
    const returned = sourceResource({
      id: ID,
      name: inputs.name,
      deployment: { type: "webproxy", service_subdomains: ["photos"], custom_domains: ["photos.example.com"] },
    });
    // The server's flag for the declared password.
    Object.assign(returned.attributes.deployment, { password_set: true });
    return toDynamic(sourceOutputs(returned, inputs), { resourceUrn: URN });
  };
  const renamed = { ...base, name: "Photos renamed" };
  const newDomain = { ...base, deployment: { ...base.deployment, customDomains: ["pics.example.com"] } };
  const newPassword = { ...base, deployment: { ...base.deployment, password: "two" } };
  const diff = (declared: Record<string, unknown>, resourceOptions?: Record<string, unknown>) =>
    sourceProvider.diff(ID, dynamicState(base), dynamicInputs(declared, resourceOptions));

  it("replaces when a listed property changes: a top-level one, a nested list, every one (`*`)", async () => {
    expect(await diff(renamed, { replaceOnChanges: ["name"] })).toEqual({ changes: true, replaces: ["name"], deleteBeforeReplace: false });
    expect(await diff(newDomain, { replaceOnChanges: ["deployment.customDomains"] })).toMatchObject({ replaces: ["deployment"] });
    expect(await diff(newDomain, { replaceOnChanges: ["deployment.customDomains[0]"] })).toMatchObject({ replaces: ["deployment"] });
    expect(await diff(newDomain, { replaceOnChanges: ["*"] })).toMatchObject({ replaces: ["deployment"] });
  });

  it("updates in place when no listed property changes", async () => {
    expect(await diff(renamed, { replaceOnChanges: ["deployment.customDomains"] })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(await diff(newDomain, { replaceOnChanges: ["deployment.customDomains[1]", "name"] })).toMatchObject({ replaces: [] });
    expect(await diff(newDomain)).toMatchObject({ changes: true, replaces: [] });
  });

  it("finds a write-only field by the path the program writes (`deployment.password`), or by the dynamic resource's (`deploymentSecrets.password`)", async () => {
    expect(await diff(newPassword, { replaceOnChanges: ["deployment.password"] })).toMatchObject({ replaces: ["deploymentSecrets"] });
    expect(await diff(newPassword, { replaceOnChanges: ["deploymentSecrets.password"] })).toMatchObject({
      replaces: ["deploymentSecrets"],
    });
    expect(await diff(newPassword, { replaceOnChanges: ["deployment"] })).toMatchObject({ replaces: ["deploymentSecrets"] });
    expect(await diff(newPassword, { replaceOnChanges: ["deployment.customDomains"] })).toMatchObject({ replaces: [] });
  });

  it("sees no change in the options themselves: adding, changing or dropping them alone changes nothing", async () => {
    const unchanged = { changes: false, replaces: [], deleteBeforeReplace: false };
    expect(await diff(base)).toEqual(unchanged);
    expect(await diff(base, { replaceOnChanges: ["*"], customTimeouts: { create: "1m", update: "2m" } })).toEqual(unchanged);
    const optioned = { ...dynamicState(base), resourceOptions: { replaceOnChanges: ["name"] } };
    expect(await sourceProvider.diff(ID, optioned, dynamicInputs(base))).toEqual(unchanged);
    // Nor is the input a Source field: the readers of a state (the CLI's drift, its declarations) never see it.
    expect(withSecretsInPlace(dynamicInputs(base, { replaceOnChanges: ["name"] }))).not.toHaveProperty("resourceOptions");
  });
});

describe("the options' input, as check reads it", () => {
  it("gives the listed paths parsed and each write's timeout in seconds (0 when not given, as the engine says it)", () => {
    expect(
      resourceOptionsOf({
        resourceOptions: { replaceOnChanges: ["name", "deployment.customDomains[*]"], customTimeouts: { update: "90s" } },
      }),
    ).toEqual({
      options: { replaceOnChanges: [["name"], ["deployment", "customDomains", "*"]], timeoutSeconds: { create: 0, update: 90 } },
      failures: [],
    });
    expect(resourceOptionsOf({})).toEqual({ options: { replaceOnChanges: [], timeoutSeconds: { create: 0, update: 0 } }, failures: [] });
  });

  it("names what is wrong with it", () => {
    expect(resourceOptionsOf({ resourceOptions: "name" }).failures).toEqual(["resourceOptions: must be an object"]);
    expect(
      resourceOptionsOf({
        resourceOptions: {
          replaceOnChanges: ["name", "deployment.customDomains[x]", 3],
          customTimeouts: { create: "5 minutes", delete: "1m" },
          protect: true,
        },
      }).failures,
    ).toEqual([
      "resourceOptions.protect: not an option the Source takes",
      'replaceOnChanges[1]: "deployment.customDomains[x]": invalid array index: "x"',
      "replaceOnChanges[2]: 3: must be a string",
      'customTimeouts.create: "5 minutes": not a duration ("90s", "5m", "1h30m")',
      "customTimeouts.delete: bounds no wait of a Source",
    ]);
  });
});

describe("ignoreChanges on the dynamic Source: a write-only field's path names where the resource keeps it too", () => {
  it("adds deploymentSecrets' path beside each path to a write-only field, or to all of them", () => {
    expect(dynamicIgnoreChanges(["deployment.password", "deployment.customDomains"])).toEqual([
      "deployment.password",
      "deployment.customDomains",
      "deploymentSecrets.password",
    ]);
    expect(dynamicIgnoreChanges(['deployment["s3SecretKey"]'])).toEqual(['deployment["s3SecretKey"]', "deploymentSecrets.s3SecretKey"]);
    expect(dynamicIgnoreChanges(["deployment"])).toEqual(["deployment", "deploymentSecrets"]);
    expect(dynamicIgnoreChanges(["deployment.*"])).toEqual(["deployment.*", "deploymentSecrets[*]"]);
    // Already the dynamic path, another field, or a path the engine refuses (left for it to say): unchanged.
    expect(dynamicIgnoreChanges(["deploymentSecrets.password", "name", "deployment.customDomains[0]", ".bad"])).toEqual([
      "deploymentSecrets.password",
      "name",
      "deployment.customDomains[0]",
      ".bad",
    ]);
  });

  it("writes paths the engine parses back to the same path", () => {
    for (const path of [
      ["deploymentSecrets", "password"],
      ["a", 0, "*", "b"],
      ["a", "key with a .", "txt-font"],
    ] as const)
      expect(parsePulumiPath(formatPulumiPath(path))).toEqual(path);
  });
});
