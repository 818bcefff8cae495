// `@asset-delivery/provider/core`: the Source provider's core, which both shells run (the dynamic
// resource's dynamic/runtime.ts and the native plugin's gRPC server) and the CLI's drift review and
// import apply outside a run of the shells' engine. Released with the provider; its users are of the same version.
//
// - Settings (settings.ts): `resolveSettings(config, env, instructions)` finds the API's address and
//   key, pacing and delivery domain in the configuration (by name: `SETTING_NAMES`; a stack's keys
//   are `@asset-delivery/provider`'s `CONFIG_KEYS`), else the environment (`ENV_VARS`);
//   `connect(settings)` opens a `Connection` (client and read coalescer) that its opener closes.
// - The provider object (provider.ts): `createSourceProvider({ warn, info, env })`
//   owns its configuration and connections; `configure`, `check`, `checkHandOvers`,
//   `previewHandOvers`, `diff`, `create`, `read`, `import`, `update`, `delete`, `connection`,
//   `finalEstimate`, `cancel`, `close`.
// - Values (codec.ts): the sdk's types in the API's names, each secret where it lives
//   (`deployment.password`), the provider's options apart in `options`: `UncheckedInputs` (what a
//   shell passes to check) -> `SourceInputs`
//   (the create attributes as parsed, defaults filled in); a `Source` from the API -> `SourceState`
//   (what the engine keeps, once a shell renamed it: `@asset-delivery/provider`'s `toPulumiNames`).
// - Fields (the sdk's `deploymentFieldDescriptors`, `sourceAttributeDescriptors`, and here
//   `PROVIDER_OPTION_DESCRIPTORS`): every field's API and resource (camelCase) names, type, default,
//   description, secret, write-only and read-only marks, for schemas.
export {
  resolveSettings,
  MissingSettingsError,
  SettingError,
  SETTING_NAMES,
  ENV_VARS,
  type ConfigName,
  type ConfigReader,
  type ProviderSettings,
  type SettingName,
} from "./settings";
export { connect, type Connection } from "./connection";
export { createSourceProvider, type SourceProvider, type SourceProviderOptions } from "./provider";
export { CancelledError } from "./cancellation";
export type { Info, Warn } from "./log";
export { PLAIN_INSTRUCTIONS, type Instructions } from "./instructions";
export type { CheckFailure, CheckResult } from "./check";
export {
  comparableDeployment,
  diffSource,
  secretFlagMismatches,
  type ComparedDeployment,
  type SourceDiff,
  type SecretFlagMismatch,
} from "./diff";
export type { ReadResult } from "./lifecycle/read";
export type { ImportedSource } from "./lifecycle/import";
export type { WriteOptions } from "./lifecycle/create";
export { SourceNotReadyError } from "./lifecycle/settle";
export {
  declarableDeployment,
  inputsFromSource,
  sourceOutputs,
  type DeclaredAttributes,
  type StateDeployment,
  type SourceInputs,
  type SourceState,
  type UncheckedInputs,
} from "./codec";
export { PROVIDER_OPTION_DESCRIPTORS, providerOptionsSchema, type ProviderOptions } from "./provider-options";
export { pathsOverlap, UNKNOWN } from "./unknowns";
export { WriteBudget, hourlyEstimate, leastTimeMs } from "./write-budget";
export { parseTrustedSecrets, TRUSTED_SECRETS_NAME, TrustedSecretsError } from "./trusted-secrets";
