// The field table of a Source (spec 2.2, 2.3): every field once, with its rule, its default and
// whether it is write-only (accepted, never returned) or read-only (returned, never accepted). The
// request and response schemas (documents.ts), the TypeScript types (types.ts) and the plain field
// descriptors everyone else reads (descriptors.ts) all derive from these tables.
import { z } from "zod";
import { isRenderingParameter } from "../../rendering-parameters";
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
  latin1Key32Schema,
  MAX_HOSTNAMES_PER_SOURCE,
  prefixSchema,
  presenceFlag,
  regionSchema,
  s3BucketSchema,
  sasStringSchema,
  sourceNameSchema,
  subdomainLabelSchema,
  uniqueNames,
  writeOnly,
} from "../rules";

export const SOURCE_TYPES = ["azure", "gcs", "s3", "webfolder", "webproxy", "s3_compatible"] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export const DEPLOYMENT_STATUSES = ["deploying", "deployed", "disabled", "deleted"] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/** The service's published `storage_provider` values for `s3_compatible`. */
export const STORAGE_PROVIDERS = ["DigitalOcean", "Wasabi", "Linode"] as const;

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
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

export const TOO_MANY_HOSTNAMES = `must name at most ${MAX_HOSTNAMES_PER_SOURCE} hostnames: a Source has at most ${MAX_HOSTNAMES_PER_SOURCE}, service_subdomains and custom_domains together`;
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

export type FieldsOf<T extends SourceType> = (typeof deploymentFieldsByType)[T];

/**
 * A Source's writable attributes besides its deployment (spec 2.2), each once with its rule and
 * its default at creation.
 */
export const writableAttributeFields = {
  name: sourceNameSchema,
  enabled: booleanSchema.default(true),
};

/** The writable attributes besides the deployment (`name`, `enabled`). */
export const WRITABLE_SOURCE_ATTRIBUTES = z.object(writableAttributeFields).keyof().options;
export type WritableSourceAttribute = (typeof WRITABLE_SOURCE_ATTRIBUTES)[number];

/** A Source's attributes that the API returns and never accepts (spec 2.2), each once. */
export const readOnlyAttributeFields = {
  deployment_status: z.enum(DEPLOYMENT_STATUSES),
  date_deployed: z.int().nullable(),
  /** Present only while secure URLs are on. */
  secure_url_token: z.string().optional(),
};

/** The read-only attributes of a Source (`deployment_status`, `date_deployed`, `secure_url_token`). */
export const READ_ONLY_SOURCE_ATTRIBUTES = z.object(readOnlyAttributeFields).keyof().options;
export type ReadOnlySourceAttribute = (typeof READ_ONLY_SOURCE_ATTRIBUTES)[number];

export const sourceIdSchema = z
  .string(expected("a 24-character Source id"))
  .regex(/^[A-Za-z0-9]{24}$/, { error: "must be a 24-character Source id" });
