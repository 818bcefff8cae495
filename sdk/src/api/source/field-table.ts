// The field table of a Source (spec 2.2, 2.3): every field once, with its rule, its default and
// whether it is write-only (accepted, never returned) or read-only (returned, never accepted). The
// request and response schemas (documents.ts), the TypeScript types (types.ts) and the plain field
// descriptors everyone else reads (descriptors.ts) all derive from these tables.
import { z } from "zod";
import { isRenderingParameter, renderingParameterNames } from "../../rendering-parameters";
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
  presentWhile,
  regionSchema,
  s3BucketSchema,
  sasStringSchema,
  secret,
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

/** A field's description (spec 2.2, 2.3), for the documents and schemas made from the table. */
function described<T extends z.ZodType>(description: string, schema: T): T {
  return schema.meta({ ...schema.meta(), description });
}

const prefixField = () => described("Folder prefix prepended to the image path; null for none.", prefixSchema.default(null));
/** A nullable write-only field: that it is never returned is its `writeOnly` mark, which every reader states. */
const NULL_CLEARS = "Null clears it.";

const defaultParamValueSchema = z.union([z.string(), z.number(), z.boolean()], {
  error: "must be a string, number or boolean (the value as it would appear in a rendering URL)",
});

/** Every key `default_params` accepts (names, aliases and their base64 variants): the rule below, stated in the documents. */
const RENDERING_KEYS = [...renderingParameterNames]
  .flatMap((name) => [name, `${name}64`])
  .filter(isRenderingParameter)
  .sort();

export const defaultParamsSchema = z
  .record(z.string(), defaultParamValueSchema, expected("an object of rendering parameters"))
  .superRefine((params, ctx) => {
    for (const key of Object.keys(params)) {
      if (!isRenderingParameter(key)) {
        ctx.addIssue({ code: "custom", path: [key], message: `"${key}" is not a rendering parameter of the URL API` });
      }
    }
  })
  .meta({ propertyNames: { enum: RENDERING_KEYS } });

const robotsTxt = described(
  "What /robots.txt answers: the origin's (origin), allow-all or disallow-all.",
  oneOf(["origin", "allow-all", "disallow-all"]).default("origin"),
);

export const TOO_MANY_HOSTNAMES = `must name at most ${MAX_HOSTNAMES_PER_SOURCE} hostnames: a Source has at most ${MAX_HOSTNAMES_PER_SOURCE}, service_subdomains and custom_domains together`;
const HOSTNAMES_MAX = { count: MAX_HOSTNAMES_PER_SOURCE, error: TOO_MANY_HOSTNAMES };

// Fields of every deployment type (spec 2.3, first table).
const commonDeploymentFields = {
  // The server writes a default naming the acting user.
  annotation: described(
    "Comment on the deployment. Default: a text the service generates naming the acting user.",
    annotationSchema.optional(),
  ),
  cache_ttl_behavior: described(
    "How the TTL applies: respect_origin, override_origin or enforce_minimum.",
    affectsRendering(oneOf(["respect_origin", "override_origin", "enforce_minimum"]).default("respect_origin")),
  ),
  cache_ttl_error: described(
    "Seconds: TTL of the error image served when a file cannot be fetched from the origin (1 to 31536000).",
    affectsRendering(cacheTtlErrorSchema.default(300)),
  ),
  cache_ttl_value: described(
    "Seconds: the TTL the cache TTL behavior uses (1800 to 31536000).",
    affectsRendering(cacheTtlValueSchema.default(31_536_000)),
  ),
  crossdomain_xml_enabled: described("Whether a cross-domain policy file is served when requested.", booleanSchema.default(false)),
  custom_domains: described(
    "Domains other than the service's delivery domain; each unique across all Sources.",
    uniqueNames(domainNameSchema, { max: HOSTNAMES_MAX }).default([]),
  ),
  default_params: described(
    "Rendering parameters applied to every request of this Source: parameter name to value.",
    affectsRendering(defaultParamsSchema.default({})),
  ),
  image_error: described(
    "Absolute URL of an image served when a request results in an error; null for none.",
    affectsRendering(httpUrlSchema.nullable().default(null)),
  ),
  image_error_append_qs: described(
    "Whether the request's query parameters are passed to the error image's URL.",
    affectsRendering(booleanSchema.default(false)),
  ),
  image_missing: described(
    "Absolute URL of an image served when the requested image is missing; null for none.",
    affectsRendering(httpUrlSchema.nullable().default(null)),
  ),
  image_missing_append_qs: described(
    "Whether the request's query parameters are passed to the missing image's URL.",
    affectsRendering(booleanSchema.default(false)),
  ),
  secure_url_enabled: described(
    "Whether requests must be signed with the Source's secure URL token.",
    affectsRendering(booleanSchema.default(false)),
  ),
  service_subdomains: described(
    'Subdomain labels on the service\'s delivery domain ("foo" for foo.<delivery domain>): at least one, each unique across all Sources.',
    uniqueNames(subdomainLabelSchema, {
      min: { count: 1, error: "must name at least one subdomain" },
      max: HOSTNAMES_MAX,
    }),
  ),
};

/**
 * The deployment fields that hold host names: no two Sources (of any account) may share one,
 * compared case-insensitively.
 */
export const HOSTNAME_FIELDS = ["service_subdomains", "custom_domains"] as const satisfies readonly (keyof typeof commonDeploymentFields)[];
export type HostnameField = (typeof HOSTNAME_FIELDS)[number];

// Credentials the service uses to upload to a storage origin. Only the update example shows this
// object; we accept it on storage types and report its presence through `allows_upload`.
const uploadCredentialsSchema = described(
  "Credentials the service uses to upload to the storage origin. Null clears them.",
  writeOnly(
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
  ),
);

