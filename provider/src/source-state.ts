// The shapes a Source takes inside the provider, and the conversions between them:
// - inputs: what the program declared (camelCase), write-only values apart in `deploymentSecrets`;
// - API attributes: what the Management API reads and writes (snake_case, secrets in `deployment`);
// - outputs: the state Pulumi keeps (every returned attribute, plus the declared secrets and options).
import { readOnlyFields, SOURCE_TYPES, writeOnlyFields, type Source, type SourceType } from "@asset-delivery/sdk";
import { camelCase, isPlainObject, renameDeployment } from "./names";

/** The resource's inputs as the provider receives them: plain values, camelCase. */
export interface SourceInputs {
  name?: unknown;
  enabled?: unknown;
  deployment?: unknown;
  /** The deployment's write-only values, kept apart so that they are a secret of their own. */
  deploymentSecrets?: unknown;
  waitForDeployment?: unknown;
  deploymentTimeoutSeconds?: unknown;
  adoptSourceId?: unknown;
  /** The serialized provider, which Pulumi adds to every resource's properties. */
  __provider?: unknown;
}

/** Inputs that only steer the provider: never sent to the API. */
export const PROVIDER_OPTION_KEYS = ["waitForDeployment", "deploymentTimeoutSeconds", "adoptSourceId"] as const;

/** Every deployment field that is write-only in some type, camelCase: split off into `deploymentSecrets`. */
export const WRITE_ONLY_NAMES: ReadonlySet<string> = new Set(SOURCE_TYPES.flatMap((type) => writeOnlyFields(type)).map(camelCase));

/** Every deployment field that is read-only in some type, camelCase: also top-level outputs. */
export const READ_ONLY_NAMES: readonly string[] = [...new Set(SOURCE_TYPES.flatMap((type) => readOnlyFields(type)).map(camelCase))];

/** The camelCase write-only fields of a type, the ones kept in `deploymentSecrets` (none for an unknown type: check reports it). */
export function writeOnlyFieldNames(type: string): string[] {
  return isSourceType(type) ? writeOnlyFields(type).map(camelCase) : [];
}

export function isSourceType(value: unknown): value is SourceType {
  return (SOURCE_TYPES as readonly unknown[]).includes(value);
}

/** Splits a camelCase deployment into its public fields and its write-only ones. */
export function splitSecrets(deployment: Record<string, unknown>): { deployment: Record<string, unknown>; secrets: Record<string, unknown> } {
  const open: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(deployment)) (WRITE_ONLY_NAMES.has(key) ? secrets : open)[key] = value;
  return { deployment: open, secrets };
}

/** The declared deployment, secrets included, with the API's names. */
export function apiDeployment(inputs: SourceInputs): Record<string, unknown> | unknown {
  if (!isPlainObject(inputs.deployment)) return inputs.deployment;
  const secrets = isPlainObject(inputs.deploymentSecrets) ? inputs.deploymentSecrets : {};
  return renameDeployment({ ...inputs.deployment, ...secrets }, "toApi");
}

/** The declared Source as API attributes (for validation, create and update). */
export function apiAttributes(inputs: SourceInputs): Record<string, unknown> {
  return withoutUndefined({ name: inputs.name, enabled: inputs.enabled, deployment: apiDeployment(inputs) });
}

/** The camelCase deployment a Source has on the server, without its read-only fields. */
export function declarableDeployment(source: Source): Record<string, unknown> {
  const { deployment } = source.attributes;
  const readOnly = new Set(readOnlyFields(deployment.type));
  const writable = Object.fromEntries(Object.entries(deployment).filter(([key]) => !readOnly.has(key)));
  return renameDeployment(writable, "toCamel");
}

/** Every attribute the API returned, camelCase; the read-only deployment fields also at the top level. */
export function sourceAttributes(source: Source): Record<string, unknown> {
  const { attributes } = source;
  const readOnly = Object.fromEntries(readOnlyFields(attributes.deployment.type).map((name) => [camelCase(name), (attributes.deployment as Record<string, unknown>)[name]]));
  return withoutUndefined({
    name: attributes.name,
    enabled: attributes.enabled,
    deployment: renameDeployment(attributes.deployment, "toCamel"),
    deploymentStatus: attributes.deployment_status,
    dateDeployed: attributes.date_deployed,
    secureUrlToken: attributes.secure_url_token,
    ...readOnly,
  });
}

/** The state kept for a Source: what the API returned, the declared secrets and the provider options. */
export function sourceOutputs(source: Source, inputs: SourceInputs): Record<string, unknown> {
  return {
    ...sourceAttributes(source),
    deploymentSecrets: isPlainObject(inputs.deploymentSecrets) ? inputs.deploymentSecrets : {},
    ...providerOptions(inputs),
  };
}

/**
 * The inputs that describe a Source as the server has it (after a refresh), so that the next
 * preview shows what differs from the program. The server's generated annotation is left out: only
 * a declared one is compared.
 */
export function inputsFromSource(source: Source, previous: SourceInputs): Record<string, unknown> {
  const { annotation: _generated, ...deployment } = declarableDeployment(source);
  return withoutUndefined({
    name: source.attributes.name,
    enabled: source.attributes.enabled,
    deployment,
    deploymentSecrets: isPlainObject(previous.deploymentSecrets) ? previous.deploymentSecrets : {},
    ...providerOptions(previous),
  });
}

export function providerOptions(inputs: SourceInputs): Record<string, unknown> {
  return withoutUndefined(Object.fromEntries(PROVIDER_OPTION_KEYS.map((key) => [key, inputs[key]])));
}

/** Pulumi's wire format has no `undefined`: absent keys are left out. */
export function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
