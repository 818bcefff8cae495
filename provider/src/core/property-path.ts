// A property's path, and its one writing, as JavaScript reads a member: `deployment.customDomains[1]`,
// `deployment.defaultParams["txt-font"]`, in whichever names the path has (the shells write check's
// failures and the plugin's diffs with it, in the resource's names).

/** Property names and list indexes, from the top level down. */
export type PropertyPath = readonly (string | number)[];

/** Whether `path` is `prefix` or leads into it: the one test of one path inside another. */
export function isWithin(path: PropertyPath, prefix: PropertyPath): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => segment === path[i]);
}

/** `deployment.cacheTtlError`, `deployment.customDomains[1]`, `deployment.defaultParams["txt-font"]`. */
export function describePath(path: PropertyPath): string {
  return path
    .map((segment, index) =>
      typeof segment === "number"
        ? `[${segment}]`
        : /^[A-Za-z_$][\w$]*$/.test(segment)
          ? `${index ? "." : ""}${segment}`
          : `[${JSON.stringify(segment)}]`,
    )
    .join("");
}
