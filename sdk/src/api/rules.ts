// The value rules of the Management API (spec sections 2.3 and 8), each written once.
// Every message states the rule, because the field's path is added by whoever reports the issue.
import { z } from "zod";

declare const writeOnlyBrand: unique symbol;
declare const readOnlyBrand: unique symbol;
/** A field the API accepts but never returns (secrets); the brand lets types derive from it too. */
export type WriteOnly<T extends z.ZodType> = T & { readonly [writeOnlyBrand]: true };
/** A field the API returns but never accepts. */
export type ReadOnly<T extends z.ZodType> = T & { readonly [readOnlyBrand]: true };

/** Marks a field write-only, at run time (schema metadata, also in the OpenAPI document) and in types. */
export function writeOnly<T extends z.ZodType>(schema: T): WriteOnly<T> {
  return schema.meta({ ...schema.meta(), writeOnly: true }) as WriteOnly<T>;
}

/** Marks a field read-only, at run time and in types. */
export function readOnly<T extends z.ZodType>(schema: T): ReadOnly<T> {
  return schema.meta({ ...schema.meta(), readOnly: true }) as ReadOnly<T>;
}

/**
 * A read-only flag that reports whether the write-only field `secret` is set (`password_set`
 * reports `password`). The pair is metadata of the flag, so it also shows in the OpenAPI document.
 */
export function presenceFlag(secret: string): ReadOnly<z.ZodBoolean> {
  return readOnly(z.boolean().meta({ [PRESENCE_OF]: secret }));
}

const PRESENCE_OF = "x-presence-of";
const PRESENT_WHILE = "x-present-while";

/**
 * A returned attribute present only while a deployment flag is true (`secure_url_token` while
 * `secure_url_enabled`): the server keeps none otherwise, and a preview knows it will be absent.
 */
export function presentWhile<T extends z.ZodType>(flag: string, schema: T): T {
  return schema.meta({ ...schema.meta(), [PRESENT_WHILE]: flag });
}

/** The deployment flag a returned attribute is present only while, if the schema says so. */
export function presentWhileFlag(schema: z.ZodType): string | undefined {
  const flag = schema.meta()?.[PRESENT_WHILE];
  return typeof flag === "string" ? flag : undefined;
}

/** The write-only field a presence flag reports, if the schema is one. */
export function presenceOf(schema: z.ZodType): string | undefined {
  const secret = schema.meta()?.[PRESENCE_OF];
  return typeof secret === "string" ? secret : undefined;
}

// An OpenAPI extension keyword, so the mark may show in the generated document.
const AFFECTS_RENDERING = "x-affects-rendering";

/**
 * Marks a field whose change alters how images render (so previously rendered derivatives may
 * need purging, spec 3.1).
 */
export function affectsRendering<T extends z.ZodType>(schema: T): T {
  return schema.meta({ ...schema.meta(), [AFFECTS_RENDERING]: true });
}

export function isRenderingField(schema: z.ZodType): boolean {
  return schema.meta()?.[AFFECTS_RENDERING] === true;
}

// An OpenAPI extension keyword, so the mark shows in the generated document.
const SECRET = "x-secret";

/**
 * Marks a returned value that is a credential (the secure-URL token): whoever keeps it keeps it
 * secret (Pulumi's state, the data-source functions' results). Write-only fields are secret too,
 * without this mark: they are never returned.
 */
export function secret<T extends z.ZodType>(schema: T): T {
  return schema.meta({ ...schema.meta(), [SECRET]: true });
}

/** Whether a field's value is secret wherever it is kept: a write-only field, or one marked `secret`. */
export function isSecret(schema: z.ZodType): boolean {
  return isWriteOnly(schema) || schema.meta()?.[SECRET] === true;
}

export function isWriteOnly(schema: z.ZodType): boolean {
  return schema.meta()?.writeOnly === true;
}

export function isReadOnly(schema: z.ZodType): boolean {
  return schema.meta()?.readOnly === true;
}

