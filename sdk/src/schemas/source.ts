// The Source resource (spec 2.2, 2.3): every field once, with its rule, default and whether it is
// write-only (accepted, never returned) or read-only (returned, never accepted). The create, update
// and response schemas below are all derived from these tables.
import { z } from "zod";
import { isRenderingParameter } from "../rendering-parameters";
import type { Simplify } from "../objects";
import {
  annotationSchema,
  azureAccountSchema,
  azureContainerSchema,
  basicAuthPartSchema,
  cacheTtlErrorSchema,
  cacheTtlValueSchema,
  credentialSchema,
  domainNameSchema,
  expected,
  gcsBucketSchema,
  httpUrlSchema,
  affectsRendering,
  isReadOnly,
  isRenderingField,
  isWriteOnly,
  latin1Key32Schema,
  MAX_HOSTNAMES_PER_SOURCE,
  prefixSchema,
  presenceFlag,
  presenceOf,
  type ReadOnly,
  regionSchema,
  s3BucketSchema,
  sasStringSchema,
  sourceNameSchema,
  subdomainLabelSchema,
  uniqueNames,
  writeOnly,
  type WriteOnly,
} from "./rules";

export const SOURCE_TYPES = ["azure", "gcs", "s3", "webfolder", "webproxy", "s3_compatible"] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export const DEPLOYMENT_STATUSES = ["deploying", "deployed", "disabled", "deleted"] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/** The service's published `storage_provider` values for `s3_compatible`. */
export const STORAGE_PROVIDERS = ["DigitalOcean", "Wasabi", "Linode"] as const;

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: (issue) => (issue.input === undefined ? "is required" : `must be one of ${values.join(", ")}`) });
}

const booleanSchema = z.boolean(expected("true or false"));

const defaultParamValueSchema = z.union([z.string(), z.number(), z.boolean()], {
  error: "must be a string, number or boolean (the value as it would appear in a rendering URL)",
});

export const defaultParamsSchema = z
  .record(z.string(), defaultParamValueSchema, expected("an object of rendering parameters"))
  .superRefine((params, ctx) => {
    for (const key of Object.keys(params)) {
      if (!isRenderingParameter(key)) {
        ctx.addIssue({ code: "custom", path: [key], message: `"${key}" is not a rendering parameter of the URL API` });
      }
    }
  });

const robotsTxt = oneOf(["origin", "allow-all", "disallow-all"]).default("origin");

const TOO_MANY_HOSTNAMES = `must name at most ${MAX_HOSTNAMES_PER_SOURCE} hostnames: a Source has at most ${MAX_HOSTNAMES_PER_SOURCE}, service_subdomains and custom_domains together`;
const HOSTNAMES_MAX = { count: MAX_HOSTNAMES_PER_SOURCE, error: TOO_MANY_HOSTNAMES };

// Fields of every deployment type (spec 2.3, first table).
const commonDeploymentFields = {
  annotation: annotationSchema.optional(), // the server writes a default naming the acting user
  cache_ttl_behavior: affectsRendering(oneOf(["respect_origin", "override_origin", "enforce_minimum"]).default("respect_origin")),
  cache_ttl_error: affectsRendering(cacheTtlErrorSchema.default(300)),
  cache_ttl_value: affectsRendering(cacheTtlValueSchema.default(31_536_000)),
  crossdomain_xml_enabled: booleanSchema.default(false),
  custom_domains: uniqueNames(domainNameSchema, { max: HOSTNAMES_MAX }).default([]),
  default_params: affectsRendering(defaultParamsSchema.default({})),
  image_error: affectsRendering(httpUrlSchema.nullable().default(null)),
  image_error_append_qs: affectsRendering(booleanSchema.default(false)),
  image_missing: affectsRendering(httpUrlSchema.nullable().default(null)),
  image_missing_append_qs: affectsRendering(booleanSchema.default(false)),
  secure_url_enabled: affectsRendering(booleanSchema.default(false)),
  service_subdomains: uniqueNames(subdomainLabelSchema, {
    min: { count: 1, error: "must name at least one subdomain" },
    max: HOSTNAMES_MAX,
  }),
};

