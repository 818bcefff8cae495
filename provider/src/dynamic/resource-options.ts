// The resource options Pulumi's dynamic provider host does not pass a provider, which the dynamic
// Source honours as the native plugin does: `replaceOnChanges` (the host's diff response names no
// changed property for the engine to match it against) and `customTimeouts` (its Create and Update
// carry no timeout). The Source class copies them, as the program gave them, into a reserved input
// (`OPTIONS_KEY`, shape.ts), and only when given: a Source declared without them keeps the state it
// had, and an absent property costs the program nothing. The shell takes the input off with the
// URN, so that no diff compares it and the core never sees it (changing the option alone writes
// nothing), and reads it here, at its edge: the diff matches its changed paths against
// `replaceOnChanges` as the engine would (engine/replace-on-changes.ts), and a create or an update
// is bounded by its timeout as the plugin's (engine/custom-timeouts.ts). Options a transform sets
// after the constructor are not seen. `ignoreChanges`, which the engine applies to the inputs
// itself, needs no input: the Source class adds, for each listed write-only field, the path where
// the dynamic resource keeps it (`deploymentSecrets.password` for `deployment.password`).
import type * as pulumi from "@pulumi/pulumi";
import { isPlainObject } from "@asset-delivery/sdk";
import { durationSeconds } from "../engine/custom-timeouts";
import { containsPath, formatPulumiPath, parsePulumiPath, type PulumiPath } from "../engine/replace-on-changes";
import { DYNAMIC_SECRETS_KEY } from "@asset-delivery/sdk";
import { dynamicPath, OPTIONS_KEY, type DynamicValues } from "./shape";

/** The timeouts that bound a write's wait (the others, `delete`, `read`, bound no wait of ours). */
const TIMED = ["create", "update"] as const;

export interface ResourceOptions {
  /** The listed paths, parsed. */
  replaceOnChanges: PulumiPath[];
  /** Each write's timeout, in seconds (0: none given, as the engine says it). */
  timeoutSeconds: Record<(typeof TIMED)[number], number>;
}

/** The reserved input for a Source's options (the Source class): none when neither option is given. */
export function resourceOptionsInput({ replaceOnChanges = [], customTimeouts = {} }: pulumi.CustomResourceOptions): DynamicValues {
  const timeouts = Object.fromEntries(TIMED.flatMap((write) => (customTimeouts[write] ? [[write, customTimeouts[write]]] : [])));
  const options = {
    ...(replaceOnChanges.length > 0 && { replaceOnChanges: [...replaceOnChanges] }),
    ...(Object.keys(timeouts).length > 0 && { customTimeouts: timeouts }),
  };
  return Object.keys(options).length > 0 ? { [OPTIONS_KEY]: options } : {};
}

/**
 * The resource options among the host's values, parsed, and what is wrong with them (check's
 * failures): the Source class writes this input, never a program, so anything else there is a bug, named.
 */
export function resourceOptionsOf(values: DynamicValues): { options: ResourceOptions; failures: string[] } {
  const options: ResourceOptions = { replaceOnChanges: [], timeoutSeconds: { create: 0, update: 0 } };
  const given = values[OPTIONS_KEY];
  if (given === undefined) return { options, failures: [] };
  if (!isPlainObject(given)) return { options, failures: [`${OPTIONS_KEY}: must be an object`] };
  const failures: string[] = [];
  const { replaceOnChanges = [], customTimeouts = {}, ...unknown } = given;
  for (const key of Object.keys(unknown)) failures.push(`${OPTIONS_KEY}.${key}: not an option the Source takes`);
  if (!Array.isArray(replaceOnChanges)) failures.push("replaceOnChanges: must be a list of property paths");
  else
    replaceOnChanges.forEach((path: unknown, index) => {
      try {
        if (typeof path !== "string") throw new Error("must be a string");
        options.replaceOnChanges.push(parsePulumiPath(path));
      } catch (error) {
        failures.push(`replaceOnChanges[${index}]: ${JSON.stringify(path)}: ${(error as Error).message}`);
      }
    });
  if (!isPlainObject(customTimeouts)) failures.push("customTimeouts: must be an object");
  else
    for (const [write, text] of Object.entries(customTimeouts)) {
      const seconds = typeof text === "string" ? durationSeconds(text) : undefined;
      if (!(TIMED as readonly string[]).includes(write)) failures.push(`customTimeouts.${write}: bounds no wait of a Source`);
      else if (seconds === undefined)
        failures.push(`customTimeouts.${write}: ${JSON.stringify(text)}: not a duration ("90s", "5m", "1h30m")`);
      else options.timeoutSeconds[write as (typeof TIMED)[number]] = seconds;
    }
  return { options, failures };
}

/**
 * The resource's properties (its top-level keys, the write-only fields' `deploymentSecrets`) whose
 * change `replaceOnChanges` makes a replacement: each changed leaf (a detailed diff's paths, in the
 * native resource's shape) that a listed path contains, as the program writes it either way
 * (`deployment.password`, or `deploymentSecrets.password` as `ignoreChanges` names it here).
 */
export function replacingKeys(changed: Iterable<string>, listed: readonly PulumiPath[]): string[] {
  const keys = new Set<string>();
  for (const leaf of changed) {
    const native = parsePulumiPath(leaf);
    const dynamic = dynamicPath(native);
    if (listed.some((path) => containsPath(path, native) || containsPath(path, dynamic))) keys.add(String(dynamic[0]));
  }
  return [...keys];
}

/**
 * `ignoreChanges` as the program wrote it, with the dynamic resource's path beside each one that
 * names a write-only field (or all of them: `deployment`, `deployment.*`), so that a path means
 * on the dynamic `Source` what it means on the native plugin. A path the engine would refuse is
 * left for the engine to refuse.
 */
export function dynamicIgnoreChanges(paths: readonly string[]): string[] {
  const added = paths.flatMap((text) => {
    let path: PulumiPath;
    try {
      path = parsePulumiPath(text);
    } catch {
      return [];
    }
    const [head, field, ...rest] = path;
    if (head !== "deployment") return [];
    if (field === undefined || field === "*") return [formatPulumiPath([DYNAMIC_SECRETS_KEY, ...path.slice(1)])];
    const dynamic = dynamicPath([head, field, ...rest]);
    return dynamic[0] === DYNAMIC_SECRETS_KEY ? [formatPulumiPath(dynamic)] : [];
  });
  return [...new Set([...paths, ...added])];
}
