// A Source's values inside the provider core, in the API's names and the sdk's types: the declared
// Source as check parsed it (the sdk's create attributes, each write-only secret where it lives,
// `deployment.password`), and the state: the Source the API returned, plus the declared secrets
// (the API never returns them). Beside the Source's fields, apart in `options`, the provider's own
// options (provider-options.ts), which are no field of the API's. The shells rename at their edges
// and put the options beside the fields, where the resource has them (pulumi-names/source.ts); here
// a state is built from a returned Source, once.
import {
  isPlainObject,
  READ_ONLY_SOURCE_ATTRIBUTES,
  readOnlyFields,
  WRITABLE_SOURCE_ATTRIBUTES,
  WRITE_ONLY_DEPLOYMENT_FIELDS,
  pick,
  withoutUndefined,
  type Deployment,
  type Source,
  type SourceAttributes,
  type StoredDeployment,
  type WritableSourceAttribute,
} from "@asset-delivery/sdk";
import type { ProviderOptions } from "./provider-options";

/**
 * The declared Source as the create schema parsed it: every writable attribute, the API's defaults
 * filled in. For an adopted Source the adoption schema parsed it, which lets the write-only secrets
 * be left out (to keep the stored ones): then a required secret may be absent, whatever the type says.
 */
export type DeclaredAttributes = Pick<SourceAttributes, WritableSourceAttribute> & { deployment: StoredDeployment };

/**
 * The resource's inputs as `check` returned them: every rule met, the API's defaults filled in.
 * The engine hands exactly these back (renamed by the shell) to diff, create and update (during a
 * preview, diff may instead get inputs in which some value is not known yet: see unknowns.ts).
 */
export type SourceInputs = DeclaredAttributes & { options: ProviderOptions };

/** What is sent to the API of a Source's inputs: all but the provider's options. */
export function declaredAttributes({ options: _options, ...declared }: SourceInputs): DeclaredAttributes {
  return declared;
}

/**
 * The program's inputs as a shell passes them to `check`, in the API's names: plain values, not
 * checked yet; what the shell took for the provider's options apart in `options`.
 */
export type UncheckedInputs = Record<string, unknown> & { options?: Record<string, unknown> };

/** A returned deployment (its read-only fields included, as the API returns them) with the declared write-only values. */
export type StateDeployment = Deployment & Partial<StoredDeployment>;

/**
 * The state Pulumi keeps for a Source: every attribute the server returned (the secure-URL token
 * only while it has one), the declared secrets in the deployment, and the options.
 */
export type SourceState = Omit<SourceAttributes, "deployment"> & { deployment: StateDeployment; options: ProviderOptions };

/** The declared write-only values of a deployment, to be kept in the state: the API never returns them. */
function declaredSecrets(deployment: unknown): Record<string, unknown> {
  if (!isPlainObject(deployment)) return {};
  return Object.fromEntries(
    Object.entries(deployment).filter(([key, value]) => WRITE_ONLY_DEPLOYMENT_FIELDS.has(key) && value !== undefined),
  );
}

/** The deployment a Source has on the server, without its read-only fields (and no secret: the API returns none). */
export function declarableDeployment(source: Source): Deployment {
  const readOnly = new Set(readOnlyFields(source.attributes.deployment.type));
  return Object.fromEntries(Object.entries(source.attributes.deployment).filter(([key]) => !readOnly.has(key))) as Deployment;
}

/** What the server has, as a declaration to compare with (its read-only flags in the deployment): its secrets cannot be read, so none are known. */
export function liveDeclaration(source: Source): DeclaredAttributes {
  return { ...pick(source.attributes, WRITABLE_SOURCE_ATTRIBUTES), deployment: source.attributes.deployment } as DeclaredAttributes;
}

/** What only the program knows, carried from the inputs (or an earlier state) into the state: the declared secrets, the options. */
export type DeclaredOnly = { deployment?: object; options: ProviderOptions };

/** The state kept for a Source: what the API returned, with the declared secrets where they live, and the provider options. */
export function sourceOutputs(source: Source, declared: DeclaredOnly): SourceState {
  const { attributes } = source;
  // Absent attributes (the token while secure URLs are off) are left out: the engines' values have no undefined.
  const returned = withoutUndefined(pick(attributes, [...WRITABLE_SOURCE_ATTRIBUTES, ...READ_ONLY_SOURCE_ATTRIBUTES]));
  const deployment = { ...attributes.deployment, ...declaredSecrets(declared.deployment) };
  return { ...returned, deployment, options: declared.options } as SourceState;
}

/**
 * The inputs that describe a Source as the server has it (after a refresh), so that the next
 * preview shows what differs from the program. The server's generated annotation is left out: only
 * a declared one is compared. The declared secrets stay: the server cannot say what they are.
 */
export function inputsFromSource(source: Source, previous: DeclaredOnly): SourceInputs {
  const { annotation: _generated, ...deployment } = declarableDeployment(source);
  return {
    ...pick(source.attributes, WRITABLE_SOURCE_ATTRIBUTES),
    deployment: { ...deployment, ...declaredSecrets(previous.deployment) },
    options: previous.options,
  } as SourceInputs;
}
