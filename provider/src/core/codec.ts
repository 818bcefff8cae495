// The codec: the shapes a Source takes inside the provider, and the one conversion between each
// pair of them. Every rename between the API's names and the resource's camelCase ones, and every
// split or merge of the write-only secrets, happens here, once each way:
// - declared: the program's inputs as the engine passes them to `check` (camelCase, secrets apart,
//   nothing checked) -> `declaredAttributes` -> the API's attributes the schemas check;
// - parsed API attributes -> `inputsFromAttributes` -> inputs: what `check` returns (defaults
//   filled in, write-only values apart in `deploymentSecrets`), which the engine hands to every
//   later step;
// - inputs -> `apiAttributes` -> what the Management API is sent (snake_case, secrets in `deployment`);
// - a Source the API returned -> `sourceOutputs` -> state: what Pulumi keeps (every returned
//   attribute, plus the declared secrets and options); -> `inputsFromSource` after a refresh.
import {
  isPlainObject,
  READ_ONLY_SOURCE_ATTRIBUTES,
  readOnlyFields,
  SOURCE_TYPES,
  WRITABLE_SOURCE_ATTRIBUTES,
  writeOnlyFields,
  type DeploymentInput,
  type ReadOnlySourceAttribute,
  type DeploymentOutputOf,
  type Simplify,
  type Source,
  type SourceAttributes,
  type SourceType,
  type StoredDeployment,
  type WritableSourceAttribute,
  withoutUndefined,
} from "@asset-delivery/sdk";
import { camelCase, camelMembers, renameDeployment, type CamelKeys, type CamelNamed } from "./names";
import { providerOptions, type ProviderOptionKey, type ProviderOptions } from "./provider-options";
import type { SourceDeploymentSecretsOf, SourceReadOnlyValues, WriteOnlyKeyOf } from "../source-types";

/**
 * A type-`T` deployment as the resource holds it: camelCase, the API's defaults filled in, without
 * its write-only fields (`deploymentSecrets`) and its read-only ones (top-level outputs). The
 * server's annotation is present once the Source was read; a declaration has one only if it says so.
 */
export type CamelDeploymentOf<T extends SourceType> = Simplify<
  CamelKeys<Omit<DeploymentOutputOf<T>, WriteOnlyKeyOf<T> | "annotation">> & { annotation?: string }
>;
/** A deployment with the resource's camelCase field names: one of the types'. */
export type CamelDeployment = { [T in SourceType]: CamelDeploymentOf<T> }[SourceType];

/** The declared write-only values of a type-`T` deployment, camelCase (`password`, `s3SecretKey`); null clears one. */
export type DeploymentSecretsOf<T extends SourceType> = Partial<SourceDeploymentSecretsOf<T>>;
/** The declared write-only values of a deployment (those of its type, or of another after a type change). */
export type DeploymentSecrets = Partial<UnionToIntersection<{ [T in SourceType]: DeploymentSecretsOf<T> }[SourceType]>>;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The Source's writable attributes besides its deployment (`name`, `enabled`), as the resource names them. */
export type SourceWritableAttributes = CamelNamed<Pick<SourceAttributes, WritableSourceAttribute>>;

/** The names of those attributes as the resource has them. */
export const WRITABLE_ATTRIBUTE_NAMES: readonly (keyof SourceWritableAttributes)[] = WRITABLE_SOURCE_ATTRIBUTES.map(camelCase);

/** What a Source is declared to be, and what is compared to find a change. */
export type SourceDeclaration = SourceWritableAttributes & {
  deployment: CamelDeployment;
  /** Kept apart from the deployment so that they are a secret of their own. */
  deploymentSecrets: DeploymentSecrets;
};

/**
 * The resource's inputs as `check` returned them: every rule met, the API's defaults filled in.
 * The engine hands exactly these to diff, create and update (during a preview, diff may instead get
 * inputs in which some value is not known yet: see unknowns.ts).
 */
export type SourceInputs = SourceDeclaration & ProviderOptions;

/** The program's inputs as the engine passes them to `check`: plain values, not checked yet. */
export type UncheckedInputs = Record<string, unknown>;

/**
 * The state Pulumi keeps for a Source: what the server returned, plus the declared secrets and
 * options. The read-only deployment fields are at the top level only (states written before kept
 * them inside `deployment` too; every reader of a state drops them there).
 */
export type SourceState = SourceInputs & SourceReadOnlyAttributes & SourceReadOnlyValues;

/** The Source's read-only attributes, camelCase: `deploymentStatus`, `dateDeployed`, `secureUrlToken` (present while secure URLs are on). */
export type SourceReadOnlyAttributes = CamelNamed<Pick<SourceAttributes, ReadOnlySourceAttribute>>;

/** The names of those attributes as the resource has them. */
export const READ_ONLY_ATTRIBUTE_NAMES: readonly (keyof SourceReadOnlyAttributes)[] = READ_ONLY_SOURCE_ATTRIBUTES.map(camelCase);

/** The declared Source as the API's attributes, every writable one stated. */
export type DeclaredAttributes = Pick<SourceAttributes, WritableSourceAttribute> & { deployment: DeploymentInput };

/** What only the program knows, carried from the inputs (or an earlier state) into the state. */
export type DeclaredOnly = Pick<SourceInputs, "deploymentSecrets"> & ProviderOptions;

/** Every deployment field that is write-only in some type, the API's names. */
export const WRITE_ONLY_API_NAMES: ReadonlySet<string> = new Set(SOURCE_TYPES.flatMap((type) => writeOnlyFields(type)));

