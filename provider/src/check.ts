// `check`: every rule of the sdk's schemas, before any API call, so that `pulumi preview` fails on
// a bad Source with the property path as the user wrote it (camelCase) and the rule. Values not
// known yet are tolerated. A valid Source comes back with the API's defaults filled in.
import { z } from "zod";
import { deploymentPatchSchema, expected, fieldIssues, sourceCreateAttributesSchema, sourceIdSchema } from "@asset-delivery/sdk";
import { camelSegments, renameDeployment } from "./names";
import { apiAttributes, providerOptions, splitSecrets, withoutUndefined, type SourceInputs } from "./source-state";
import { pathsOverlap, unknownPaths } from "./unknowns";

export interface CheckFailure {
  /** Empty: the path is in the reason, as the engine prints only top-level property values. */
  property: string;
  reason: string;
}

export const DEFAULT_DEPLOYMENT_TIMEOUT_SECONDS = 300;

/** The provider's own inputs: how to wait, and which existing Source to adopt. */
const providerOptionsSchema = z.object({
  waitForDeployment: z.boolean(expected("true or false")).default(true),
  deploymentTimeoutSeconds: z
    .int(expected("a whole number of seconds"))
    .min(1, { error: "must be from 1 to 3600 seconds" })
    .max(3600, { error: "must be from 1 to 3600 seconds" })
    .default(DEFAULT_DEPLOYMENT_TIMEOUT_SECONDS),
  adoptSourceId: sourceIdSchema.optional(),
});

// An adopted Source keeps the secrets stored on the server unless the program declares them.
const adoptedSourceSchema = sourceCreateAttributesSchema.extend({ deployment: deploymentPatchSchema });

export function checkSource(news: SourceInputs): { inputs: SourceInputs; failures: CheckFailure[] } {
  const declared = { ...apiAttributes(news), ...providerOptions(news) };
  const unknown = unknownPaths(declared);
  const schema = news.adoptSourceId === undefined ? sourceCreateAttributesSchema : adoptedSourceSchema;
  const source = schema.safeParse(apiAttributes(news));
  const options = providerOptionsSchema.safeParse(providerOptions(news));

  const issues = [...(source.success ? [] : fieldIssues(source.error)), ...(options.success ? [] : fieldIssues(options.error))];
  const failures = issues
    .map((issue) => ({ segments: issue.segments ?? [issue.path], rule: issue.rule }))
    .filter((issue) => !unknown.some((path) => pathsOverlap(path, issue.segments)))
    .map((issue) => ({ property: "", reason: `${describePath(issue.segments)}: ${issue.rule}` }));

  if (!source.success || !options.success || unknown.length > 0) return { inputs: news, failures };
  return { inputs: normalized(source.data, options.data), failures };
}

/** `deployment.cacheTtlError`, `deployment.customDomains[1]`, `deployment.defaultParams["txt-font"]`. */
function describePath(segments: readonly (string | number)[]): string {
  const camel = camelSegments(segments);
  if (camel.length === 0) return "(Source)";
  return camel
    .map((segment, index) => (typeof segment === "number" ? `[${segment}]` : /^[A-Za-z_$][\w$]*$/.test(segment) ? `${index ? "." : ""}${segment}` : `[${JSON.stringify(segment)}]`))
    .join("");
}

/** Parsed attributes back in the resource's shape: defaults filled, secrets apart. */
function normalized(attributes: { name: string; enabled: boolean; deployment: object }, options: z.output<typeof providerOptionsSchema>): SourceInputs {
  const deployment = renameDeployment(withoutUndefined(attributes.deployment as Record<string, unknown>), "toCamel");
  const { deployment: open, secrets } = splitSecrets(deployment);
  return withoutUndefined({
    name: attributes.name,
    enabled: attributes.enabled,
    deployment: open,
    deploymentSecrets: secrets,
    ...options,
  });
}
