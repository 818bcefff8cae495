// `@asset-delivery/provider/core`: the Source provider's core, which both shells run (the dynamic
// resource's dynamic/runtime.ts and the native plugin's gRPC server) and the CLI's drift review and
// import apply outside a run of the shells' engine. Released with the provider; its users are of the same version.
// This file is its surface, exactly: the shells and the CLI import the core through it alone, and
// it exports nothing they do not use (test/provider/core-surface.test.ts holds both).
//
// - Settings (settings.ts, their names in config-names.ts): `resolveSettings(config, env, instructions)`
//   finds the API's address and key, pacing and delivery domain in the configuration (by name:
//   `SETTING_NAMES`; a stack's keys are `@asset-delivery/provider`'s `CONFIG_KEYS`), else the
//   environment (`ENV_VARS`); `connect(settings)` opens a connection (client and read coalescer)
//   that its opener closes. `Instructions` word the core's advice in each shell's tool.
// - The provider object (provider.ts): `createSourceProvider({ warn, info, env, instructions })`
//   owns its configuration and connections; `configure`, `check`, `checkHandOvers`,
//   `previewHandOvers`, `diff`, `create`, `read`, `import`, `update`, `delete`, `connection`,
//   `finalEstimate`, `cancel`, `close`.
// - Values (codec.ts): the sdk's types in the API's names, each secret where it lives
//   (`deployment.password`), the provider's options apart in `options`: `UncheckedInputs` (what a
//   shell passes to check) -> `SourceInputs`
//   (the create attributes as parsed, defaults filled in); a `Source` from the API -> `SourceState`
//   (what the engine keeps, once a shell renamed it: `@asset-delivery/provider`'s `toPulumiNames`).
//   The core's own unknown (`UNKNOWN`, unknowns.ts), which each shell maps its engine's to.
// - Fields (the sdk's `deploymentFieldDescriptors`, `sourceAttributeDescriptors`, and here
//   `PROVIDER_OPTION_DESCRIPTORS`): every field's API and resource (camelCase) names, type, default,
//   description, secret, write-only and read-only marks, for schemas.
export { resolveSettings, clientOptionsOf, MissingSettingsError, SettingError, type ProviderSettings } from "./settings";
export {
  ENV_VARS,
  SECRET_SETTINGS,
  SETTING_NAMES,
  TRUSTED_SECRETS_NAME,
  type ConfigName,
  type ConfigReader,
  type SettingName,
} from "./config-names";
export { connect } from "./connection";
export { createSourceProvider, type SourceProvider } from "./provider";
export { CancelledError } from "./cancellation";
export type { Info, Warn } from "./log";
export type { Instructions } from "./instructions";
export { SOURCE_PROPERTIES, type CheckFailure } from "./check";
export { comparableDeployment, diffSource, secretFlagMismatches, type Compared, type SourceDiff } from "./diff";
export { isSourceNotReady } from "./lifecycle/settle";
export { declarableDeployment, inputsFromSource, type SourceInputs, type SourceState, type UncheckedInputs } from "./codec";
export { declarationOf, type SourceImport } from "./declaration";
export type { Creator } from "./create-mark";
export { HandOverError } from "./hand-over/coordinator";
export { describePath, isWithin, type PropertyPath } from "./property-path";
export {
  isProviderOptionKey,
  PROVIDER_OPTION_DESCRIPTORS,
  PROVIDER_OPTION_KEYS,
  providerOptions,
  providerOptionsSchema,
  type ProviderOptionsInput,
} from "./provider-options";
export { isUnknown, pathsOverlap, UNKNOWN } from "./unknowns";
export { hourlyEstimate } from "./write-budget";
export { parseTrustedSecrets, TrustedSecretsError } from "./trusted-secrets";
