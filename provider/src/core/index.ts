// `@asset-delivery/provider/core`: the Source provider's core, which both shells run (the dynamic
// resource's runtime.ts and the native plugin's gRPC server) and the CLI's drift review and import
// apply outside a Pulumi run. Released with the provider; its users are of the same version.
//
// - Settings (settings.ts): `resolveSettings(config, env)` finds the API's address and key, pacing
//   and delivery domain in the configuration (`CONFIG_KEYS`), else the environment (`ENV_VARS`);
//   `connect(settings)` opens a `Connection` (client and read coalescer) that its opener closes.
// - The provider object (provider.ts): `createSourceProvider({ warn, env })` owns its configuration
//   and connections; `configure`, `check`, `diff`, `create`, `read`, `update`, `delete`, `close`.
// - Values (codec.ts): `UncheckedInputs` (what the engine passes to check) -> `SourceInputs`
//   (checked: camelCase, defaults filled in, secrets apart in `deploymentSecrets`) -> the API's
//   attributes; a `Source` from the API -> `SourceState` (what Pulumi keeps). Each conversion once.
// - Fields (the sdk's `deploymentFieldDescriptors`, `sourceAttributeDescriptors`, and here
//   `PROVIDER_OPTION_DESCRIPTORS`): every field's API and camelCase names, type, default,
//   description, write-only and read-only marks, for schemas.
export { resolveSettings, MissingSettingsError, CONFIG_KEYS, ENV_VARS, type ConfigReader, type ProviderSettings } from "./settings";
export { connect, type Connection } from "./connection";
export { createSourceProvider, type SourceProvider, type SourceProviderOptions } from "./provider";
export { engineAddress, engineInfo, engineWarnings, type Info, type Warn } from "./engine-log";
export { parseSourceInputs, type CheckFailure, type CheckResult } from "./check";
export { comparableDeployment, diffSource, secretFlagMismatches, type SourceDiff, type SecretFlagMismatch } from "./diff";
export type { ReadResult } from "./lifecycle/read";
export { SourceNotReadyError } from "./lifecycle/settle";
export {
  apiAttributes,
  declarableDeployment,
  inputsFromSource,
  sourceAttributes,
  sourceOutputs,
  type CamelDeployment,
  type DeploymentSecrets,
  type SourceDeclaration,
  type SourceInputs,
  type SourceState,
  type UncheckedInputs,
} from "./codec";
export { PROVIDER_OPTION_DESCRIPTORS, PROVIDER_OPTION_KEYS, providerOptionsSchema, type ProviderOptions } from "./provider-options";
export { isUnknown, pathsOverlap } from "./unknowns";
export { WriteBudget, leastTimeMs } from "./write-budget";
