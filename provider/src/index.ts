// The public surface of @asset-delivery/provider: the Source resource, its types, and the
// data-source functions. The core both provider shells run is `@asset-delivery/provider/core`.
export { Source, type SourceArgs } from "./source";
export type * from "./source-types";
export { CONFIG_KEYS, ENV_VARS } from "./core/settings";
export { writeOnlyFieldNames } from "./core/codec";
export { declarationOf, type SourceImport } from "./core/declaration";
export { SOURCE_RESOURCE_TYPE } from "./serialized-provider";
/** The native plugin's resource type (pulumi-resource-assetdelivery): `assetdelivery:index:Source`. */
export { SOURCE_TOKEN as NATIVE_SOURCE_TYPE } from "./plugin/schema";
export { sourcesFromConfig } from "./config-sources";
export * from "./functions";
