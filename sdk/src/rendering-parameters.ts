// The rendering parameters of the service's public URL API: the keys a Source's
// `deployment.default_params` may use. The data is generated from the upstream parameter list
// (imgix-url-params dist/parameters.json) by sdk/scripts/generate-rendering-parameters.mjs; see
// generated/rendering-parameters.json for the version and checksum it was built from.
//
// Key rules, as decided here:
// - Case-sensitive. Every upstream name and alias is lowercase (`w`, `fit`, `txt-font`), and the
//   rendering service reads query keys as written, so `W` or `Fit` is rejected, not folded.
// - A key is a parameter name (`orient`), one of its aliases (`or`), or either of those with the
//   base64 suffix `64` (`txt64`, `t64`: the value is base64url-encoded), except for parameters
//   upstream marks `disallow_base64` (`auto`, `ch`). No leading `?` or `&`, no `=value`.
// - Upstream alias entries that are not query keys are not accepted as keys (11.36.0 lists
//   `video-generate=vtt` as an alias of `video-generate-subtitles`; it is kept in the data only).
// - Signing: the signature `s` is not a rendering parameter (upstream does not list it) and is
//   rejected: a signature covers one URL's path and query, so no source-wide default can be valid.
//   `expires` is accepted: upstream lists it (category "expiration") and it is an ordinary query
//   parameter that the signature, when there is one, covers like any other.
// - Deprecated or disabled parameters, if upstream marks any, are still accepted (the service may
//   still accept them); their flags are on `RenderingParameter`.
import data from "./generated/rendering-parameters.json";

/** A range of accepted or suggested values; either bound may be absent. */
export interface RenderingValueRange {
  readonly min?: number;
  readonly max?: number;
}

/**
 * One accepted form of a parameter's value, verbatim from upstream: `type` is one of `integer`,
 * `number`, `unit_scalar`, `ratio`, `boolean`, `string`, `list`, `hex_color`, `color_keyword`,
 * `font`, `url`, `path`, `timestamp`, `interval`, ... A `list` spec with `length` describes a
 * comma-separated tuple whose items' specs are under the keys "0", "1", ...
 */
export interface RenderingValueSpec {
  readonly type?: string;
  readonly possible_values?: readonly (string | number)[];
  readonly strict_range?: RenderingValueRange;
  readonly suggested_range?: RenderingValueRange;
  readonly length?: number;
  readonly [key: string]: unknown;
}

export interface RenderingParameter {
  /** The canonical name, e.g. `orient`. */
  readonly name: string;
  /** Upstream aliases, verbatim (e.g. `["or"]`); may contain entries that are not query keys. */
  readonly aliases: readonly string[];
  /** Upstream category, e.g. `size`, `text`, `watermark`. */
  readonly category: string;
  /** Where the parameter applies upstream: `url`, `graph`, `output`. */
  readonly available_in: readonly string[];
  /** The accepted value forms; a value matching any one of them is valid. */
  readonly expects: readonly RenderingValueSpec[];
  readonly deprecated?: unknown;
  readonly disabled?: unknown;
  readonly experimental?: unknown;
  /** The parameter has no base64 (`name64`) variant. */
  readonly disallow_base64?: boolean;
}

interface GeneratedRenderingParameters {
  readonly source: {
    readonly repository: string;
    readonly package: string;
    readonly path: string;
    readonly version: string;
    readonly sha256: string;
  };
  readonly parameterCount: number;
  readonly aliasCount: number;
  readonly categories: readonly string[];
  readonly valueSets: { readonly color_keyword: readonly string[]; readonly font: readonly string[] };
  readonly parameters: readonly RenderingParameter[];
}

const generated = data as unknown as GeneratedRenderingParameters;
if (generated.parameters.length !== generated.parameterCount) {
  throw new Error(
    `rendering-parameters.json is inconsistent: ${generated.parameters.length} parameters, header says ${generated.parameterCount}`,
  );
}

/** The upstream parameter list's version and checksum. */
export const renderingParametersSource = generated.source;

/** Every parameter, deprecated ones included, in upstream order. */
export const renderingParameters: readonly RenderingParameter[] = generated.parameters;

/** The allowed values of the `color_keyword` and `font` value types. */
export const renderingValueSets = generated.valueSets;

const KEY_SYNTAX = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const BASE64_SUFFIX = "64";

const byName = new Map<string, RenderingParameter>(); // name or alias -> parameter
for (const parameter of renderingParameters) byName.set(parameter.name, parameter);
for (const parameter of renderingParameters) {
  for (const alias of parameter.aliases) {
    if (KEY_SYNTAX.test(alias) && !byName.has(alias)) byName.set(alias, parameter);
  }
}

/** Every parameter name and alias usable as a key (without the base64 `64` variants). */
export const renderingParameterNames: ReadonlySet<string> = new Set(byName.keys());

export interface ResolvedRenderingParameter {
  /** The key as given. */
  readonly key: string;
  /** The canonical parameter name. */
  readonly name: string;
  /** The key (less any `64` suffix) is an alias, not the canonical name. */
  readonly alias: boolean;
  /** The key is a base64 variant (`txt64`): its value is base64url-encoded. */
  readonly base64: boolean;
  readonly parameter: RenderingParameter;
}

/** Resolves a `default_params` key to its parameter, or `undefined` if it is not one (see the rules above). */
export function resolveRenderingParameter(key: string): ResolvedRenderingParameter | undefined {
  const exact = byName.get(key);
  if (exact) return { key, name: exact.name, alias: key !== exact.name, base64: false, parameter: exact };
  if (key.endsWith(BASE64_SUFFIX)) {
    const stem = key.slice(0, -BASE64_SUFFIX.length);
    const parameter = byName.get(stem);
    if (parameter && parameter.disallow_base64 !== true) {
      return { key, name: parameter.name, alias: stem !== parameter.name, base64: true, parameter };
    }
  }
  return undefined;
}

/** The canonical name for a parameter name, alias or base64 variant (`or` -> `orient`, `t64` -> `txt`). */
export function canonicalRenderingParameter(nameOrAlias: string): string | undefined {
  return resolveRenderingParameter(nameOrAlias)?.name;
}

/** Whether `key` may be a key of `deployment.default_params`. */
export function isRenderingParameter(key: string): boolean {
  return resolveRenderingParameter(key) !== undefined;
}
