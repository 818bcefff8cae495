// A property's path as Pulumi users read it: `deployment.customDomains[1]`,
// `deployment.defaultParams["txt-font"]`. One writing for check's failures and the plugin's diffs.

/** Property names and list indexes, from the resource's top level down. */
export type PropertyPath = readonly (string | number)[];

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
