// The policy config files the repository ships as examples are valid for the pack as the engine
// checks them (`--policy-pack-config`): each key is a policy's name or "all", each level a level,
// each policy's properties valid against its config schema. The drift-review example's prod file
// is the root project's.
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { policies } from "@asset-delivery/policy";
import { repoRoot } from "../support/pulumi";

const LEVELS = ["advisory", "mandatory", "remediate", "disabled"];
const EXAMPLES = ["Pulumi.dev.policy.json", "Pulumi.prod.policy.json", "examples/drift-review/Pulumi.prod.policy.json"];

function read(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(repoRoot(), file), "utf8")) as Record<string, unknown>;
}

/** What the engine reports of a config file for the pack (none: valid). */
function problems(config: Record<string, unknown>): string[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  return Object.entries(config).flatMap(([name, value]): string[] => {
    const policy = policies.find((candidate) => candidate.name === name);
    if (name !== "all" && policy === undefined) return [`${name}: no such policy`];
    if (typeof value === "string" || policy === undefined)
      return LEVELS.includes(String(value)) ? [] : [`${name}: "${String(value)}" is not a level`];
    const { enforcementLevel, ...properties } = value as Record<string, unknown>;
    if (enforcementLevel !== undefined && !LEVELS.includes(enforcementLevel as string)) return [`${name}: bad enforcementLevel`];
    const validate = ajv.compile({ type: "object", ...policy.configSchema });
    return validate(properties) ? [] : [`${name}: ${ajv.errorsText(validate.errors)}`];
  });
}

describe("the example policy configs", () => {
  it.each(EXAMPLES)("%s is valid for the pack", (file) => {
    expect(problems(read(file))).toEqual([]);
  });

  it("would catch a wrong name, level or parameter", () => {
    expect(problems({ "source-https-origin": "mandatory", all: "strict", "source-allowed-types": { types: ["ftp"] } })).toHaveLength(3);
  });

  it("dev is advisory and prod mandatory, with the same drift-review file as the root project", () => {
    expect(read("Pulumi.dev.policy.json").all).toBe("advisory");
    expect(read("Pulumi.prod.policy.json").all).toBe("mandatory");
    expect(read("examples/drift-review/Pulumi.prod.policy.json")).toEqual(read("Pulumi.prod.policy.json"));
  });
});
