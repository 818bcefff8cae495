// The dynamic resource's shape against the provider core's, at the dynamic shell's edge. The core
// speaks the API's names; the resource, Pulumi's (pulumi-names/source.ts: renamed here, once each
// way). A dynamic resource can mark only top-level outputs secret, so its write-only fields live
// apart, in `deploymentSecrets` (always secret: source.ts); the core keeps each where it lives in
// the deployment. `toCore` merges them in and renames, once, for what the host hands over;
// `toDynamic` renames and splits them off, once, for what goes back. The merge itself is the sdk's
// (`deploymentWithSecrets`), which the policy pack and the CLI's drift commands read states with
// too; the Source class (source.ts) declares the input. The resource's URN, which the host does not pass to a provider, is
// an input of the dynamic resource (`resourceUrn`, set by the Source class) that the core never
// sees: `toCore` takes it off, `toDynamic` carries it back from the host's values. The resource
// options the host does not pass either (`resourceOptions`: resource-options.ts) are taken off the
// same way; only check's inputs carry them back (`optionsInput`), never an output. A value not known
// yet is the engine's string in the host's values and the core's own inside (engine/unknowns.ts).
import { deploymentWithSecrets, DYNAMIC_SECRETS_KEY, isPlainObject } from "@asset-delivery/sdk";
import { toApiNames, toPulumiNames, WRITE_ONLY_NAMES } from "../pulumi-names/source";
import { isEngineUnknown, unknownValue, withCoreUnknowns, withEngineUnknowns } from "../engine/unknowns";
import { PROVIDER_KEY } from "./serialized-provider";

/** A dynamic resource's inputs or state: the resource's names (camelCase), the write-only fields apart in `deploymentSecrets`, the URN, the engine's unknowns. */
export type DynamicValues = Record<string, unknown>;

/** The input holding the resource's URN (source.ts), which the create mark derives from (core/create-mark.ts). */
export const URN_KEY = "resourceUrn";

/**
 * The input holding the resource options Pulumi's dynamic provider host does not pass a provider
 * (`replaceOnChanges`, `customTimeouts`), set by the Source class only when given (resource-options.ts).
 */
export const OPTIONS_KEY = "resourceOptions";

/** The resource options' input among the host's values, as it came (check's inputs carry it back: the engine hands them to diff, create and update). */
export function optionsInput(values: DynamicValues): DynamicValues {
  return OPTIONS_KEY in values ? { [OPTIONS_KEY]: values[OPTIONS_KEY] } : {};
}

/** The resource's URN among the host's values, when there is one (states written by 0.1.0 have it too). */
export function urnOf(values: DynamicValues): string | undefined {
  const urn = values[URN_KEY];
  return typeof urn === "string" ? urn : undefined;
}

/**
 * The core's shape of the host's values: `deploymentSecrets` merged into the deployment, the host's
 * `__provider` taken off, the API's names (`declared`: a program's arguments, check's: pulumi-names/source.ts).
 */
export function toCore(values: DynamicValues, options: { declared?: boolean } = {}): Record<string, unknown> {
  return toApiNames(nativeShape(values), options);
}

/** The host's values in the native resource's shape (resource's names, secrets in place), the core's unknowns: what pulumi-names/source.ts takes to the core. */
export function nativeShape(values: DynamicValues): Record<string, unknown> {
  return withCoreUnknowns(withSecretsInPlace(values));
}

/**
 * The host's values as the native resource has them (the resource's names): `deploymentSecrets`
 * merged into the deployment, the host's `__provider`, the URN and the resource options taken off.
 * Secrets not known yet as a whole (a preview) are unknown at each write-only field of the type; a
 * deployment that is not an object (check reports it, or not known yet) is kept as it is.
 */
export function withSecretsInPlace(values: DynamicValues): Record<string, unknown> {
  const {
    [PROVIDER_KEY]: _serialized,
    [URN_KEY]: _urn,
    [OPTIONS_KEY]: _options,
    [DYNAMIC_SECRETS_KEY]: deploymentSecrets,
    deployment,
    ...rest
  } = values;
  return { ...rest, deployment: deploymentWithSecrets(deployment, deploymentSecrets, unknownValue) };
}

/**
 * The dynamic shape of the core's values: Pulumi's names, the write-only fields split off into `deploymentSecrets`.
 * `given`, the host's values these answer (check's inputs, a write's inputs, a refresh's state): its
 * URN goes back with them, and what could not be merged (secrets not known yet as a whole, or beside
 * a deployment that is not an object) goes back as it came.
 */
export function toDynamic(values: object, given?: DynamicValues): DynamicValues {
  const { deployment, ...rest } = withEngineUnknowns(toPulumiNames(values as Record<string, unknown>));
  const urn = given !== undefined && URN_KEY in given ? { [URN_KEY]: given[URN_KEY] } : {};
  const declared = given?.[DYNAMIC_SECRETS_KEY];
  if (!isPlainObject(deployment)) return { ...rest, deployment, [DYNAMIC_SECRETS_KEY]: declared ?? {}, ...urn };
  const { open, secrets } = secretsApart(deployment);
  return { ...rest, deployment: open, [DYNAMIC_SECRETS_KEY]: isEngineUnknown(declared) ? declared : secrets, ...urn };
}

/** A path in the native resource's shape (`deployment.password`) as the dynamic resource keeps it (`deploymentSecrets.password`). */
export function dynamicPath(path: readonly (string | number)[]): readonly (string | number)[] {
  const [head, field, ...rest] = path;
  return head === "deployment" && typeof field === "string" && WRITE_ONLY_NAMES.has(field) ? [DYNAMIC_SECRETS_KEY, field, ...rest] : path;
}

/** A deployment's write-only fields apart from the others: the split the Source class makes of a program's arguments too. */
export function secretsApart<D extends Record<string, unknown>>(deployment: D): { open: D; secrets: Record<string, unknown> } {
  const open: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(deployment)) (WRITE_ONLY_NAMES.has(key) ? secrets : open)[key] = value;
  // The same members but the write-only ones, which a deployment's type only ever makes optional.
  return { open: open as D, secrets };
}