/**
 * The deployment fields that hold host names: no two Sources (of any account) may share one,
 * compared case-insensitively.
 */
export const HOSTNAME_FIELDS = ["service_subdomains", "custom_domains"] as const satisfies readonly (keyof typeof commonDeploymentFields)[];
export type HostnameField = (typeof HOSTNAME_FIELDS)[number];

// Credentials the service uses to upload to a storage origin. Only the update example shows this
// object; we accept it on storage types and report its presence through `allows_upload`.
const uploadCredentialsSchema = writeOnly(
  z
    .strictObject(
      {
        type: oneOf(["s3"]),
        s3_access_key: credentialSchema,
        s3_secret_key: credentialSchema,
      },
      expected("an object with type, s3_access_key and s3_secret_key"),
    )
    .nullable()
    .optional(),
);

const storageFields = {
  allows_upload: presenceFlag("upload_credentials"), // uploads need credentials for the origin
  upload_credentials: uploadCredentialsSchema,
  "robots.txt": robotsTxt,
};

// Origin authentication of the web types. A write-only field passed as null is cleared.
const webAuthFields = {
  username: basicAuthPartSchema.nullable().default(null),
  password: writeOnly(basicAuthPartSchema.nullable().optional()),
  password_set: presenceFlag("password"),
  request_handshake: writeOnly(latin1Key32Schema.nullable().optional()),
  request_handshake_set: presenceFlag("request_handshake"),
  request_signing_key: writeOnly(latin1Key32Schema.nullable().optional()),
  request_signing_key_set: presenceFlag("request_signing_key"),
};

/** Each deployment type's fields, keyed by type. The single table the schemas derive from. */
export const deploymentFieldsByType = {
  s3: {
    ...commonDeploymentFields,
    ...storageFields,
    s3_access_key: credentialSchema,
    s3_bucket: s3BucketSchema,
    s3_prefix: prefixSchema.default(null),
    s3_secret_key: writeOnly(credentialSchema),
  },
  gcs: {
    ...commonDeploymentFields,
    ...storageFields,
    gcs_access_key: credentialSchema,
    gcs_bucket: gcsBucketSchema,
    gcs_prefix: prefixSchema.default(null),
    gcs_secret_key: writeOnly(credentialSchema),
  },
  azure: {
    ...commonDeploymentFields,
    ...storageFields,
    azure_account: azureAccountSchema,
    azure_bucket: azureContainerSchema,
    azure_prefix: prefixSchema.default(null),
    azure_sas_string: writeOnly(sasStringSchema),
    azure_service_type: oneOf(["blob", "file"]),
  },
  webfolder: {
    ...commonDeploymentFields,
    ...webAuthFields,
    webfolder_base_url: httpUrlSchema,
    "robots.txt": robotsTxt,
  },
  webproxy: {
    ...commonDeploymentFields,
    ...webAuthFields,
    // A web proxy has no single origin to take robots.txt from.
    "robots.txt": oneOf(["allow-all", "disallow-all"]).default("allow-all"),
  },
  s3_compatible: {
    ...commonDeploymentFields,
    access_key_id: credentialSchema,
    bucket_name: s3BucketSchema,
    endpoint_url: httpUrlSchema,
    region: regionSchema,
    secret_key: writeOnly(credentialSchema),
    storage_provider: oneOf(STORAGE_PROVIDERS),
    "robots.txt": robotsTxt,
  },
} as const satisfies Record<SourceType, z.ZodRawShape>;

type FieldsOf<T extends SourceType> = (typeof deploymentFieldsByType)[T];

/**
 * The names of a type's fields that pass `test`, worked out once per type: the schemas never
 * change, and the provider and server ask for every Source they handle (the metadata lookup is
 * what costs). Callers get their own copy.
 */
function fieldNamesWhere(test: (schema: z.ZodType) => boolean): (type: SourceType) => string[] {
  const byType = new Map<SourceType, readonly string[]>();
  return (type) => {
    let names = byType.get(type);
    if (names === undefined) {
      names = Object.entries<z.ZodType>(deploymentFieldsByType[type])
        .filter(([, schema]) => test(schema))
        .map(([name]) => name);
      byType.set(type, names);
    }
    return [...names];
  };
}

