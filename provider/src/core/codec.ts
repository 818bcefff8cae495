// The codec: the one shape a Source has inside the provider core, and its conversions to and from
// the API's. Inside the core a Source is camelCase (the resource's names, as Pulumi keeps them),
// each write-only secret where it lives (`deployment.password`); where secrets live is the sdk's
// field table (`SECRET_PATHS`). A shell that cannot mark a nested secret (the dynamic resource)
// moves them apart at its own edge (dynamic/shape.ts). The conversions, each once per direction:
// - inputs -> `declaredAttributes` -> the API's names, which the create schema parses (check.ts);
// - parsed API attributes -> `inputsFromAttributes` -> the inputs check returns;
// - a Source the API returned -> `sourceOutputs` -> the state (the declared secrets put where
//   they live: the API never returns them); -> `inputsFromSource` after a refresh.
import {
  isPlainObject,
  READ_ONLY_SOURCE_ATTRIBUTES,
  readOnlyFields,
  SECRET_SOURCE_ATTRIBUTES,
  SOURCE_TYPES,
  WRITABLE_SOURCE_ATTRIBUTES,
  writeOnlyFields,
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
import type { PropertyPath } from "./property-path";
import type { SourceDeployment, SourceDeploymentSecretsOf, SourceReadOnlyValues, WriteOnlyKeyOf } from "./source-types";

/**
 * A type-`T` deployment as the core holds it: camelCase, the API's defaults filled in, its declared
 * write-only values in place, without its read-only fields (top-level outputs). The server's
 * annotation is present once the Source was read; a declaration has one only if it says so.
 */
export type CamelDeploymentOf<T extends SourceType> = Simplify<
  CamelKeys<Omit<DeploymentOutputOf<T>, WriteOnlyKeyOf<T> | "annotation">> & { annotation?: string } & DeploymentSecretsOf<T>
>;
/** A deployment with the resource's camelCase field names: one of the types'. */
export type CamelDeployment = { [T in SourceType]: CamelDeploymentOf<T> }[SourceType];

/** The declared write-only values of a type-`T` deployment, camelCase (`password`, `s3SecretKey`); null clears one. */
export type DeploymentSecretsOf<T extends SourceType> = Partial<SourceDeploymentSecretsOf<T>>;

/** The Source's writable attributes besides its deployment (`name`, `enabled`), as the resource names them. */
export type SourceWritableAttributes = CamelNamed<Pick<SourceAttributes, WritableSourceAttribute>>;

/** The names of those attributes as the resource has them. */
export const WRITABLE_ATTRIBUTE_NAMES: readonly (keyof SourceWritableAttributes)[] = WRITABLE_SOURCE_ATTRIBUTES.map(camelCase);

/** What a Source is declared to be, and what is compared to find a change. */
export type SourceDeclaration = SourceWritableAttributes & { deployment: CamelDeployment };

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
export type DeclaredAttributes = Pick<SourceAttributes, WritableSourceAttribute> & { deployment: StoredDeployment };

/** Every deployment field that is write-only in some type, the API's names. */
export const WRITE_ONLY_API_NAMES: ReadonlySet<string> = new Set(SOURCE_TYPES.flatMap((type) => writeOnlyFields(type)));

/** Every deployment field that is write-only in some type, camelCase. */
export const WRITE_ONLY_NAMES: ReadonlySet<string> = new Set([...WRITE_ONLY_API_NAMES].map(camelCase));

/** Every deployment field that is read-only in some type, camelCase: also top-level outputs. */
export const READ_ONLY_NAMES: readonly string[] = [...new Set(SOURCE_TYPES.flatMap((type) => readOnlyFields(type)).map(camelCase))];

/**
 * Where a Source's inputs or state may hold secrets, from the sdk's field table: every write-only
 * deployment field (of any type, so that a type not known yet loses none) and every secret
 * attribute (the secure-URL token). Paths absent from a value mark nothing.
 */
export const SECRET_PATHS: readonly PropertyPath[] = [
  ...[...WRITE_ONLY_NAMES].map((field) => ["deployment", field]),
  ...SECRET_SOURCE_ATTRIBUTES.map((name) => [camelCase(name)]),
];

/** The camelCase write-only fields of a type (none for an unknown type: check reports it). */
export function writeOnlyFieldNames(type: unknown): string[] {
  return isSourceType(type) ? writeOnlyFields(type).map(camelCase) : [];
}

export function isSourceType(value: unknown): value is SourceType {
  return (SOURCE_TYPES as readonly unknown[]).includes(value);
}

/** The declared write-only values of a deployment (camelCase), to be kept in the state: the API never returns them. */
function declaredSecrets(deployment: unknown): Record<string, unknown> {
  if (!isPlainObject(deployment)) return {};
  return Object.fromEntries(Object.entries(deployment).filter(([key, value]) => WRITE_ONLY_NAMES.has(key) && value !== undefined));
}

/** The declared attributes with the API's names, as the schemas read them: the one rename toward the API. */
export function declaredAttributes(news: UncheckedInputs): Record<string, unknown> {
  const { deployment } = news;
  const writable = Object.fromEntries(WRITABLE_SOURCE_ATTRIBUTES.map((name) => [name, news[camelCase(name)]]));
  return withoutUndefined({ ...writable, deployment: isPlainObject(deployment) ? renameDeployment(deployment, "toApi") : deployment });
}

/**
 * Attributes of a declaration (parsed, or with unknown values the schemas passed) in the core's
 * shape. Parsed ones give `SourceInputs`: the renaming changes no value, and the types are the
 * parsed ones renamed by the rule CamelKeys states.
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
  return {
    ...camelMembers(writable, WRITABLE_SOURCE_ATTRIBUTES),
    deployment: isPlainObject(deployment) ? renameDeployment(deployment, "toCamel") : deployment,
    ...providerOptions(options),
  };
}

/** A declaration's attributes as the create schema (or the adoption schema) parses them: defaults filled in. */
export type ParsedAttributes = Pick<SourceAttributes, WritableSourceAttribute> & {
  deployment: Partial<StoredDeployment> & Pick<StoredDeployment, "type">;
};

/**
 * A Source's deployment as the core keeps it: the declarable fields (camelCase, the server's
 * annotation included) and, apart, the read-only ones (`passwordSet`, `allowsUpload`), which the
 * state holds once, at its top level.
 */
function splitDeployment(source: Source): { deployment: SourceDeployment; readOnly: SourceReadOnlyValues } {
  const { deployment } = source.attributes;
  const readOnlyNames = new Set(readOnlyFields(deployment.type));
  const writable: Record<string, unknown> = {};
  const readOnly: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(deployment)) (readOnlyNames.has(key) ? readOnly : writable)[key] = value;
  return {
    // A returned deployment of its type, renamed at run time by the rule CamelKeys states in types.
    deployment: { type: deployment.type, ...renameDeployment(writable, "toCamel") } as SourceDeployment,
    readOnly: renameDeployment(readOnly, "toCamel"),
  };
}