/** The type error of a field: "is required" when absent, else what it must be. */
export function expected(what: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${what}`) };
}

export const MAX_TTL_SECONDS = 31_536_000;

export const cacheTtlErrorSchema = z
  .int(expected("an integer number of seconds"))
  .min(1, { error: `must be from 1 to ${MAX_TTL_SECONDS} seconds` })
  .max(MAX_TTL_SECONDS, { error: `must be from 1 to ${MAX_TTL_SECONDS} seconds` });

export const cacheTtlValueSchema = z
  .int(expected("an integer number of seconds"))
  .min(1800, { error: `must be from 1800 to ${MAX_TTL_SECONDS} seconds` })
  .max(MAX_TTL_SECONDS, { error: `must be from 1800 to ${MAX_TTL_SECONDS} seconds` });

// RFC 1123 host label. Case is kept as given; uniqueness is compared case-insensitively.
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export const subdomainLabelSchema = z.string(expected("a string")).regex(LABEL, {
  error:
    'must be a single subdomain label: 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen (pass only the label, e.g. "foo" for foo.<delivery domain>)',
});

export const domainNameSchema = z
  .string(expected("a string"))
  .max(253, { error: "must be a domain name of at most 253 characters" })
  .refine(
    (value) => {
      const labels = value.split(".");
      const tld = labels[labels.length - 1] ?? "";
      return labels.length >= 2 && labels.every((label) => LABEL.test(label)) && /^[A-Za-z][A-Za-z0-9-]*$/.test(tld);
    },
    {
      error:
        "must be a valid domain name such as images.example.com (labels of letters, digits and hyphens, a top-level domain that starts with a letter)",
    },
  );

/** A Source answers on at most this many hostnames: service subdomains and custom domains together. */
export const MAX_HOSTNAMES_PER_SOURCE = 100;

/**
 * How the API compares host names (service subdomain labels, custom domains) for uniqueness within
 * a list and across Sources: case-insensitively, as DNS does. Names equal under this key are one name.
 */
export function hostnameKey(name: string): string {
  return name.toLowerCase();
}

/**
 * A list of at least `min` and at most `max` names, unique compared case-insensitively (DNS
 * names). The length is checked before any member is: an oversized list (85,000 names in one
 * request) is refused at once instead of after checking each name.
 */
export function uniqueNames<T extends z.ZodType<string>>(
  member: T,
  limits: { min?: { count: number; error: string }; max: { count: number; error: string } },
) {
  const { min = { count: 0, error: "" }, max } = limits;
  const list = z
    .array(member, expected("a list of strings"))
    .min(min.count, { error: min.error })
    .max(max.count, { error: max.error })
    .superRefine((values, ctx) => {
      const seen = new Set<string>();
      values.forEach((value, index) => {
        if (typeof value !== "string") return;
        const key = hostnameKey(value);
        if (seen.has(key))
          ctx.addIssue({ code: "custom", path: [index], message: `must not repeat "${value}" (names are compared case-insensitively)` });
        seen.add(key);
      });
    });
  // A preprocess step is documented as the list itself in JSON Schema (zod documents the pipe's output).
  return z.preprocess<unknown, typeof list, z.input<typeof list>>((value, ctx) => {
    if (Array.isArray(value) && value.length > max.count) {
      ctx.addIssue({ code: "too_big", origin: "array", maximum: max.count, inclusive: true, input: value, message: max.error });
      return z.NEVER;
    }
    return value;
  }, list);
}

// A host name (last label not numeric, which would make it an IPv4 address) or an IPv4 address,
// an optional port (0 to 65535), then a path, query or fragment of printable ASCII: every such string is a URL the WHATWG parser
// accepts with an http(s) host. The rule requires the pattern, so the OpenAPI document (which
// carries it) states exactly what is accepted.
const IPV4_OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
const PORT = "(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})";
const HTTP_URL_PATTERN = `^https?://(([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*|${IPV4_OCTET}(\\.${IPV4_OCTET}){3})(:${PORT})?([/?#][!-~]*)?$`;

/**
 * Not blank as JavaScript's trim() sees it: at least one character that is neither ECMAScript
 * white space nor a line terminator. Spelled out (not `\S`) so that every regex engine reading the
 * OpenAPI document agrees.
 */
export const NOT_BLANK_PATTERN = "[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]";

const HTTP_URL = new RegExp(HTTP_URL_PATTERN);

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * Any absolute http(s) URL the WHATWG parser accepts, IPv6 literals and international host names
 * included: for addresses the client is handed (its base URL, report file URLs), which no API
 * field's pattern describes.
 */
export const anyHttpUrlSchema = z
  .string(expected("a string"))
  .max(2048, { error: "must be a URL of at most 2048 characters" })
  .refine(isHttpUrl, { error: "must be an absolute http:// or https:// URL" });

/** An API field's URL: the pattern the OpenAPI document states (below), checked as the rule. */
export const httpUrlSchema = z
  .string(expected("a string"))
  .max(2048, { error: "must be a URL of at most 2048 characters" })
  .superRefine((value, ctx) => {
    if (!isHttpUrl(value)) ctx.addIssue({ code: "custom", message: "must be an absolute http:// or https:// URL" });
    else if (!HTTP_URL.test(value)) {
      ctx.addIssue({
        code: "custom",
        message:
          "must be an absolute http:// or https:// URL with a host name or IPv4 address, in printable ASCII (percent-encode other characters)",
      });
    }
  })
  .meta({ pattern: HTTP_URL_PATTERN });

// Control characters are C0, DEL and C1.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The JSON Schema pattern of text without CONTROL's characters, for the documents (refinements do not show there). */
const NO_CONTROL_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$";

/** Basic-auth username and password toward the origin. */
export const basicAuthPartSchema = z
  .string(expected("a string"))
  .min(1, { error: "must not be empty (omit it or pass null instead)" })
  .max(255, { error: "must be at most 255 characters" })
  .refine((value) => !value.includes(":"), { error: 'must not contain ":"' })
  .refine((value) => !CONTROL.test(value), { error: "must not contain control characters" });

/** `request_handshake` and `request_signing_key`: exactly 32 printable latin-1 characters. */
export const latin1Key32Schema = z
  .string(expected("a string"))
  .refine((value) => value.length === 32, { error: "must be exactly 32 characters long" })
  .refine((value) => [...value].every((ch) => ch.charCodeAt(0) <= 0xff), {
    error: "must contain only latin-1 characters (U+0000 to U+00FF)",
  })
  .refine((value) => !CONTROL.test(value), { error: "must not contain control characters" })
  // The same rule, stated in the documents made from the table (refinements do not show there).
  .meta({ minLength: 32, maxLength: 32, pattern: "^[\\u0020-\\u007e\\u00a0-\\u00ff]*$" });

/** Keys and secrets issued by storage providers: opaque, but never blank or with white space. */
export const credentialSchema = z
  .string(expected("a string"))
  .min(1, { error: "must not be empty" })
  .max(1024, { error: "must be at most 1024 characters" })
  .regex(/^\S+$/, { error: "must not contain white space" });

/** Azure SAS tokens are query strings; a leading "?" is tolerated as the portal shows one. */
export const sasStringSchema = z
  .string(expected("a string"))
  .min(1, { error: "must not be empty" })
  .max(4096, { error: "must be at most 4096 characters" })
  .regex(/^\??[^\s?]+$/, { error: "must be a shared access signature query string without white space" });

// Bucket rules as the storage providers publish them.
export const s3BucketSchema = z.string(expected("a string")).regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
  error: "must be a bucket name of 3 to 63 lowercase letters, digits, dots or hyphens, starting and ending with a letter or digit",
});

