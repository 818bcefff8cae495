// The request and response documents' schemas of a Source, derived from the field table: what a
// create, a PATCH and a response may hold, and a response limited by `fields[sources]`.
import { z } from "zod";
import { expected, isReadOnly, isWriteOnly, MAX_HOSTNAMES_PER_SOURCE, type ReadOnly, type WriteOnly } from "../rules";
import {
  deploymentFieldsByType,
  readOnlyAttributeFields,
  READ_ONLY_SOURCE_ATTRIBUTES,
  SOURCE_TYPES,
  sourceIdSchema,
  TOO_MANY_HOSTNAMES,
  writableAttributeFields,
  type FieldsOf,
  type ReadOnlySourceAttribute,
  type SourceType,
} from "./field-table";
import type { Deployment, DeploymentInput, DeploymentPatchInput, StoredDeployment } from "./deployment-types";

// Read-only fields may be sent back as received (a GET, edited, then PATCHed); they are dropped.
const ignoredOnInput = z
  .unknown()
  .optional()
  .transform(() => undefined);

/** A deployment field as a create takes it, or a PATCH (`Relaxed`): read-only ones ignored, write-only ones optional in a PATCH. */
type InputField<S, Relaxed extends boolean> =
  S extends ReadOnly<z.ZodType>
    ? typeof ignoredOnInput
    : Relaxed extends true
      ? S extends WriteOnly<z.ZodType>
        ? z.ZodOptional<S>
        : S
      : S;

function deploymentInput<T extends SourceType, Relaxed extends boolean>(type: T, relaxSecrets: Relaxed) {
  const fields = Object.entries<z.ZodType>(deploymentFieldsByType[type]).map(([name, schema]) => {
    const asTaken = isReadOnly(schema) ? ignoredOnInput : relaxSecrets && isWriteOnly(schema) ? schema.optional() : schema;
    return [name, asTaken] as const;
  });
  // Object.fromEntries loses the names (TypeScript types it a string record): the table's restore them.
  const shape = Object.fromEntries(fields) as { [K in keyof FieldsOf<T>]: InputField<FieldsOf<T>[K], Relaxed> };
  // Each list is bounded on its own (stated in the OpenAPI document); this bounds the two together.
  return z.strictObject({ type: z.literal(type), ...shape }).superRefine((deployment, ctx) => {
    const { service_subdomains: subdomains = [], custom_domains: domains = [] } = deployment as {
      service_subdomains?: string[];
      custom_domains?: string[];
    };
    const total = subdomains.length + domains.length;
    if (total > MAX_HOSTNAMES_PER_SOURCE)
      ctx.addIssue({ code: "custom", path: ["custom_domains"], message: `${TOO_MANY_HOSTNAMES} (${total} given)` });
  });
}

function deploymentUnion<O extends z.ZodObject>(members: O[]) {
  const [first, ...rest] = members;
  return z.discriminatedUnion("type", [first!, ...rest], {
    error: (issue) =>
      issue.input === undefined
        ? "is required"
        : issue.code === "invalid_union"
          ? `must be one of ${SOURCE_TYPES.join(", ")}`
          : `must be an object whose type is one of ${SOURCE_TYPES.join(", ")}`,
  });
}

// The deployment schemas' types. `SOURCE_TYPES.map` types every type's member alike (TypeScript maps
// no tuple element by element), which the union could not narrow by `type`: the casts of the
// members restate each one's own type (distributive over SourceType), a cast TypeScript checks only
// for overlap. Each schema is then declared with its type from types.ts, which the compiler checks.
type InputMember<T extends SourceType, Relaxed extends boolean> = T extends SourceType
  ? ReturnType<typeof deploymentInput<T, Relaxed>>
  : never;

/** A complete deployment as sent at creation. Parsing fills in the defaults. */
export const deploymentCreateSchema: z.ZodType<StoredDeployment, DeploymentInput> = deploymentUnion(
  SOURCE_TYPES.map((type) => deploymentInput(type, false)) as InputMember<SourceType, false>[],
);

/**
 * A deployment sent in PATCH: complete, but its write-only secrets may be omitted to keep the
 * stored ones (they cannot be read back). The server requires them when the type changes.
 */
export const deploymentPatchSchema: z.ZodType<Partial<StoredDeployment> & Pick<StoredDeployment, "type">, DeploymentPatchInput> =
  deploymentUnion(SOURCE_TYPES.map((type) => deploymentInput(type, true)) as InputMember<SourceType, true>[]);

/** A returned field's schema: always present, its default being the value. */
type Returned<S> = S extends z.ZodDefault<infer Inner> | z.ZodOptional<infer Inner> ? Returned<Inner> : S;
/** Type T's fields that the API returns (not write-only), as returned. */
type ReturnedFields<T extends SourceType> = {
  [K in keyof FieldsOf<T> as FieldsOf<T>[K] extends WriteOnly<z.ZodType> ? never : K]: Returned<FieldsOf<T>[K]>;
};

function deploymentResponse<T extends SourceType>(type: T) {
  const fields = Object.entries<z.ZodType>(deploymentFieldsByType[type])
    .filter(([, schema]) => !isWriteOnly(schema))
    .map(([name, schema]) => [name, fieldAsReturned(schema)] as const);
  // Object.fromEntries loses the names (TypeScript types it a string record): the table's restore them.
  const shape = Object.fromEntries(fields) as ReturnedFields<T>;
  return z.object({ type: z.literal(type), ...shape, annotation: z.string() });
}

/** A returned field is always present: its default is the value, never the absence. */
export function fieldAsReturned(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional) return fieldAsReturned(schema.unwrap() as z.ZodType);
  return schema;
}

type ResponseMember<T extends SourceType> = T extends SourceType ? ReturnType<typeof deploymentResponse<T>> : never;

