// The detailed diff of a Source, as the engine reads one: each changed leaf of what the core's diff
// found changed (core/diff.ts decides *whether* an attribute changed: defaults, read-only fields,
// the server's own annotation, secrets whose presence the server contradicts), by its property path
// as the program writes it, `deployment.customDomains[1]`, with the kind of change the engine's
// PropertyDiff names. The native plugin sends it (plugin/server.ts writes the kinds); the dynamic
// resource's host has no detailed diff, so the dynamic shell matches the resource's
// `replaceOnChanges` against its paths itself, as the engine would (replace-on-changes.ts).
import deepEqual from "fast-deep-equal";
import { isPlainObject } from "@asset-delivery/sdk";
import {
  comparableDeployment,
  type Compared,
  isProviderOptionKey,
  isUnknown,
  type PropertyPath,
  secretFlagMismatches,
  type SourceDiff,
  type SourceInputs,
} from "../core";
import { describePulumiPath } from "../pulumi-names/paths";

export type DiffKind = "add" | "delete" | "update";

/** Changed leaves, by their path as the program writes it (`deployment.customDomains[1]`). */
export type DetailedDiff = Map<string, DiffKind>;

/** The leaves of what `diff` (the core's, of these olds and news) found changed. */
export function detailedDiff(olds: Compared, news: SourceInputs, { changed, deploymentFields, replaces }: SourceDiff): DetailedDiff {
  const out: DetailedDiff = new Map();
  for (const key of changed) if (key !== "deployment") leafChanges(valueOf(olds, key), valueOf(news, key), [key], out);
  if (changed.includes("deployment")) deploymentLeaves(olds, news, deploymentFields, out);
  for (const key of replaces) setLeaf(out, [key], "update");
  return out;
}

/** An attribute's value, or an option's (apart in the core's values, core/codec.ts). */
function valueOf(values: Compared, key: SourceDiff["changed"][number]): unknown {
  return isProviderOptionKey(key) ? values.options?.[key] : values[key];
}

function deploymentLeaves(olds: Compared, news: SourceInputs, fields: readonly string[], out: DetailedDiff): void {
  if (isUnknown(news.deployment)) return leafChanges(olds.deployment, news.deployment, ["deployment"], out);
  const before = comparableDeployment(olds.deployment, news.deployment);
  const after = comparableDeployment(news.deployment, news.deployment);
  for (const field of fields) leafChanges(before[field], after[field], ["deployment", field], out);
  // A secret cleared or set behind the program's back shows only in the server's flag.
  for (const { secret } of secretFlagMismatches(olds, news)) setLeaf(out, ["deployment", secret], "update");
}

/** Records a changed leaf (`path` in the core's names). */
function setLeaf(out: DetailedDiff, path: PropertyPath, kind: DiffKind): void {
  out.set(describePulumiPath(path), kind);
}

/** Leaf changes between two values, by path (in the core's names). A value not known yet is an update (or an add). */
export function leafChanges(olds: unknown, news: unknown, at: PropertyPath, out: DetailedDiff): void {
  if (isUnknown(news)) {
    setLeaf(out, at, olds === undefined ? "add" : "update");
    return;
  }
  if (Array.isArray(olds) && Array.isArray(news)) {
    for (let index = 0; index < Math.max(olds.length, news.length); index++) {
      if (index >= olds.length) setLeaf(out, [...at, index], "add");
      else if (index >= news.length) setLeaf(out, [...at, index], "delete");
      else leafChanges(olds[index], news[index], [...at, index], out);
    }
    return;
  }
  if (isPlainObject(olds) && isPlainObject(news)) {
    for (const key of new Set([...Object.keys(olds), ...Object.keys(news)])) leafChanges(olds[key], news[key], [...at, key], out);
    return;
  }
  if (deepEqual(olds, news)) return;
  setLeaf(out, at, olds === undefined || olds === null ? "add" : news === undefined || news === null ? "delete" : "update");
}