export const gcsBucketSchema = z.string(expected("a string")).regex(/^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/, {
  error:
    "must be a bucket name of 3 to 222 lowercase letters, digits, dots, underscores or hyphens, starting and ending with a letter or digit",
});

export const azureContainerSchema = z.string(expected("a string")).regex(/^(?!.*--)[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/, {
  error: "must be a container name of 3 to 63 lowercase letters, digits or single hyphens, starting and ending with a letter or digit",
});

export const azureAccountSchema = z
  .string(expected("a string"))
  .regex(/^[a-z0-9]{3,24}$/, { error: "must be a storage account name of 3 to 24 lowercase letters or digits" });

export const regionSchema = z.string(expected("a string")).regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, {
  error: "must be a region code of letters, digits, hyphens or underscores (e.g. nyc3, us-east-1)",
});

/** Folder prefix prepended to the image path; null means none. */
export const prefixSchema = z
  .string(expected("a string or null"))
  .max(1024, { error: "must be at most 1024 characters" })
  .refine((value) => !CONTROL.test(value), { error: "must not contain control characters" })
  .meta({ pattern: NO_CONTROL_PATTERN })
  .nullable();

/**
 * Text that is not blank, of at most `max` characters. Both rules also appear in the JSON Schema
 * (pattern, maxLength), and characters are code points, as JSON Schema's maxLength counts them.
 */
export function nonBlankTextSchema(max: number) {
  return z
    .string(expected("a string"))
    .refine((value) => value.trim().length > 0, { error: "must not be blank" })
    .refine((value) => [...value].length <= max, { error: `must be at most ${max} characters` })
    .meta({ pattern: NOT_BLANK_PATTERN, maxLength: max });
}

export const sourceNameSchema = nonBlankTextSchema(255);

export const annotationSchema = z.string(expected("a string")).max(1000, { error: "must be at most 1000 characters" });
