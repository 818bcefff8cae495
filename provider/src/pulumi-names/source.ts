// A Source's values between the provider core's names (the API's: `deployment.cache_ttl_behavior`,
// `deployment_status`, a read-only deployment field such as `password_set` inside the deployment,
// as the API returns it) and the Source resource's (Pulumi's camelCase: `deployment.cacheTtlBehavior`,
// `deploymentStatus`, and the read-only deployment fields lifted to the top level, `passwordSet`).
// Each shell converts once at its edge: `toApiNames` for what the engine hands over, `toPulumiNames`
// for what goes back (plugin/provider.ts, dynamic/shape.ts). The names are the sdk's descriptors';
// the provider's own options (`waitForDeployment`, ...) have one name, and sit beside the Source's
// fields in the resource but apart in the core (`options`, core/codec.ts): moved here too. Unknown
// keys pass unchanged, so that check names them as the program wrote them. Beside it, in the same names:
// secret-paths.ts (where secrets are), paths.ts (a path as the program wrote it, check's failures),
// declaration.ts (what to declare for a Source made elsewhere).
import {
  isPlainObject,
  READ_ONLY_SOURCE_ATTRIBUTES,
  WRITABLE_SOURCE_ATTRIBUTES,
  writeOnlyFields,
  isSourceType,
  READ_ONLY_DEPLOYMENT_FIELDS,
  WRITE_ONLY_DEPLOYMENT_FIELDS,
  type ReadOnlySourceAttribute,
  type Source,
  type SourceAttributes,
  type WritableSourceAttribute,
} from "@asset-delivery/sdk";
import { PROVIDER_OPTION_KEYS, type SourceInputs, type SourceState, type UncheckedInputs } from "../core";
import { camelCase, renameDeployment, type CamelNamed } from "./rename";
import type { SourceDeployment, SourceReadOnlyValues } from "./source-types";

/** The resource's names of the Source's writable attributes besides its deployment (`name`, `enabled`). */
export const WRITABLE_ATTRIBUTE_NAMES = WRITABLE_SOURCE_ATTRIBUTES.map(camelCase);

/** The resource's names of the Source's read-only attributes: `deploymentStatus`, `dateDeployed`, `secureUrlToken`. */
export const READ_ONLY_ATTRIBUTE_NAMES = READ_ONLY_SOURCE_ATTRIBUTES.map(camelCase);

/** Every deployment field that is read-only in some type, as top-level outputs of the resource (`passwordSet`). */
export const READ_ONLY_NAMES: readonly string[] = [...READ_ONLY_DEPLOYMENT_FIELDS].map(camelCase);

/** Every deployment field that is write-only in some type, the resource's names (`password`, `s3SecretKey`). */
export const WRITE_ONLY_NAMES: ReadonlySet<string> = new Set([...WRITE_ONLY_DEPLOYMENT_FIELDS].map(camelCase));

/** The resource's write-only fields of a type (none for an unknown type: check reports it). */
export function writeOnlyFieldNames(type: unknown): string[] {
  return isSourceType(type) ? writeOnlyFields(type).map(camelCase) : [];
}

// The top-level names both ways: the Source's attributes (the deployment's are renamed inside it).
export const TOP_LEVEL_TO_PULUMI: ReadonlyMap<string, string> = new Map(
  [...WRITABLE_SOURCE_ATTRIBUTES, ...READ_ONLY_SOURCE_ATTRIBUTES].map((name) => [name, camelCase(name)]),
);
const TOP_LEVEL_TO_API: ReadonlyMap<string, string> = new Map([...TOP_LEVEL_TO_PULUMI].map(([api, pulumi]) => [pulumi, api]));
const LIFTED_TO_API: ReadonlyMap<string, string> = new Map([...READ_ONLY_DEPLOYMENT_FIELDS].map((name) => [camelCase(name), name]));

/** The core's key of the provider's options (core/codec.ts); a program's own property of that name goes in with them, for check to refuse by its name. */
const OPTIONS_KEY = "options";
const APART: ReadonlySet<string> = new Set([...PROVIDER_OPTION_KEYS, OPTIONS_KEY]);

