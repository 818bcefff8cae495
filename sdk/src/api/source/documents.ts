// The request and response documents' schemas of a Source, derived from the field table: what a
// create, a PATCH and a response may hold, and a response limited by `fields[sources]`.
import { z } from "zod";
import { expected, isReadOnly, isWriteOnly, MAX_HOSTNAMES_PER_SOURCE } from "../rules";
import {
  deploymentFieldsByType,
  readOnlyAttributeFields,
  READ_ONLY_SOURCE_ATTRIBUTES,
  SOURCE_TYPES,
  sourceIdSchema,
  TOO_MANY_HOSTNAMES,
  writableAttributeFields,
  type ReadOnlySourceAttribute,
  type SourceType,
} from "./field-table";
import type { Deployment, DeploymentInput, DeploymentPatchInput, SelectedSource, StoredDeployment } from "./types";

// Read-only fields may be sent back as received (a GET, edited, then PATCHed); they are dropped.
const ignoredOnInput = z
  .unknown()
  .optional()
  .transform(() => undefined);

function deploymentInput(type: SourceType, relaxSecrets: boolean) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, schema] of Object.entries<z.ZodType>(deploymentFieldsByType[type])) {
    shape[name] = isReadOnly(schema) ? ignoredOnInput : relaxSecrets && isWriteOnly(schema) ? schema.optional() : schema;
  }
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

function deploymentUnion(member: (type: SourceType) => z.ZodObject) {
  const [first, ...rest] = SOURCE_TYPES.map(member);
  return z.discriminatedUnion("type", [first!, ...rest], {
    error: (issue) =>
      issue.input === undefined
        ? "is required"
        : issue.code === "invalid_union"
          ? `must be one of ${SOURCE_TYPES.join(", ")}`
          : `must be an object whose type is one of ${SOURCE_TYPES.join(", ")}`,
  });
}

/** A complete deployment as sent at creation. Parsing fills in the defaults. */
export const deploymentCreateSchema = deploymentUnion((type) => deploymentInput(type, false)) as unknown as z.ZodType<
  StoredDeployment,
  DeploymentInput
>;

/**
 * A deployment sent in PATCH: complete, but its write-only secrets may be omitted to keep the
 * stored ones (they cannot be read back). The server requires them when the type changes.
 */
export const deploymentPatchSchema = deploymentUnion((type) => deploymentInput(type, true)) as unknown as z.ZodType<
  Partial<StoredDeployment> & Pick<StoredDeployment, "type">,
  DeploymentPatchInput
>;

function deploymentResponse(type: SourceType) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, schema] of Object.entries<z.ZodType>(deploymentFieldsByType[type])) {
    if (!isWriteOnly(schema)) shape[name] = fieldAsReturned(schema);
  }
  return z.object({ type: z.literal(type), ...shape, annotation: z.string() });
}

/** A returned field is always present: its default is the value, never the absence. */
export function fieldAsReturned(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional) return fieldAsReturned(schema.unwrap() as z.ZodType);
  return schema;
}

/** A deployment as the API returns it: no write-only field, every read-only one. */
export const deploymentSchema = deploymentUnion(deploymentResponse) as unknown as z.ZodType<Deployment>;

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
function selectedDeploymentSchema() {
  const shape: Record<string, z.ZodType> = { type: z.enum(SOURCE_TYPES).optional(), annotation: z.string().optional() };
  for (const type of SOURCE_TYPES) {
    for (const [name, schema] of Object.entries<z.ZodType>(deploymentFieldsByType[type])) {
      if (!isWriteOnly(schema) && !(name in shape)) shape[name] = fieldAsReturned(schema).optional();
    }
  }
  return z.object(shape);
}

/** A Source as returned for a request with `fields[sources]`: only the selected attributes are present. */
export const selectedSourceSchema = z.object({
  id: sourceIdSchema,
  type: z.literal("sources"),
  attributes: sourceAttributesSchema.omit({ deployment: true }).partial().extend({ deployment: selectedDeploymentSchema().optional() }),
}) as unknown as z.ZodType<SelectedSource>;