const storageFields = {
  // Uploads need credentials for the origin.
  allows_upload: described(
    "Whether the service may upload to the origin (upload credentials are set).",
    presenceFlag("upload_credentials"),
  ),
  upload_credentials: uploadCredentialsSchema,
  "robots.txt": robotsTxt,
};

// Origin authentication of the web types. A write-only field passed as null is cleared.
const webAuthFields = {
  username: described(
    'Basic authentication toward the origin: the user name (no ":" or control characters); null for none.',
    basicAuthPartSchema.nullable().default(null),
  ),
  password: described(
    `Basic authentication toward the origin: the password. ${NULL_CLEARS}`,
    writeOnly(basicAuthPartSchema.nullable().optional()),
  ),
  password_set: described("Whether a password is set.", presenceFlag("password")),
  request_handshake: described(
    `32 latin-1 characters the service sends in a header to authenticate to the origin. ${NULL_CLEARS}`,
    writeOnly(latin1Key32Schema.nullable().optional()),
  ),
  request_handshake_set: described("Whether a request handshake is set.", presenceFlag("request_handshake")),
  request_signing_key: described(
    `32 latin-1 characters with which the service signs each request to the origin. ${NULL_CLEARS}`,
    writeOnly(latin1Key32Schema.nullable().optional()),
  ),
  request_signing_key_set: described("Whether a request signing key is set.", presenceFlag("request_signing_key")),
};

/** Each deployment type's fields, keyed by type. The single table the schemas derive from. */
export const deploymentFieldsByType = {
  s3: {
    ...commonDeploymentFields,
    ...storageFields,
    s3_access_key: described("Access key id.", credentialSchema),
    s3_bucket: described("Bucket name.", s3BucketSchema),
    s3_prefix: prefixField(),
    s3_secret_key: described("Secret key.", writeOnly(credentialSchema)),
  },
  gcs: {
    ...commonDeploymentFields,
    ...storageFields,
    gcs_access_key: described("Access key.", credentialSchema),
    gcs_bucket: described("Bucket name.", gcsBucketSchema),
    gcs_prefix: prefixField(),
    gcs_secret_key: described("Secret key.", writeOnly(credentialSchema)),
  },
  azure: {
    ...commonDeploymentFields,
    ...storageFields,
    azure_account: described("Storage account name.", azureAccountSchema),
    azure_bucket: described("Storage container name.", azureContainerSchema),
    azure_prefix: prefixField(),
    azure_sas_string: described("Shared access signature string.", writeOnly(sasStringSchema)),
    azure_service_type: described("The storage service: blob or file.", oneOf(["blob", "file"])),
  },
  webfolder: {
    ...commonDeploymentFields,
    ...webAuthFields,
    webfolder_base_url: described("Protocol, host and path prepended to the image path when fetching from the origin.", httpUrlSchema),
    "robots.txt": robotsTxt,
  },
  webproxy: {
    ...commonDeploymentFields,
    ...webAuthFields,
    // A web proxy has no single origin to take robots.txt from.
    "robots.txt": described(
      "What /robots.txt answers: allow-all or disallow-all.",
      oneOf(["allow-all", "disallow-all"]).default("allow-all"),
    ),
  },
  s3_compatible: {
    ...commonDeploymentFields,
    access_key_id: described("Access key.", credentialSchema),
    bucket_name: described("Bucket name.", s3BucketSchema),
    endpoint_url: described("Endpoint of the storage provider's API.", httpUrlSchema),
    region: described("Location of the data center.", regionSchema),
    secret_key: described("Secret access key.", writeOnly(credentialSchema)),
    storage_provider: described(`The storage provider: ${STORAGE_PROVIDERS.join(", ")}.`, oneOf(STORAGE_PROVIDERS)),
    "robots.txt": robotsTxt,
  },
} as const satisfies Record<SourceType, z.ZodRawShape>;

export type FieldsOf<T extends SourceType> = (typeof deploymentFieldsByType)[T];

/**
 * A Source's writable attributes besides its deployment (spec 2.2), each once with its rule and
 * its default at creation.
 */
export const writableAttributeFields = {
  name: described("Display name; does not affect how assets are served.", sourceNameSchema),
  enabled: described(
    "Whether the Source serves traffic; a disabled one answers 410 Gone for assets not cached.",
    booleanSchema.default(true),
  ),
};

/** The writable attributes besides the deployment (`name`, `enabled`). */
export const WRITABLE_SOURCE_ATTRIBUTES = z.object(writableAttributeFields).keyof().options;
export type WritableSourceAttribute = (typeof WRITABLE_SOURCE_ATTRIBUTES)[number];

/** A Source's attributes that the API returns and never accepts (spec 2.2), each once. */
export const readOnlyAttributeFields = {
  deployment_status: described("deploying, deployed, disabled or deleted.", z.enum(DEPLOYMENT_STATUSES)),
  date_deployed: described("Unix time of the last deployment.", z.int().nullable()),
  secure_url_token: described(
    "Signing token for securing assets; present only while secure URLs are enabled.",
    presentWhile("secure_url_enabled", secret(z.string().optional())),
  ),
};

/** The read-only attributes of a Source (`deployment_status`, `date_deployed`, `secure_url_token`). */
export const READ_ONLY_SOURCE_ATTRIBUTES = z.object(readOnlyAttributeFields).keyof().options;
export type ReadOnlySourceAttribute = (typeof READ_ONLY_SOURCE_ATTRIBUTES)[number];

export const sourceIdSchema = z
  .string(expected("a 24-character Source id"))
  .regex(/^[A-Za-z0-9]{24}$/, { error: "must be a 24-character Source id" });
