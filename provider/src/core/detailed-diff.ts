// The detailed diff the engine shows (`pulumi preview --diff`): each changed leaf by its property
// path, `deployment.cache_ttl_value`, `deployment.custom_domains[1]` (the shells write it in their
// names), so that only what changes is named. diff.ts decides *whether* an attribute changed (its normalization: defaults, read-only
// fields, the server's own annotation, secrets whose presence the server contradicts); this only
// walks the attributes it names down to their leaves.
import deepEqual from "fast-deep-equal";
import { isPlainObject } from "@asset-delivery/sdk";
import { describePath, type PropertyPath } from "./property-path";
import { isUnknown } from "./unknowns";

export type DiffKind = "add" | "delete" | "update";

/** Changed leaves, keyed by their written path (`deployment.custom_domains[1]`). */
export type DetailedDiff = Map<string, { path: PropertyPath; kind: DiffKind }>;

/** Records a changed leaf. */
export function setLeaf(out: DetailedDiff, path: PropertyPath, kind: DiffKind): void {
  out.set(describePath(path), { path, kind });
}

/** Leaf changes between two values, by path. A value not known yet is an update (or an add). */
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