/** Names of a type's write-only fields (secrets): accepted, never returned. */
export const writeOnlyFields: (type: SourceType) => string[] = fieldNamesWhere(isWriteOnly);

/** Names of a type's read-only fields: returned, ignored when sent. */
export const readOnlyFields: (type: SourceType) => string[] = fieldNamesWhere(isReadOnly);

/** Names of a type's fields whose change alters rendering (default params, error and missing images, caching, secure URLs). */
export const renderingFields: (type: SourceType) => string[] = fieldNamesWhere(isRenderingField);

/** A type's read-only flags, each with the write-only field whose presence it reports (declared in the table: presenceFlag). */
export function secretPresenceFlags(type: SourceType): { flag: string; secret: string }[] {
  const fields: Record<string, z.ZodType> = deploymentFieldsByType[type];
  return readOnlyFields(type).flatMap((flag) => {
    const secret = presenceOf(fields[flag]!);
    return secret === undefined ? [] : [{ flag, secret }];
  });
}

/** Write-only fields that a type requires at creation (its secrets without a default). */
export function requiredWriteOnlyFields(type: SourceType): string[] {
  return writeOnlyFields(type).filter(
    (name) => !deploymentFieldsByType[type][name as keyof FieldsOf<SourceType>].safeParse(undefined).success,
  );
}

/**
 * A type's default values by field (the API's names), as parsing fills them in for an absent field:
 * worked out once per type. Callers get their own copy.
 */
export function deploymentDefaults(type: SourceType): Record<string, unknown> {
  let defaults = defaultsByType.get(type);
  if (defaults === undefined) {
    defaults = {};
    for (const [name, schema] of Object.entries<z.ZodType>(deploymentFieldsByType[type])) {
      const filled = schema.safeParse(undefined);
      if (filled.success && filled.data !== undefined) defaults[name] = filled.data;
    }
    defaultsByType.set(type, defaults);
  }
  return structuredClone(defaults);
}
const defaultsByType = new Map<SourceType, Record<string, unknown>>();

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
function fieldAsReturned(schema: z.ZodType): z.ZodType {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType };
  if ((def.type === "default" || def.type === "optional") && def.innerType) return fieldAsReturned(def.innerType);
  return schema;
}

/** A deployment as the API returns it: no write-only field, every read-only one. */
export const deploymentSchema = deploymentUnion(deploymentResponse) as unknown as z.ZodType<Deployment>;

// ---- TypeScript types, derived from the same tables ----

type KeysBranded<S, B> = { [K in keyof S]: S[K] extends B ? K : never }[keyof S];
type ReadOnlyKeys<T extends SourceType> = KeysBranded<FieldsOf<T>, ReadOnly<z.ZodType>>;
type WriteOnlyKeys<T extends SourceType> = KeysBranded<FieldsOf<T>, WriteOnly<z.ZodType>>;
type Writable<T extends SourceType> = z.ZodObject<{ type: z.ZodLiteral<T> } & Omit<FieldsOf<T>, ReadOnlyKeys<T>>>;

/** What a caller sends as `deployment` at creation, for type T. */
export type DeploymentInputOf<T extends SourceType> = Simplify<z.input<Writable<T>>>;
export type DeploymentInput = { [T in SourceType]: DeploymentInputOf<T> }[SourceType];
/** In PATCH, the secrets may be omitted to keep the stored ones. */
export type DeploymentPatchInput = {
  [T in SourceType]: Simplify<
    Omit<DeploymentInputOf<T>, WriteOnlyKeys<T>> &
      Partial<Pick<DeploymentInputOf<T>, Extract<keyof DeploymentInputOf<T>, WriteOnlyKeys<T>>>>
  >;
}[SourceType];
/** A parsed deployment with defaults filled in and secrets included: what the server stores. */
export type DeploymentOutputOf<T extends SourceType> = Simplify<z.output<Writable<T>>>;
export type StoredDeployment = { [T in SourceType]: DeploymentOutputOf<T> }[SourceType];

