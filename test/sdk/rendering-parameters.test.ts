import { describe, expect, it } from "vitest";
// Against the built package (npm test builds first), which also proves the generated JSON is emitted into dist/.
import {
  canonicalRenderingParameter,
  isRenderingParameter,
  renderingParameterNames,
  renderingParameters,
  renderingParametersSource,
  renderingValueSets,
  resolveRenderingParameter,
} from "../../sdk/src/rendering-parameters";

// Counts of the upstream file (imgix-url-params 11.36.0 dist/parameters.json): a truncated or
// hand-edited data file fails here. Update them together with a regeneration.
const UPSTREAM_VERSION = "11.36.0";
const UPSTREAM_PARAMETERS = 203;
const UPSTREAM_ALIAS_ENTRIES = 112;
// Names plus aliases usable as keys: 203 + 112, less `bg-remove-transparency-threshold` (listed as
// its own alias) and `video-generate=vtt` (not a query key).
const USABLE_KEYS = 313;

describe("rendering parameter data", () => {
  it("is the full upstream list", () => {
    expect(renderingParametersSource.version).toBe(UPSTREAM_VERSION);
    expect(renderingParameters).toHaveLength(UPSTREAM_PARAMETERS);
    expect(renderingParameters.reduce((n, p) => n + p.aliases.length, 0)).toBe(UPSTREAM_ALIAS_ENTRIES);
    expect(renderingParameterNames.size).toBe(USABLE_KEYS);
    expect(new Set(renderingParameters.map((p) => p.name)).size).toBe(UPSTREAM_PARAMETERS);
  });

  it("describes every parameter's values", () => {
    for (const p of renderingParameters) {
      expect(p.category, p.name).toMatch(/\S/);
      expect(p.expects.length, p.name).toBeGreaterThan(0);
    }
    const fit = renderingParameters.find((p) => p.name === "fit");
    expect(fit?.expects[0]?.possible_values).toEqual(expect.arrayContaining(["clip", "crop", "max", "scale"]));
    const w = renderingParameters.find((p) => p.name === "w");
    expect(w?.expects[0]).toMatchObject({ type: "integer", strict_range: { min: 2, max: 8192 } });
    expect(renderingValueSets.color_keyword).toContain("aliceblue");
    expect(renderingValueSets.font.length).toBeGreaterThan(100);
  });
});

describe("isRenderingParameter / canonicalRenderingParameter", () => {
  it.each([
    "w",
    "h",
    "fit",
    "auto",
    "q",
    "fm",
    "dpr",
    "crop",
    "orient",
    "ch",
    "txt-font",
    "mark-align",
    "blend-mode",
    "fp-debug",
    "expires",
  ])("accepts the name %s", (name) => {
    expect(isRenderingParameter(name)).toBe(true);
    expect(canonicalRenderingParameter(name)).toBe(name);
    expect(renderingParameterNames.has(name)).toBe(true);
  });

  it.each([
    ["or", "orient"],
    ["width", "w"],
    ["height", "h"],
    ["f", "fit"],
    ["t", "txt"],
    ["tf", "txt-font"],
    ["m", "mark"],
    ["ma", "mark-align"],
    ["bm", "blend-mode"],
    ["b", "blend"],
    ["inv", "invert"],
    ["mono", "monochrome"],
  ])("resolves the alias %s to %s", (alias, name) => {
    expect(isRenderingParameter(alias)).toBe(true);
    expect(canonicalRenderingParameter(alias)).toBe(name);
    expect(resolveRenderingParameter(alias)).toMatchObject({ name, alias: true, base64: false });
  });

  it("resolves every alias to its own parameter", () => {
    for (const p of renderingParameters) {
      for (const alias of p.aliases) {
        if (renderingParameterNames.has(alias)) expect(canonicalRenderingParameter(alias), alias).toBe(p.name);
      }
    }
  });

  it("accepts base64 variants except where upstream disallows them", () => {
    expect(resolveRenderingParameter("txt64")).toMatchObject({ name: "txt", alias: false, base64: true });
    expect(resolveRenderingParameter("t64")).toMatchObject({ name: "txt", alias: true, base64: true });
    expect(canonicalRenderingParameter("mark64")).toBe("mark");
    expect(isRenderingParameter("auto64")).toBe(false);
    expect(isRenderingParameter("ch64")).toBe(false);
    expect(renderingParameterNames.has("txt64")).toBe(false);
  });

  it.each([
    "s", // the signature: per URL, never a default
    "s64",
    "W",
    "Fit",
    "ORIENT",
    "?w",
    "w=100",
    " w",
    "",
    "64",
    "width-",
    "txt-",
    "txt-foo",
    "mark-opacity",
    "video-generate=vtt",
    "resize",
    "quality",
    "__proto__",
    "constructor",
    "toString",
  ])("rejects %j", (key) => {
    expect(isRenderingParameter(key)).toBe(false);
    expect(canonicalRenderingParameter(key)).toBeUndefined();
  });
});
