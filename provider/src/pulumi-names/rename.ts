// Renaming a Source's objects between the API's field names (`cache_ttl_behavior`, `robots.txt`)
// and the Pulumi-idiomatic camelCase names of the Source resource (`cacheTtlBehavior`, `robotsTxt`),
// nested objects included: the shells' edge (the core speaks the API's names). Each field's two
// names are the sdk's field descriptors' (and `camelCase` is the sdk's): no field is listed here.
import {
  camelCase,
  deploymentFieldDescriptors,
  isPlainObject,
  SOURCE_TYPES,
  type CamelCase,
  type FieldDescriptor,
} from "@asset-delivery/sdk";

export { camelCase, type CamelCase };

/** Renames the keys of an object type, and of the objects inside it (not of records, whose keys are data). */
export type CamelKeys<T> = T extends readonly (infer E)[]
  ? CamelKeys<E>[]
  : T extends object
    ? string extends keyof T
      ? T
      : { [K in keyof T as K extends string ? CamelCase<K> : K]: CamelKeys<T[K]> }
    : T;

/** An object type with its own keys renamed to camelCase, its values as they are. */
export type CamelNamed<T> = { [K in keyof T as K extends string ? CamelCase<K> : K]: T[K] };

/**
 * The members `names` of an object with the API's names, under the resource's names
 * (`deployment_status` → `deploymentStatus`); absent ones are left out, as Pulumi's wire format has
 * no undefined.
 */
export function camelMembers<T extends object, K extends keyof T & string>(from: T, names: readonly K[]): CamelNamed<Pick<T, K>> {
  const members: Record<string, unknown> = {};
  for (const name of names) if (from[name] !== undefined) members[camelCase(name)] = from[name];
  // Keys renamed at run time, by the rule CamelNamed states in types.
  return members as CamelNamed<Pick<T, K>>;
}

/** The names of one object level, both ways, and the levels of the objects nested in it. */
export interface NameLevel {
  toCamel: ReadonlyMap<string, string>;
  toApi: ReadonlyMap<string, string>;
  /** Keyed by API name: fields whose value is itself an object with named fields. */
  nested: ReadonlyMap<string, NameLevel>;
}

function levelOf(fieldLists: readonly (readonly FieldDescriptor[])[]): NameLevel {
  const toCamel = new Map<string, string>();
  const toApi = new Map<string, string>();
  const nestedLists = new Map<string, (readonly FieldDescriptor[])[]>();
  for (const field of fieldLists.flat()) {
    const taken = toApi.get(field.name);
    if (taken !== undefined && taken !== field.apiName)
      throw new Error(`API fields ${taken} and ${field.apiName} would both be called ${field.name}`);
    toCamel.set(field.apiName, field.name);
    toApi.set(field.name, field.apiName);
    if (field.type === "object") nestedLists.set(field.apiName, [...(nestedLists.get(field.apiName) ?? []), field.fields]);
  }
  const nested = new Map([...nestedLists].map(([apiName, inner]) => [apiName, levelOf(inner)]));
  return { toCamel, toApi, nested };
}

/** Every deployment field of every type (`type` included), with the objects nested in them: the sdk's descriptors. */
export const deploymentNames: NameLevel = levelOf(SOURCE_TYPES.map(deploymentFieldDescriptors));

/** A deployment object with its keys (and those of its nested objects) renamed one way or the other. */
export function renameDeployment(deployment: Record<string, unknown>, direction: "toCamel" | "toApi"): Record<string, unknown> {
  return renameKeys(deployment, deploymentNames, direction);
}

function renameKeys(value: Record<string, unknown>, level: NameLevel, direction: "toCamel" | "toApi"): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    // Unknown keys pass through unchanged, so that check can report them by the name the user wrote.
    const renamed = level[direction].get(key) ?? key;
    const apiName = direction === "toApi" ? renamed : key;
    const nested = level.nested.get(apiName);
    out[renamed] = nested && isPlainObject(inner) ? renameKeys(inner, nested, direction) : inner;
  }
  return out;
}

/** Turns an API path (`["deployment", "cache_ttl_error"]`) into the user's (`["deployment", "cacheTtlError"]`). */
export function camelSegments(segments: readonly (string | number)[]): (string | number)[] {
  let level: NameLevel | undefined;
  return segments.map((segment, index) => {
    const renamed = typeof segment === "string" && level ? (level.toCamel.get(segment) ?? segment) : segment;
    level =
      typeof segment !== "string" ? undefined : index === 0 && segment === "deployment" ? deploymentNames : level?.nested.get(segment);
    return renamed;
  });
}
