// `@asset-delivery/provider/drift`: the provider's rules that a drift review applies outside a
// Pulumi run (the `asset-delivery drift` command): where credentials come from, how the state's
// inputs and a live Source are compared (the same diff `pulumi up` makes), and coalesced reads.
// Released with the provider and used by the CLI of the same version.
export { CONFIG_KEYS, ENV_VARS, resolveCredentials, type ConfigReader, type Credentials } from "./credentials";
export { comparableDeployment, diffSource, secretFlagMismatches } from "./diff";
export { SOURCE_RESOURCE_TYPE } from "./serialized-provider";
export { openSession, type Session } from "./session";
export { declarableDeployment, inputsFromSource, sourceAttributes, type SourceInputs } from "./source-state";
export { pathsOverlap } from "./unknowns";
