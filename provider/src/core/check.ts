// `check`: every rule of the sdk's schemas, before any API call, so that `pulumi preview` fails on
// a bad Source with the property path as the user wrote it (camelCase) and the rule. Values not
// known yet are tolerated. A valid Source is parsed once, here, into `SourceInputs`: the API's
// defaults filled in, secrets apart; every later step takes that type. A Source with values not
// known yet (a preview) gets the same shape, its unknown paths left unknown: the engine shows the
// difference between these inputs and the last ones, so anything else would show every default as
// removed.
import {
  deploymentDefaults,
  deploymentPatchSchema,
  fieldIssues,
  isPlainObject,
  sourceCreateAttributesSchema,
  readOnlyFields,
  WRITABLE_SOURCE_ATTRIBUTE_DEFAULTS,
  WRITABLE_SOURCE_ATTRIBUTES,
  withoutUndefined,
  type SourceAttributes,
  type StoredDeployment,
  type WritableSourceAttribute,
} from "@asset-delivery/sdk";
import { camelCase, camelMembers, camelSegments, renameDeployment } from "./names";
import { PROVIDER_OPTION_DEFAULTS, providerOptions, providerOptionsSchema, type ProviderOptions } from "./provider-options";
import { isSourceType, splitSecrets, WRITE_ONLY_API_NAMES, type CamelDeployment, type SourceInputs } from "./source-state";
import { isUnknown, pathsOverlap, unknownPaths } from "./unknowns";

export interface CheckFailure {
  /** Empty: the path is in the reason, as the engine prints only top-level property values. */
  property: string;
  reason: string;
}

/** The program's inputs as the engine passes them to `check`: plain values, not checked yet. */
export type UncheckedInputs = Record<string, unknown>;

export type CheckResult =
  /** Parsed: what diff, create and update receive. */
  | { inputs: SourceInputs; failures: [] }
  /** Refused (the engine stops): as given. Or partly unknown during a preview (only diff sees these): normalized where known. */
  | { inputs: UncheckedInputs; failures: CheckFailure[] };

// An adopted Source keeps the secrets stored on the server unless the program declares them.
const adoptedSourceSchema = sourceCreateAttributesSchema.extend({ deployment: deploymentPatchSchema });

export function checkSource(news: UncheckedInputs): CheckResult {
  const attributes = declaredAttributes(news);
  const options = providerOptions(news);
  const unknown = [...unknownPaths({ ...attributes, ...options }), ...unknownSecretPaths(news.deploymentSecrets)];
  const schema = news.adoptSourceId === undefined ? sourceCreateAttributesSchema : adoptedSourceSchema;
  const source = schema.safeParse(attributes);
  const parsedOptions = providerOptionsSchema.safeParse(options);

  const issues = [...(source.success ? [] : fieldIssues(source.error)), ...(parsedOptions.success ? [] : fieldIssues(parsedOptions.error))];
  const failures = issues
    .filter((issue) => !unknown.some((path) => pathsOverlap(path, issue.segments)))
    .map((issue) => ({ property: "", reason: `${describePath(issue.segments)}: ${issue.rule}` }));

  if (failures.length > 0) return { inputs: news, failures };
  if (unknown.length === 0 && source.success && parsedOptions.success)
    return { inputs: normalized(source.data, parsedOptions.data), failures: [] };
  return { inputs: normalizedWhereKnown(attributes, options, news), failures: [] };
}

/**
 * What `normalized` makes of a declaration, for one with values not known yet (its only issues are
 * at unknown paths): every absent field's default filled in (the deployment's once its type is
 * known), read-only fields dropped, names and secrets as in `SourceInputs`; unknown values stay.
 */
function normalizedWhereKnown(
  attributes: Record<string, unknown>,
  options: Record<string, unknown>,
  news: UncheckedInputs,
): UncheckedInputs {
  const { deployment: declared, ...writable } = attributes;
  let deployment = declared;
  if (isPlainObject(declared) && isSourceType(declared.type)) {
    const filled: Record<string, unknown> = { ...deploymentDefaults(declared.type), ...withoutUndefined(declared) };
    for (const name of readOnlyFields(declared.type)) delete filled[name];
    deployment = filled;
  }
  const split = isPlainObject(deployment) ? splitSecrets(renameDeployment(deployment, "toCamel")) : { deployment, secrets: {} };
  return {
    ...camelMembers({ ...WRITABLE_SOURCE_ATTRIBUTE_DEFAULTS, ...writable }, WRITABLE_SOURCE_ATTRIBUTES),
    deployment: split.deployment,
    // Not known as a whole (a secret input still to be computed): as given.
    deploymentSecrets:
      isPlainObject(news.deploymentSecrets) || news.deploymentSecrets === undefined ? split.secrets : news.deploymentSecrets,
    ...providerOptions({ ...PROVIDER_OPTION_DEFAULTS, ...withoutUndefined(options) }),
  };
}

/** The secrets are one input: a single secret not known yet leaves all of them unknown, wherever the schema reads them. */
function unknownSecretPaths(secrets: unknown): (string | number)[][] {
  return isUnknown(secrets) ? [...WRITE_ONLY_API_NAMES].map((name) => ["deployment", name]) : [];
}

/** The declared attributes with the API's names, secrets back in the deployment, as the schema reads them. */
function declaredAttributes(news: UncheckedInputs): Record<string, unknown> {
  const { deployment, deploymentSecrets } = news;
  const merged = isPlainObject(deployment)
    ? renameDeployment({ ...deployment, ...(isPlainObject(deploymentSecrets) ? deploymentSecrets : {}) }, "toApi")
    : deployment;
  const writable = Object.fromEntries(WRITABLE_SOURCE_ATTRIBUTES.map((name) => [name, news[camelCase(name)]]));
  return withoutUndefined({ ...writable, deployment: merged });
}

/** `deployment.cacheTtlError`, `deployment.customDomains[1]`, `deployment.defaultParams["txt-font"]`. */
function describePath(segments: readonly (string | number)[]): string {
  const camel = camelSegments(segments);
  if (camel.length === 0) return "(Source)";
  return camel
    .map((segment, index) =>
      typeof segment === "number"
        ? `[${segment}]`
        : /^[A-Za-z_$][\w$]*$/.test(segment)
          ? `${index ? "." : ""}${segment}`
          : `[${JSON.stringify(segment)}]`,
    )
    .join("");
}

/** Parsed attributes back in the resource's shape: defaults filled, secrets apart. */
function normalized(
  attributes: Pick<SourceAttributes, WritableSourceAttribute> & { deployment: Partial<StoredDeployment> & Pick<StoredDeployment, "type"> },
  options: ProviderOptions,
): SourceInputs {
  const camel: CamelDeployment = {
    type: attributes.deployment.type,
    ...renameDeployment(withoutUndefined(attributes.deployment), "toCamel"),
  };
  const { deployment, secrets } = splitSecrets(camel);
  return {
    ...camelMembers(attributes, WRITABLE_SOURCE_ATTRIBUTES),
    deployment,
    deploymentSecrets: secrets,
    ...providerOptions(options),
  };
}