/**
 * The core's values (inputs, a state, a preview's outputs) as the resource's properties: renamed,
 * the read-only deployment fields lifted to the top level, the provider's options beside the fields. A deployment that is not an object (not
 * known yet, or refused by check) passes as it is.
 */
export function toPulumiNames(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === OPTIONS_KEY && isPlainObject(value)) {
      Object.assign(out, value);
      continue;
    }
    if (key !== "deployment" || !isPlainObject(value)) {
      out[TOP_LEVEL_TO_PULUMI.get(key) ?? key] = value;
      continue;
    }
    const declarable: Record<string, unknown> = {};
    for (const [field, inner] of Object.entries(value)) {
      if (READ_ONLY_DEPLOYMENT_FIELDS.has(field)) out[camelCase(field)] = inner;
      else declarable[field] = inner;
    }
    out.deployment = renameDeployment(declarable, "toCamel");
  }
  return out;
}

/**
 * The resource's properties (the engine's values: a program's, or what `toPulumiNames` gave it) in
 * the core's names and shape: the provider's options apart in `options`, the top-level read-only
 * deployment fields put back inside the deployment (over
 * copies that states written by 0.1.0 also kept there). `declared`: a program's arguments, as check
 * takes them, where an output's name (`passwordSet`) is no argument: it stays where the program put
 * it, for check to refuse by that name.
 */
export function toApiNames(values: Record<string, unknown>, { declared = false } = {}): Record<string, unknown> {
  const { deployment } = values;
  const out: Record<string, unknown> = {};
  const lifted: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === "deployment") continue;
    // Values already in the core's shape keep their options; a program's own `options` goes in with them, for check to refuse by its name.
    if (key === OPTIONS_KEY && !declared && isPlainObject(value)) {
      Object.assign(options, value);
      continue;
    }
    if (APART.has(key)) {
      options[key] = value;
      continue;
    }
    const readOnlyField = !declared && isPlainObject(deployment) ? LIFTED_TO_API.get(key) : undefined;
    if (readOnlyField !== undefined) lifted[readOnlyField] = value;
    else out[TOP_LEVEL_TO_API.get(key) ?? key] = value;
  }
  if (deployment !== undefined)
    out.deployment = isPlainObject(deployment) ? { ...renameDeployment(deployment, "toApi"), ...lifted } : deployment;
  out[OPTIONS_KEY] = options;
  return out;
}

/** A Source's attributes as the API returned them, as the resource names them; the read-only deployment fields at the top level. */
export type ReturnedAttributes = CamelNamed<Pick<SourceAttributes, WritableSourceAttribute>> & {
  deployment: SourceDeployment;
} & CamelNamed<Pick<SourceAttributes, ReadOnlySourceAttribute>> &
  SourceReadOnlyValues;

/** Every attribute the API returned, as the resource names them (the data-source functions' results). */
export function sourceAttributes(source: Source): ReturnedAttributes {
  // Absent attributes (the token while secure URLs are off) are left out; renamed by the rule the types state.
  const attributes = Object.fromEntries(Object.entries(source.attributes).filter(([, value]) => value !== undefined));
  return toPulumiNames(attributes) as ReturnedAttributes;
}

/**
 * What the engine hands back to the core (check's inputs, for diff, create and update; a state this
 * provider returned), in the core's shape: the engine keeps what the core gave it, so it is taken
 * as that type here, at the edge, and nowhere else. The dynamic shell first merges its secrets in
 * (dynamic/shape.ts).
 */
export const coreInputs = (values: Record<string, unknown>) => toApiNames(values) as SourceInputs;
export const coreState = (values: Record<string, unknown>) => toApiNames(values) as SourceState;
/** A program's arguments, for check (an output's name stays where the program put it: see toApiNames). */
export const uncheckedInputs = (values: Record<string, unknown>) => toApiNames(values, { declared: true }) as UncheckedInputs;