/** A deployment as the API returns it: no write-only field, every read-only one. */
export const deploymentSchema: z.ZodType<Deployment> = deploymentUnion(
  SOURCE_TYPES.map(deploymentResponse) as ResponseMember<SourceType>[],
);

type WithoutDefault<S> = S extends z.ZodDefault<infer Inner> ? Inner : S;
function withoutDefault<S extends z.ZodType>(schema: S): WithoutDefault<S> {
  return (schema instanceof z.ZodDefault ? schema.unwrap() : schema) as WithoutDefault<S>;
}

/** Each attribute of `shape` as a PATCH takes it: optional, and no default (an omitted attribute keeps its value). */
function omittable<S extends Record<string, z.ZodType>>(shape: S) {
  return Object.fromEntries(Object.entries(shape).map(([name, schema]) => [name, withoutDefault(schema).optional()])) as {
    [K in keyof S]: z.ZodOptional<WithoutDefault<S[K]>>;
  };
}

/** Each attribute of `shape` as returned: always present, its default being the value. */
function returned<S extends Record<string, z.ZodType>>(shape: S) {
  return Object.fromEntries(Object.entries(shape).map(([name, schema]) => [name, fieldAsReturned(schema)])) as {
    [K in keyof S]: WithoutDefault<S[K]>;
  };
}

// Read-only attributes sent back as received are ignored.
const ignoredReadOnlyAttributes = Object.fromEntries(READ_ONLY_SOURCE_ATTRIBUTES.map((name) => [name, ignoredOnInput])) as Record<
  ReadOnlySourceAttribute,
  typeof ignoredOnInput
>;

/** Attributes of a Source in a create request. */
export const sourceCreateAttributesSchema = z.strictObject(
  {
    ...writableAttributeFields,
    deployment: deploymentCreateSchema,
    ...ignoredReadOnlyAttributes,
  },
  expected("an object of Source attributes"),
);

/** Attributes of a Source in a PATCH request: every one optional; a deployment replaces the whole object. */
export const sourcePatchAttributesSchema = z.strictObject(
  {
    ...omittable(writableAttributeFields),
    deployment: deploymentPatchSchema.optional(),
    ...ignoredReadOnlyAttributes,
  },
  expected("an object of Source attributes"),
);

/** Attributes of a Source as returned. */
export const sourceAttributesSchema = z.object({
  ...returned(writableAttributeFields),
  deployment: deploymentSchema,
  ...readOnlyAttributeFields,
});

/** The names of `schema`'s members for which `holds` is true of their schema, in its order. */
function membersWhere(schema: z.ZodObject, holds: (member: z.ZodType) => boolean): readonly string[] {
  return Object.freeze(Object.keys(schema.shape).filter((name) => holds(schema.shape[name] as z.ZodType)));
}

// zod's own test of a member's optionality: whether an absent (or null) value parses.
const absentParses = (member: z.ZodType) => member.safeParse(undefined).success;
const nullParses = (member: z.ZodType) => member.safeParse(null).success;

/** The members of an object schema a value must give: neither optional nor defaulted (an absent value does not parse). */
export function requiredMembers(schema: z.ZodObject): readonly string[] {
  return membersWhere(schema, (member) => !absentParses(member));
}

/** The attributes a create must give: neither optional nor defaulted (`name`, `deployment`). */
export const REQUIRED_SOURCE_CREATE_ATTRIBUTES = requiredMembers(sourceCreateAttributesSchema);

/** The attributes every returned Source holds, with a value (`name`, `enabled`, `deployment`, `deployment_status`). */
export const ALWAYS_RETURNED_SOURCE_ATTRIBUTES = membersWhere(
  sourceAttributesSchema,
  (member) => !absentParses(member) && !nullParses(member),
);

export const sourceSchema = z.object({
  id: sourceIdSchema,
  type: z.literal("sources"),
  attributes: sourceAttributesSchema,
});

/**
 * A returned deployment when `fields` selects some of its members: any returned field of any type,
 * each optional, each still obeying its rule. (The first type listing a field gives its rule, so
 * `robots.txt` keeps its widest set of values.)
 */
// The returned fields of every type: their names (of any type), and each name's schemas (of the types that have it).
type AnyTypeFields = { [T in SourceType]: ReturnedFields<T> }[SourceType];
type NamesOfEach<U> = U extends unknown ? keyof U : never;
type SchemaOfEach<U, K extends PropertyKey> = U extends { [P in K]: infer S } ? S : never;
type SelectedDeploymentShape = {
  [K in Exclude<NamesOfEach<AnyTypeFields>, "type" | "annotation">]: z.ZodOptional<SchemaOfEach<AnyTypeFields, K>>;
};

function selectedDeploymentSchema() {
  const fields = new Map<string, z.ZodType>();
  for (const type of SOURCE_TYPES) {
    for (const [name, schema] of Object.entries<z.ZodType>(deploymentFieldsByType[type])) {
      if (!isWriteOnly(schema) && name !== "annotation" && !fields.has(name)) fields.set(name, fieldAsReturned(schema).optional());
    }
  }
  // Object.fromEntries loses the names (TypeScript types it a string record): the table's restore them.
  const shape = Object.fromEntries(fields) as SelectedDeploymentShape;
  return z.object({ type: z.enum(SOURCE_TYPES).optional(), annotation: z.string().optional(), ...shape });
}

/** A Source as returned for a request with `fields[sources]`: only the selected attributes are present. */
export const selectedSourceSchema = z.object({
  id: sourceIdSchema,
  type: z.literal("sources"),
  attributes: sourceAttributesSchema.omit({ deployment: true }).partial().extend({ deployment: selectedDeploymentSchema().optional() }),
});