/** A deployment as the API returns it, for type T. */
export type DeploymentOf<T extends SourceType> = Simplify<
  Omit<DeploymentOutputOf<T>, WriteOnlyKeys<T> | "annotation"> & { annotation: string } & {
    [K in ReadOnlyKeys<T>]: z.output<FieldsOf<T>[K]>;
  }
>;
export type Deployment = { [T in SourceType]: DeploymentOf<T> }[SourceType];

// ---- Source attributes ----

/**
 * A Source's writable attributes besides its deployment (spec 2.2), each once with its rule and
 * its default at creation. The create, PATCH and response schemas below derive from it.
 */
const writableAttributes = {
  name: sourceNameSchema,
  enabled: booleanSchema.default(true),
};

/** The defaults of the writable attributes besides the deployment, as parsing fills them in (`enabled: true`). */
export const WRITABLE_SOURCE_ATTRIBUTE_DEFAULTS: Readonly<Partial<Record<WritableSourceAttribute, unknown>>> = Object.fromEntries(
  Object.entries<z.ZodType>(writableAttributes).flatMap(([name, schema]) => {
    const filled = schema.safeParse(undefined);
    return filled.success && filled.data !== undefined ? [[name, filled.data]] : [];
  }),
);

/** The writable attributes besides the deployment (`name`, `enabled`). */
export const WRITABLE_SOURCE_ATTRIBUTES = z.object(writableAttributes).keyof().options;
export type WritableSourceAttribute = (typeof WRITABLE_SOURCE_ATTRIBUTES)[number];

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

/** A Source's attributes that the API returns and never accepts (spec 2.2), each once. */
const readOnlyAttributes = {
  deployment_status: z.enum(DEPLOYMENT_STATUSES),
  date_deployed: z.int().nullable(),
  /** Present only while secure URLs are on. */
  secure_url_token: z.string().optional(),
};

/** The read-only attributes of a Source (`deployment_status`, `date_deployed`, `secure_url_token`). */
export const READ_ONLY_SOURCE_ATTRIBUTES = z.object(readOnlyAttributes).keyof().options;
export type ReadOnlySourceAttribute = (typeof READ_ONLY_SOURCE_ATTRIBUTES)[number];

// Read-only attributes sent back as received are ignored.
const ignoredReadOnlyAttributes = Object.fromEntries(READ_ONLY_SOURCE_ATTRIBUTES.map((name) => [name, ignoredOnInput])) as Record<
  ReadOnlySourceAttribute,
  typeof ignoredOnInput
>;

/** Attributes of a Source in a create request. */
export const sourceCreateAttributesSchema = z.strictObject(
  {
    ...writableAttributes,
    deployment: deploymentCreateSchema,
    ...ignoredReadOnlyAttributes,
  },
  expected("an object of Source attributes"),
);

/** Attributes of a Source in a PATCH request: every one optional; a deployment replaces the whole object. */
export const sourcePatchAttributesSchema = z.strictObject(
  {
    ...omittable(writableAttributes),
    deployment: deploymentPatchSchema.optional(),
    ...ignoredReadOnlyAttributes,
  },
  expected("an object of Source attributes"),
);

/** Attributes of a Source as returned. */
export const sourceAttributesSchema = z.object({
  ...returned(writableAttributes),
  deployment: deploymentSchema,
  ...readOnlyAttributes,
});

export const sourceIdSchema = z
  .string(expected("a 24-character Source id"))
  .regex(/^[A-Za-z0-9]{24}$/, { error: "must be a 24-character Source id" });

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

export type SourceCreateAttributes = z.input<typeof sourceCreateAttributesSchema>;
export type SourcePatchAttributes = z.input<typeof sourcePatchAttributesSchema>;
export type SourceAttributes = z.output<typeof sourceAttributesSchema>;
export type Source = z.output<typeof sourceSchema>;
/** Attributes of a Source limited by `fields[sources]`. */
export type SelectedSourceAttributes = Partial<Omit<SourceAttributes, "deployment">> & { deployment?: Partial<Deployment> };
export type SelectedSource = { id: string; type: "sources"; attributes: SelectedSourceAttributes };
