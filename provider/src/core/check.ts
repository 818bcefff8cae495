// `check`: every rule of the sdk's schemas, before any API call, so that a preview fails on
// a bad Source with the property path and the rule (the shells write the path in their names).
// Values not known yet are tolerated. A valid Source is parsed here, once, into `SourceInputs`
// (the sdk's create attributes, the API's defaults filled in); every later step takes that type,
// and a create sends it without parsing it again. A Source with values not known yet (a preview)
// gets the same shape, its unknown paths left unknown: the engine shows the difference between
// these inputs and the last ones, so anything else would show every default as removed.
import {
  deploymentDefaults,
  deploymentPatchSchema,
  fieldIssues,
  isPlainObject,
  pick,
  readOnlyFields,
  sourceCreateAttributesSchema,
  WRITABLE_SOURCE_ATTRIBUTE_DEFAULTS,
  WRITABLE_SOURCE_ATTRIBUTES,
  withoutUndefined,
  isSourceType,
} from "@asset-delivery/sdk";
import type { DeclaredAttributes, SourceInputs, UncheckedInputs } from "./codec";
import type { PropertyPath } from "./property-path";
import { PROVIDER_OPTION_DEFAULTS, PROVIDER_OPTION_KEYS, providerOptions, providerOptionsSchema } from "./provider-options";
import { pathsOverlap, unknownPaths } from "./unknowns";

export interface CheckFailure {
  /** Where, in the API's names (empty: the Source as a whole). */
  path: PropertyPath;
  /** The rule it breaks. */
  rule: string;
}

export type CheckResult =
  /** Parsed: what diff, create and update receive. */
  | { inputs: SourceInputs; failures: [] }
  /** Partly unknown during a preview (only diff sees these): normalized where known. */
  | { inputs: UncheckedInputs; failures: [] }
  /** Refused (the engine stops): the shell hands back what it was given. */
  | { failures: CheckFailure[] };

// An adopted Source keeps the secrets stored on the server unless the program declares them.
const adoptedSourceSchema = sourceCreateAttributesSchema.extend({ deployment: deploymentPatchSchema });

/** The properties a Source has: its writable attributes and its deployment (the provider's options apart). */
export const SOURCE_PROPERTIES: ReadonlySet<string> = new Set([...WRITABLE_SOURCE_ATTRIBUTES, "deployment"]);
const OPTION_KEYS: ReadonlySet<string> = new Set(PROVIDER_OPTION_KEYS);

export function checkSource({ options = {}, ...news }: UncheckedInputs): CheckResult {
  const unknownProperties = [
    ...Object.keys(news).filter((key) => !SOURCE_PROPERTIES.has(key)),
    ...Object.keys(options).filter((key) => !OPTION_KEYS.has(key)),
  ];
  if (unknownProperties.length > 0)
    return { failures: unknownProperties.map((key) => ({ path: [key], rule: "not a property of a Source" })) };
  const parse = parseDeclaration(news, options);
  if ("inputs" in parse) return { inputs: parse.inputs, failures: [] };
  if (parse.failures.length > 0) return { failures: parse.failures };
  return { inputs: normalizedWhereKnown(parse.attributes, parse.options), failures: [] };
}

type Parse =
  | { inputs: SourceInputs }
  | { failures: CheckFailure[]; unknown: (string | number)[][]; attributes: Record<string, unknown>; options: Record<string, unknown> };

/** The schemas' parse: typed inputs, or the failures at known paths and the paths not known yet. */
function parseDeclaration(news: Record<string, unknown>, options: Record<string, unknown>): Parse {
  const attributes = declaredAttributes(news);
  const unknown = unknownPaths({ ...attributes, ...options });
  const schema = options.adoptSourceId === undefined ? sourceCreateAttributesSchema : adoptedSourceSchema;
  const source = schema.safeParse(attributes);
  const parsedOptions = providerOptionsSchema.safeParse(options);
  if (unknown.length === 0 && source.success && parsedOptions.success) {
    // The adoption schema's deployment is a PATCH's (secrets may be left out, to keep the stored
    // ones), which the API takes as a declaration too.
    const declared = { ...pick(source.data, WRITABLE_SOURCE_ATTRIBUTES), deployment: source.data.deployment } as DeclaredAttributes;
    return { inputs: { ...declared, options: providerOptions(parsedOptions.data) } };
  }

  const issues = [...(source.success ? [] : fieldIssues(source.error)), ...(parsedOptions.success ? [] : fieldIssues(parsedOptions.error))];
  const failures = issues
    .filter((issue) => !unknown.some((path) => pathsOverlap(path, issue.segments)))
    .map((issue) => ({ path: issue.segments, rule: issue.rule }));
  return { failures, unknown, attributes, options };
}

/** The declared attributes (writable ones and the deployment), as the schemas read them; absent ones left out. */
function declaredAttributes(news: Record<string, unknown>): Record<string, unknown> {
  return withoutUndefined({ ...pick(news, WRITABLE_SOURCE_ATTRIBUTES), deployment: news.deployment });
}

/**
 * What the parse makes of a declaration, for one with values not known yet (its only issues are at
 * unknown paths): every absent field's default filled in (the deployment's once its type is known),
 * read-only fields dropped; unknown values stay as they are.
 */
function normalizedWhereKnown(attributes: Record<string, unknown>, options: Record<string, unknown>): UncheckedInputs {
  const { deployment: declared, ...writable } = attributes;
  let deployment = declared;
  if (isPlainObject(declared) && isSourceType(declared.type)) {
    const filled: Record<string, unknown> = { ...deploymentDefaults(declared.type), ...withoutUndefined(declared) };
    for (const name of readOnlyFields(declared.type)) delete filled[name];
    deployment = filled;
  }
  return {
    ...WRITABLE_SOURCE_ATTRIBUTE_DEFAULTS,
    ...writable,
    deployment,
    options: { ...PROVIDER_OPTION_DEFAULTS, ...withoutUndefined(options) },
  };
}
