// The public surface of @asset-delivery/provider: the Source resource, its types, and the
// data-source functions.
export { Source, type SourceArgs } from "./source";
export type * from "./source-types";
export { CONFIG_KEYS, ENV_VARS } from "./credentials";
export { writeOnlyFieldNames } from "./source-state";
export { declarationOf, type SourceImport } from "./declaration";
export { sourcesFromConfig } from "./config-sources";
export * from "./functions";