/** The camelCase deployment a Source has on the server, without its read-only fields (and no secret: the API returns none). */
export function declarableDeployment(source: Source): CamelDeployment {
  return splitDeployment(source).deployment;
}

/** What the server has, as a declaration to compare with: its secrets cannot be read, so none are known. */
export function liveDeclaration(source: Source): SourceDeclaration & SourceReadOnlyValues {
  const { deployment, readOnly } = splitDeployment(source);
  return { ...camelMembers(source.attributes, WRITABLE_SOURCE_ATTRIBUTES), deployment, ...readOnly };
}

/** A Source's attributes as the API returned them, camelCase; the read-only deployment fields at the top level. */
export type ReturnedAttributes = SourceWritableAttributes & { deployment: SourceDeployment } & SourceReadOnlyAttributes &
  SourceReadOnlyValues;

/** Every attribute the API returned, camelCase; the read-only deployment fields at the top level. */
export function sourceAttributes(source: Source): ReturnedAttributes {
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

/** What only the program knows, carried from the inputs (or an earlier state) into the state: the declared secrets, the options. */
export type DeclaredOnly = Partial<Pick<SourceDeclaration, "deployment">> & ProviderOptions;

/** The state kept for a Source: what the API returned, with the declared secrets where they live, and the provider options. */
export function sourceOutputs(source: Source, declared: DeclaredOnly): SourceState {
  const attributes = sourceAttributes(source);
  const deployment = { ...attributes.deployment, ...declaredSecrets(declared.deployment) };
  return { ...attributes, deployment, ...providerOptions(declared) };
}

/**
 * The inputs that describe a Source as the server has it (after a refresh), so that the next
 * preview shows what differs from the program. The server's generated annotation is left out: only
 * a declared one is compared. The declared secrets stay: the server cannot say what they are.
 */
export function inputsFromSource(source: Source, previous: DeclaredOnly): SourceInputs {
  const { annotation: _generated, ...deployment } = declarableDeployment(source);
  return {
    ...camelMembers(source.attributes, WRITABLE_SOURCE_ATTRIBUTES),
    deployment: { ...deployment, ...declaredSecrets(previous.deployment) },
    ...providerOptions(previous),
  };
}
