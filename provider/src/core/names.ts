// The one mapping between the API's field names (`cache_ttl_behavior`, `robots.txt`) and the
// Pulumi-idiomatic camelCase names of the Source resource (`cacheTtlBehavior`, `robotsTxt`).
// Derived mechanically from the sdk's `deploymentFieldsByType`: no field is listed here.
import { deploymentFieldsByType, isPlainObject, SOURCE_TYPES, type DeploymentInput } from "@asset-delivery/sdk";

/** `cache_ttl_behavior` → `cacheTtlBehavior`, `robots.txt` → `robotsTxt`, `s3_access_key` → `s3AccessKey`. */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S extends `${infer Head}.${infer Tail}`
    ? `${Head}${Capitalize<CamelCase<Tail>>}`
    : S;

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

// API names are a small, fixed set, renamed for every Source a refresh reads: remembered once.
const camelNames = new Map<string, string>();
const MAX_REMEMBERED_NAMES = 10_000;

export function camelCase<S extends string>(apiName: S): CamelCase<S> {
  let camel = camelNames.get(apiName);
  if (camel === undefined) {
    camel = apiName.replace(/[_.]([a-zA-Z0-9])/g, (_, letter: string) => letter.toUpperCase());
    if (camelNames.size < MAX_REMEMBERED_NAMES) camelNames.set(apiName, camel);
  }
  // Renamed at run time by the rule CamelCase states in types.
  return camel as CamelCase<S>;
}

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

/** The reverse of camelMembers: the members `names` (the API's names) of an object with the resource's names. */
export function apiMembers<T extends object, K extends keyof T & string>(from: CamelNamed<Pick<T, K>>, names: readonly K[]): Pick<T, K> {
  const renamed: Readonly<Record<string, unknown>> = from;
  const members: Record<string, unknown> = {};
  for (const name of names) if (renamed[camelCase(name)] !== undefined) members[name] = renamed[camelCase(name)];
  // Keys renamed at run time, by the rule CamelNamed states in types.
  return members as Pick<T, K>;
}

/** The names of one object level, both ways, and the levels of the objects nested in it. */
export interface NameLevel {
  toCamel: ReadonlyMap<string, string>;
  toApi: ReadonlyMap<string, string>;
  /** Keyed by API name: fields whose value is itself an object with named fields. */
  nested: ReadonlyMap<string, NameLevel>;
}

interface ZodLike {
  _zod: { def: { type: string; innerType?: ZodLike; shape?: Record<string, ZodLike> } };
}

/** The fields of an object schema, looking through optional, nullable and default wrappers. */
function objectShapeOf(schema: ZodLike): Record<string, ZodLike> | undefined {
  const def = schema._zod.def;
  if (def.type === "object") return def.shape;
  return def.innerType ? objectShapeOf(def.innerType) : undefined;
}

function levelOf(shapes: readonly Record<string, ZodLike>[]): NameLevel {
  const toCamel = new Map<string, string>();
  const toApi = new Map<string, string>();
  const nestedShapes = new Map<string, Record<string, ZodLike>[]>();
  for (const shape of shapes) {
    for (const [apiName, schema] of Object.entries(shape)) {
      const camel = camelCase(apiName);
      const taken = toApi.get(camel);
      if (taken !== undefined && taken !== apiName) throw new Error(`API fields ${taken} and ${apiName} would both be called ${camel}`);
      toCamel.set(apiName, camel);
      toApi.set(camel, apiName);
      const inner = objectShapeOf(schema);
      if (inner) nestedShapes.set(apiName, [...(nestedShapes.get(apiName) ?? []), inner]);
    }
  }
  const nested = new Map([...nestedShapes].map(([apiName, inner]) => [apiName, levelOf(inner)]));
  return { toCamel, toApi, nested };
}

/** Every deployment field of every type (plus `type`), with the objects nested in them. */
export const deploymentNames: NameLevel = levelOf([
  { type: { _zod: { def: { type: "literal" } } } },
  ...SOURCE_TYPES.map((type) => deploymentFieldsByType[type] as unknown as Record<string, ZodLike>),
]);

/** A deployment object with its keys (and those of its nested objects) renamed one way or the other. */
export function renameDeployment(deployment: Record<string, unknown>, direction: "toCamel" | "toApi"): Record<string, unknown> {
  return renameKeys(deployment, deploymentNames, direction);
}

/**
 * A declared deployment (the resource's names, its secrets merged back in) under the API's names,
 * as the API takes it: `check` parsed it with the sdk's schema, and the renaming changes no value.
 */
export function apiDeployment(deployment: Record<string, unknown>): DeploymentInput {
  // Keys renamed at run time by the field table's own names, which the sdk's types are made of.
  return renameDeployment(deployment, "toApi") as DeploymentInput;
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
