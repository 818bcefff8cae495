// The public surface of @asset-delivery/provider: the Source resource, its types, and the
// data-source functions. The core both provider shells run is `@asset-delivery/provider/core`;
// the walker of Pulumi's secret envelopes is `@asset-delivery/provider/secret-envelopes`.
export { Source, type SourceArgs } from "./dynamic/source";
export type * from "./dynamic/source-types";
export { ENV_VARS, type SourceImport } from "./core";
/** The settings' keys in a stack's configuration (`assetdelivery:apiKey`), and the core's reader of a configuration by those keys. */
export { CONFIG_KEYS, TRUSTED_SECRETS_KEY, pulumiConfigReader } from "./pulumi-names/config-keys";
/** What the core's messages tell a user to do, in Pulumi's words: for `resolveSettings` of `@asset-delivery/provider/core` on a stack's configuration. */
export { PULUMI_INSTRUCTIONS } from "./pulumi-names/instructions";
export { coreInputs, toApiNames, toPulumiNames, writeOnlyFieldNames } from "./pulumi-names/source";
export { camelCase } from "./pulumi-names/rename";
export { declarationOf } from "./pulumi-names/declaration";
export { pulumiPath } from "./pulumi-names/paths";
export { SOURCE_RESOURCE_TYPE } from "./dynamic/serialized-provider";
/**
 * A dynamic Source's recorded inputs in the native resource's shape, still in the resource's names
 * (its `deploymentSecrets` merged into the deployment; `toApiNames` then gives the core's shape,
 * despite this export's name, which 0.1.0 published): for readers of a stack's state.
 */
export { withSecretsInPlace as dynamicToCore } from "./dynamic/shape";
/** The native plugin's resource type (pulumi-resource-assetdelivery): `assetdelivery:index:Source`. */
export { SOURCE_TOKEN as NATIVE_SOURCE_TYPE, FUNCTION_TOKENS } from "./tokens";
export { sourcesFromConfig } from "./dynamic/config-sources";
export * from "./functions";
