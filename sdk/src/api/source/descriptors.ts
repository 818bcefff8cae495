// Plain descriptors of a Source's fields, derived from the field table once: what everyone outside
// the API contract reads to learn about a field (the server's secret handling and flags, the
// provider's names, defaults and secrets, the native plugin's Pulumi schema), so that no one else
// looks inside a zod schema. Each descriptor is plain data: it can be printed, compared, serialized.
import { z } from "zod";
import { isReadOnly, isRenderingField, isSecret, isWriteOnly, presenceOf, presentWhileFlag } from "../rules";
import {
  deploymentFieldsByType,
  readOnlyAttributeFields,
  SOURCE_TYPES,
  writableAttributeFields,
  type ReadOnlySourceAttribute,
  type SourceType,
  type WritableSourceAttribute,
} from "./field-table";

/** The shape of a field's value, as a schema (JSON Schema, Pulumi's) states it. */
export type ValueShape =
  | { type: "string"; enum?: readonly string[] }
  | { type: "integer" }
  | { type: "number" }
  | { type: "boolean" }
  | { type: "array"; items: ValueShape }
  /** An object whose keys are data (`default_params`): every value of the same shape. */
  | { type: "map"; values: ValueShape }
  /** An object with named fields (`upload_credentials`). */
  | { type: "object"; fields: readonly FieldDescriptor[] }
  /** Any one of these (`default_params` values: a string, number or boolean). */
  | { type: "oneOf"; of: readonly ValueShape[] };

export type FieldDescriptor = ValueShape & {
  /** The API's name: `cache_ttl_behavior`, `robots.txt`. */
  apiName: string;
  /** The resource's camelCase name: `cacheTtlBehavior`, `robotsTxt`. */
  name: string;
  /** Whether null is a value (`image_error`, a secret cleared with null). */
  nullable: boolean;
  /** Required at creation: neither optional nor defaulted. */
  required: boolean;
  /** Accepted, never returned (secrets). */
  writeOnly: boolean;
  /** Kept secret wherever it is kept: every write-only field, and a returned credential (`secure_url_token`). */
  secret: boolean;
  /** Returned, never accepted (`deployment_status`, `password_set`). */
  readOnly: boolean;
  /** A change alters how images render (so rendered derivatives may need purging, spec 3.1). */
  affectsRendering: boolean;
  /** For a read-only flag (`password_set`): the write-only field whose presence it reports (`password`). */
  presenceOf?: string;
  /** For a returned attribute present only while a deployment flag is true (`secure_url_token`): that flag (`secure_url_enabled`). */
  presentWhile?: string;
  /** What the API fills in when the field is absent at creation; absent when it fills in nothing. */
  default?: unknown;
  description?: string;
};

/** `cache_ttl_behavior` → `cacheTtlBehavior`, `robots.txt` → `robotsTxt`, `s3_access_key` → `s3AccessKey`. */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S extends `${infer Head}.${infer Tail}`
    ? `${Head}${Capitalize<CamelCase<Tail>>}`
    : S;

/** The resource's name of an API field, by the rule CamelCase states in types (the table's fields looked up, not worked out again). */
export function camelCase<S extends string>(apiName: S): CamelCase<S> {
  return (TABLE_NAMES.get(apiName) ?? camelCaseOf(apiName)) as CamelCase<S>;
}

