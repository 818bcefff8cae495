// A property's path in the core's names as the program wrote it, and check's failures as the
// engine shows them: both shells' writing of what the core reports by path.
import { type CheckFailure, describePath, type PropertyPath, SOURCE_PROPERTIES } from "../core";
import { camelSegments } from "./rename";
import { TOP_LEVEL_TO_PULUMI } from "./source";

/** A path in the core's names (`["deployment", "cache_ttl_error"]`) as the program wrote it (`["deployment", "cacheTtlError"]`). */
export function pulumiPath(path: PropertyPath): (string | number)[] {
  const [head] = path;
  if (typeof head === "string" && head !== "deployment") return [TOP_LEVEL_TO_PULUMI.get(head) ?? head, ...path.slice(1)];
  return camelSegments(path);
}

/** A path in the core's names as the program reads it: `deployment.cacheTtlError`; `(Source)` for the whole. */
export function describePulumiPath(path: PropertyPath): string {
  return path.length === 0 ? "(Source)" : describePath(pulumiPath(path));
}

/**
 * A failure of check as the engine shows it: the path as the program wrote it, in the reason (the
 * engine prints only top-level property values); a property the Source does not have is also the
 * failure's property, as the program named it.
 */
export function pulumiCheckFailure({ path, rule }: CheckFailure): { property: string; reason: string } {
  const described = describePulumiPath(path);
  const notAProperty = path.length === 1 && typeof path[0] === "string" && !SOURCE_PROPERTIES.has(path[0]);
  return { property: notAProperty ? described : "", reason: `${described}: ${rule}` };
}
