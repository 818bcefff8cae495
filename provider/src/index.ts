// The public surface of @asset-delivery/provider: the Source resource, its types, and the
// data-source functions. The core both provider shells run is `@asset-delivery/provider/core`.
export { Source, type SourceArgs } from "./source";
export type * from "./source-types";
export { CONFIG_KEYS, ENV_VARS } from "./core/settings";
export { writeOnlyFieldNames } from "./core/codec";
export { declarationOf, type SourceImport } from "./core/declaration";
export { SOURCE_RESOURCE_TYPE } from "./serialized-provider";
export { sourcesFromConfig } from "./config-sources";
export * from "./functions";