function camelCaseOf(apiName: string): string {
  return apiName.replace(/[_.]([a-zA-Z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** The descriptor of one field of the table. */
function describeField(apiName: string, schema: z.ZodType): FieldDescriptor {
  let inner: z.ZodType = schema;
  let nullable = false;
  let optional = false;
  let fallback: { value: unknown } | undefined;
  // Wrappers, outermost first: a default, optional, nullable, a preprocess step.
  for (;;) {
    if (inner instanceof z.ZodDefault) {
      fallback = { value: inner.def.defaultValue };
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodOptional) {
      optional = true;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodNullable) {
      nullable = true;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodPipe) {
      inner = inner.out as z.ZodType;
    } else break;
  }
  const description = schema.meta()?.description ?? inner.meta()?.description;
  const secret = presenceOf(schema);
  const whileFlag = presentWhileFlag(schema);
  return {
    ...shapeOf(inner),
    apiName,
    name: camelCaseOf(apiName),
    nullable,
    required: !optional && fallback === undefined && !isReadOnly(schema),
    writeOnly: isWriteOnly(schema),
    secret: isSecret(schema),
    readOnly: isReadOnly(schema),
    affectsRendering: isRenderingField(schema),
    ...(secret !== undefined && { presenceOf: secret }),
    ...(whileFlag !== undefined && { presentWhile: whileFlag }),
    ...(fallback !== undefined && fallback.value !== undefined && { default: fallback.value }),
    ...(description !== undefined && { description }),
  };
}

function shapeOf(schema: z.ZodType): ValueShape {
  if (schema instanceof z.ZodEnum) return { type: "string", enum: schema.options as string[] };
  if (schema instanceof z.ZodLiteral) return { type: "string", enum: [...schema.values].map(String) };
  if (schema instanceof z.ZodString) return { type: "string" };
  if (schema instanceof z.ZodNumber) return schema.isInt ? { type: "integer" } : { type: "number" };
  if (schema instanceof z.ZodBoolean) return { type: "boolean" };
  if (schema instanceof z.ZodArray) return { type: "array", items: shapeOf(schema.element as z.ZodType) };
  if (schema instanceof z.ZodRecord) return { type: "map", values: shapeOf(schema.valueType as z.ZodType) };
  if (schema instanceof z.ZodObject) return { type: "object", fields: describeShape(schema.shape) };
  if (schema instanceof z.ZodUnion) return { type: "oneOf", of: (schema.options as z.ZodType[]).map(shapeOf) };
  if (schema instanceof z.ZodPipe) return shapeOf(schema.out as z.ZodType);
  throw new Error(`the field table holds a schema the descriptors do not describe: ${schema.constructor.name}`);
}

function describeShape(shape: Readonly<Record<string, z.ZodType>>): FieldDescriptor[] {
  return Object.entries(shape).map(([apiName, schema]) => describeField(apiName, schema));
}

/** Descriptors of another object's fields (the provider's own options), made by the same rules as the table's. */
export function describeFields(shape: Readonly<Record<string, z.ZodType>>): readonly FieldDescriptor[] {
  return Object.freeze(describeShape(shape));
}

const DEPLOYMENT_FIELDS: Readonly<Record<SourceType, readonly FieldDescriptor[]>> = Object.fromEntries(
  SOURCE_TYPES.map((type) => [
    type,
    Object.freeze([
      // The discriminator: which fields exist.
      {
        type: "string",
        enum: [type],
        apiName: "type",
        name: "type",
        nullable: false,
        required: true,
        writeOnly: false,
        secret: false,
        readOnly: false,
        affectsRendering: false,
        description: `Where the images come from: ${SOURCE_TYPES.join(", ")}. It decides which other fields exist.`,
      },
      ...describeShape(deploymentFieldsByType[type]),
    ] satisfies FieldDescriptor[]),
  ]),
) as Record<SourceType, readonly FieldDescriptor[]>;

/** The camelCase name of every field of the table, nested ones included. */
const TABLE_NAMES: ReadonlyMap<string, string> = new Map(
  [...SOURCE_TYPES.flatMap((type) => DEPLOYMENT_FIELDS[type]), ...describeShape({ ...writableAttributeFields, ...readOnlyAttributeFields })]
    .flatMap((field) => [field, ...(field.type === "object" ? field.fields : [])])
    .map((field) => [field.apiName, field.name]),
);

/** A type's deployment fields, `type` first, in the table's order. */
export function deploymentFieldDescriptors(type: SourceType): readonly FieldDescriptor[] {
  return DEPLOYMENT_FIELDS[type];
}

/** The Source's attributes besides its deployment: the writable ones (`name`, `enabled`), then the read-only ones. */
export const sourceAttributeDescriptors: readonly FieldDescriptor[] = Object.freeze([
  ...describeShape(writableAttributeFields),
  ...describeShape(readOnlyAttributeFields).map((field) => ({ ...field, readOnly: true, required: false })),
]);

/** The Source's attributes whose value is secret wherever it is kept (`secure_url_token`): marked in the table. */
export const SECRET_SOURCE_ATTRIBUTES: readonly string[] = Object.freeze(
  sourceAttributeDescriptors.filter((field) => field.secret).map((field) => field.apiName),
);

/**
 * The deployment flag (API name) a returned attribute is present only while (`secure_url_token`:
 * `secure_url_enabled`), as marked in the table; undefined for an attribute always present.
 */
export function attributePresentWhile(attribute: ReadOnlySourceAttribute): string | undefined {
  return sourceAttributeDescriptors.find((field) => field.apiName === attribute)?.presentWhile;
}

/** Every deployment field (API name), with the types it belongs to. */
export const deploymentFieldTypes: ReadonlyMap<string, readonly SourceType[]> = new Map(
  [...new Set(SOURCE_TYPES.flatMap((type) => DEPLOYMENT_FIELDS[type].map((field) => field.apiName)))].map((apiName) => [
    apiName,
    SOURCE_TYPES.filter((type) => DEPLOYMENT_FIELDS[type].some((field) => field.apiName === apiName)),
  ]),
);

const namesWhere = (type: SourceType, test: (field: FieldDescriptor) => boolean) =>
  DEPLOYMENT_FIELDS[type].filter(test).map((field) => field.apiName);

/** Names of a type's write-only fields (secrets): accepted, never returned. Callers get their own copy. */
export function writeOnlyFields(type: SourceType): string[] {
  return namesWhere(type, (field) => field.writeOnly);
}

/** Names of a type's read-only fields: returned, ignored when sent. */
export function readOnlyFields(type: SourceType): string[] {
  return namesWhere(type, (field) => field.readOnly);
}

/** Names of a type's fields whose change alters rendering (default params, error and missing images, caching, secure URLs). */
export function renderingFields(type: SourceType): string[] {
  return namesWhere(type, (field) => field.affectsRendering);
}

/** Write-only fields that a type requires at creation (its secrets without a default). */
export function requiredWriteOnlyFields(type: SourceType): string[] {
  return namesWhere(type, (field) => field.writeOnly && field.required);
}

/** A type's read-only flags, each with the write-only field whose presence it reports (declared in the table: presenceFlag). */
export function secretPresenceFlags(type: SourceType): { flag: string; secret: string }[] {
  return DEPLOYMENT_FIELDS[type].flatMap((field) =>
    field.presenceOf === undefined ? [] : [{ flag: field.apiName, secret: field.presenceOf }],
  );
}

/**
 * Whether a deployment as the API returns it holds a write-only field, where the API says so: yes
 * for one its type requires (a Source cannot lack it), its presence flag (`password_set`) for one
 * that has a flag, undefined where the API does not say (a field it does not report).
 */
export function holdsSecret(deployment: { readonly type: SourceType }, field: string): boolean | undefined {
  if (requiredWriteOnlyFields(deployment.type).includes(field)) return true;
  const flag = secretPresenceFlags(deployment.type).find(({ secret }) => secret === field)?.flag;
  return flag === undefined ? undefined : (deployment as Readonly<Record<string, unknown>>)[flag] === true;
}

/** Whether a value is one of the API's deployment types. */
export function isSourceType(value: unknown): value is SourceType {
  return (SOURCE_TYPES as readonly unknown[]).includes(value);
}

/** Every deployment field that is write-only in some type (a deployment whose type is not known yet may have any). */
export const WRITE_ONLY_DEPLOYMENT_FIELDS: ReadonlySet<string> = new Set(SOURCE_TYPES.flatMap((type) => writeOnlyFields(type)));

/** Every deployment field kept secret in some type: the table's `secret` mark (every write-only field). */
export const SECRET_DEPLOYMENT_FIELDS: ReadonlySet<string> = new Set(
  SOURCE_TYPES.flatMap((type) => namesWhere(type, (field) => field.secret)),
);

/** Every deployment field that is read-only in some type (`password_set`, `allows_upload`). */
export const READ_ONLY_DEPLOYMENT_FIELDS: ReadonlySet<string> = new Set(SOURCE_TYPES.flatMap((type) => readOnlyFields(type)));

/** Every read-only flag that reports whether a write-only field is stored (`password_set`), in some type. */
export const PRESENCE_FLAG_FIELDS: ReadonlySet<string> = new Set(
  SOURCE_TYPES.flatMap((type) => secretPresenceFlags(type).map(({ flag }) => flag)),
);

/** A type's default values by field (the API's names), as parsing fills them in for an absent field. Callers get their own copy. */
export function deploymentDefaults(type: SourceType): Record<string, unknown> {
  return structuredClone(
    Object.fromEntries(DEPLOYMENT_FIELDS[type].filter((field) => "default" in field).map((field) => [field.apiName, field.default])),
  );
}

/** The defaults of the writable attributes besides the deployment, as parsing fills them in (`enabled: true`). */
export const WRITABLE_SOURCE_ATTRIBUTE_DEFAULTS: Readonly<Partial<Record<WritableSourceAttribute, unknown>>> = Object.fromEntries(
  sourceAttributeDescriptors.filter((field) => "default" in field).map((field) => [field.apiName, field.default]),
);