/** Every deployment field that is write-only in some type, camelCase: split off into `deploymentSecrets`. */
export const WRITE_ONLY_NAMES: ReadonlySet<string> = new Set([...WRITE_ONLY_API_NAMES].map(camelCase));

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
export function splitSecrets<D extends Record<string, unknown>>(deployment: D): { deployment: D; secrets: DeploymentSecrets } {
  const open: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(deployment)) (WRITE_ONLY_NAMES.has(key) ? secrets : open)[key] = value;
  return { deployment: open as D, secrets };
}

/** The declared attributes with the API's names, secrets back in the deployment, as the schemas read them. */
export function declaredAttributes(news: UncheckedInputs): Record<string, unknown> {
  const { deployment, deploymentSecrets } = news;
  const merged = isPlainObject(deployment)
    ? renameDeployment({ ...deployment, ...(isPlainObject(deploymentSecrets) ? deploymentSecrets : {}) }, "toApi")
    : deployment;
  const writable = Object.fromEntries(WRITABLE_SOURCE_ATTRIBUTES.map((name) => [name, news[camelCase(name)]]));
  return withoutUndefined({ ...writable, deployment: merged });
}

/**
 * Attributes of a declaration (parsed, or with unknown values the schemas passed) in the resource's
 * shape: camelCase, secrets apart. Parsed ones give `SourceInputs`: the renaming changes no value,
 * and the types are the parsed ones renamed by the rule CamelKeys states.
 */
export function inputsFromAttributes(attributes: ParsedAttributes, options: ProviderOptions): SourceInputs;
export function inputsFromAttributes(
  attributes: Record<string, unknown>,
  options: Partial<Record<ProviderOptionKey, unknown>>,
): UncheckedInputs;
export function inputsFromAttributes(
  attributes: Record<string, unknown>,
  options: Partial<Record<ProviderOptionKey, unknown>>,
): UncheckedInputs {
  const { deployment, ...writable } = attributes;
  const split = isPlainObject(deployment) ? splitSecrets(renameDeployment(deployment, "toCamel")) : { deployment, secrets: {} };
  return {
    ...camelMembers(writable, WRITABLE_SOURCE_ATTRIBUTES),
    deployment: split.deployment,
    deploymentSecrets: split.secrets,
    ...providerOptions(options),
  };
}

/** A declaration's attributes as the create schema (or the adoption schema) parses them: defaults filled in. */
export type ParsedAttributes = Pick<SourceAttributes, WritableSourceAttribute> & {
  deployment: Partial<StoredDeployment> & Pick<StoredDeployment, "type">;
};

/** The declared Source as the API's attributes, secrets back in the deployment: check's conversion, of inputs it parsed. */
export function apiAttributes(inputs: SourceDeclaration): DeclaredAttributes {
  // The renaming changes no value: the attributes are those the schema parsed, by the rule CamelKeys states.
  return declaredAttributes(inputs) as DeclaredAttributes;
}

/**
 * A Source's deployment as the resource keeps it: the declarable fields (camelCase, the server's
 * annotation included) and, apart, the read-only ones (`passwordSet`, `allowsUpload`), which the
 * state holds once, at its top level.
 */
function splitDeployment(source: Source): { deployment: CamelDeployment; readOnly: SourceReadOnlyValues } {
  const { deployment } = source.attributes;
  const readOnlyNames = new Set(readOnlyFields(deployment.type));
  const writable: Record<string, unknown> = {};
  const readOnly: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(deployment)) (readOnlyNames.has(key) ? readOnly : writable)[key] = value;
  return {
    // A returned deployment of its type, renamed at run time by the rule CamelKeys states in types.
    deployment: { type: deployment.type, ...renameDeployment(writable, "toCamel") } as CamelDeployment,
    readOnly: renameDeployment(readOnly, "toCamel"),
  };
}

/** The camelCase deployment a Source has on the server, without its read-only fields. */
export function declarableDeployment(source: Source): CamelDeployment {
  return splitDeployment(source).deployment;
}

/** What the server has, as a declaration to compare with: its secrets cannot be read, so none are known. */
export function liveDeclaration(source: Source): SourceDeclaration & SourceReadOnlyValues {
  const { deployment, readOnly } = splitDeployment(source);
  return { ...camelMembers(source.attributes, WRITABLE_SOURCE_ATTRIBUTES), deployment, deploymentSecrets: {}, ...readOnly };
}

/** Every attribute the API returned, camelCase; the read-only deployment fields at the top level. */
export function sourceAttributes(source: Source): Omit<SourceState, keyof DeclaredOnly> {
  const { attributes } = source;
  const { deployment, readOnly } = splitDeployment(source);
  return {
    ...camelMembers(attributes, WRITABLE_SOURCE_ATTRIBUTES),
    deployment,
    // Absent ones (the token while secure URLs are off) are left out.
    ...camelMembers(attributes, READ_ONLY_SOURCE_ATTRIBUTES),
    ...readOnly,
  };
}

/** The state kept for a Source: what the API returned, the declared secrets and the provider options. */
export function sourceOutputs(source: Source, declared: DeclaredOnly): SourceState {
  return { ...sourceAttributes(source), deploymentSecrets: declared.deploymentSecrets, ...providerOptions(declared) };
}

/**
 * The inputs that describe a Source as the server has it (after a refresh), so that the next
 * preview shows what differs from the program. The server's generated annotation is left out: only
 * a declared one is compared.
 */
export function inputsFromSource(source: Source, previous: DeclaredOnly): SourceInputs {
  const { annotation: _generated, ...deployment } = declarableDeployment(source);
  return {
    ...camelMembers(source.attributes, WRITABLE_SOURCE_ATTRIBUTES),
    deployment,
    deploymentSecrets: previous.deploymentSecrets,
    ...providerOptions(previous),
  };
}
