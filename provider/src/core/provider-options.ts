// The provider's own inputs of a Source: how to wait for its deployment, and which existing Source
// to adopt. Never sent to the API. This schema is their one list: `check` parses them with it, the
// resource's arguments and the state take their names and types from it. In the core they live
// apart from the Source's fields, in `options` (codec.ts); the shells put them beside those fields,
// where the resource has them (pulumi-names/source.ts).
import { z } from "zod";
import { describeFields, expected, isHttpUrl, pick, sourceIdSchema, type FieldDescriptor } from "@asset-delivery/sdk";

const MAX_PURGE_TARGETS = 100;
const purgeTargetSchema = z
  .string(expected("a string"))
  .max(2048, { error: "must be at most 2048 characters" })
  .refine((value) => value.startsWith("/") || isHttpUrl(value), {
    error:
      "must be a path starting with / (on the Source's first service subdomain) or an absolute http:// or https:// URL on one of its hostnames",
  });

/** The longest wait for a deployment a Source may declare: an hour. */
const MAX_DEPLOYMENT_TIMEOUT_SECONDS = 3600;
const deploymentTimeoutRange = { error: `must be from 1 to ${MAX_DEPLOYMENT_TIMEOUT_SECONDS} seconds` };

export const providerOptionsSchema = z.object({
  waitForDeployment: z
    .boolean(expected("true or false"))
    .default(true)
    .describe("Wait after create and update until the Source is deployed."),
  deploymentTimeoutSeconds: z
    .int(expected("a whole number of seconds"))
    .min(1, deploymentTimeoutRange)
    .max(MAX_DEPLOYMENT_TIMEOUT_SECONDS, deploymentTimeoutRange)
    .default(300)
    .describe(`How long to wait for the deployment, in seconds (1 to ${MAX_DEPLOYMENT_TIMEOUT_SECONDS}).`),
  adoptSourceId: sourceIdSchema
    .optional()
    .describe(
      "Take over this existing Source (its 24-character id) instead of creating one, and bring it to the declared state: the import path. Its write-only secrets may be left out to keep the stored ones.",
    ),
  purgeAfterUpdate: z
    .array(purgeTargetSchema, expected("a list of paths or URLs"))
    .max(MAX_PURGE_TARGETS, { error: `must list at most ${MAX_PURGE_TARGETS} paths or URLs` })
    .optional()
    .describe(
      "Paths or URLs purged once an update that changes rendering (default parameters, error and missing images, caching, secure URLs) has deployed; never on create or on other updates. A failed purge is a warning, not a failed update.",
    ),
});

/** The options as `check` leaves them: defaults filled in. */
export type ProviderOptions = z.output<typeof providerOptionsSchema>;
/** The options as a program declares them. */
export type ProviderOptionsInput = z.input<typeof providerOptionsSchema>;
export type ProviderOptionKey = keyof ProviderOptions;

export const PROVIDER_OPTION_KEYS: readonly ProviderOptionKey[] = providerOptionsSchema.keyof().options;

export function isProviderOptionKey(key: string): key is ProviderOptionKey {
  return (PROVIDER_OPTION_KEYS as readonly string[]).includes(key);
}

/**
 * The options a program declares: their descriptors (names, types, defaults, descriptions), for
 * schemas: the sdk's rules applied to this schema.
 */
export const PROVIDER_OPTION_DESCRIPTORS: readonly FieldDescriptor[] = describeFields(providerOptionsSchema.shape);

/** The options' defaults: what parsing fills in for absent options (the schema's `.default`s, their one statement; descriptions never restate them: a schema writes each from its descriptor). */
export const PROVIDER_OPTION_DEFAULTS: Readonly<ProviderOptions> = Object.freeze(providerOptionsSchema.parse({}));

/** The provider options among a set of values, absent ones left out. */
export function providerOptions<T extends Partial<Record<ProviderOptionKey, unknown>>>(from: T): Pick<T, ProviderOptionKey> {
  return pick(from, PROVIDER_OPTION_KEYS);
}
