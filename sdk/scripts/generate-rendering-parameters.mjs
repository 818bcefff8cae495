#!/usr/bin/env node
// Converts the URL API's published parameter list (imgix-url-params `dist/parameters.json`) into
// sdk/src/generated/rendering-parameters.json, the data behind sdk/src/rendering-parameters.ts.
//
// Usage:
//   node sdk/scripts/generate-rendering-parameters.mjs <upstream parameters.json> [output path]
//
// The upstream file ships in the `imgix-url-params` npm package (repository imgix/imgix-url-params),
// e.g. `npm pack imgix-url-params@11.36.0 && tar xzf imgix-url-params-11.36.0.tgz` gives
// package/dist/parameters.json. The output is deterministic (no timestamps), so regenerating from
// the same upstream file reproduces the committed file byte for byte.
//
// What is kept, per parameter, in upstream order: name, aliases (verbatim, [] when none), category,
// available_in, expects (verbatim, including tuple specs keyed "0", "1", ...) and the flags
// deprecated / disabled / experimental / disallow_base64 when upstream sets them. Display names,
// descriptions, documentation URLs, defaults and `depends` are dropped. The top-level
// `categoryValues`, `colorKeywordValues` and `fontValues` lists are kept (the last two are the
// allowed values of the `color_keyword` and `font` value types).
//
// The script fails when the data is inconsistent (an alias claimed by two parameters or equal to
// another parameter's name, a top-level alias map that disagrees with the per-parameter aliases)
// and warns about upstream oddities it keeps verbatim (an alias equal to its own parameter's name,
// an alias that is not a valid query key).
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [input, outputArg] = process.argv.slice(2);
if (!input) {
  console.error("usage: node sdk/scripts/generate-rendering-parameters.mjs <upstream parameters.json> [output path]");
  process.exit(2);
}
const output = outputArg ?? join(here, "..", "src", "generated", "rendering-parameters.json");

const raw = readFileSync(input);
const upstream = JSON.parse(raw.toString("utf8"));
const errors = [];
const warnings = [];

if (typeof upstream.version !== "string") errors.push("upstream file has no string `version`");
if (!upstream.parameters || typeof upstream.parameters !== "object") errors.push("upstream file has no `parameters` object");
if (errors.length) fail();

const KEY_SYNTAX = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const FLAGS = ["deprecated", "disabled", "experimental", "disallow_base64"];
const KNOWN_FIELDS = new Set([
  "display_name",
  "category",
  "available_in",
  "expects",
  "aliases",
  "depends",
  "default",
  "url",
  "short_description",
  ...FLAGS,
]);

const names = Object.keys(upstream.parameters);
const owner = new Map(); // alias -> parameter name
const parameters = [];
const unknownFields = new Set();

for (const name of names) {
  const spec = upstream.parameters[name];
  if (!KEY_SYNTAX.test(name)) warnings.push(`parameter name "${name}" is not a plain lowercase query key`);
  if (typeof spec.category !== "string") errors.push(`${name}: no category`);
  if (!Array.isArray(spec.expects)) errors.push(`${name}: expects is not an array`);
  for (const field of Object.keys(spec)) if (!KNOWN_FIELDS.has(field)) unknownFields.add(field);

  const aliases = spec.aliases ?? [];
  if (!Array.isArray(aliases) || aliases.some((a) => typeof a !== "string")) errors.push(`${name}: aliases is not a list of strings`);
  for (const alias of aliases) {
    if (alias === name) {
      warnings.push(`${name}: lists itself as an alias (kept verbatim)`);
      continue;
    }
    if (names.includes(alias)) errors.push(`${name}: alias "${alias}" is also a parameter name`);
    const previous = owner.get(alias);
    if (previous !== undefined && previous !== name) errors.push(`alias "${alias}" is claimed by both ${previous} and ${name}`);
    owner.set(alias, name);
    if (!KEY_SYNTAX.test(alias)) warnings.push(`${name}: alias "${alias}" is not a plain lowercase query key (kept verbatim)`);
  }

  const entry = { name, aliases, category: spec.category, available_in: spec.available_in ?? [], expects: spec.expects };
  for (const flag of FLAGS) if (spec[flag] !== undefined) entry[flag] = spec[flag];
  parameters.push(entry);
}

// The top-level alias map must say the same thing as the per-parameter lists.
const topAliases = upstream.aliases ?? {};
for (const [alias, target] of Object.entries(topAliases)) {
  const listed = upstream.parameters[target]?.aliases ?? [];
  if (!listed.includes(alias)) errors.push(`top-level alias "${alias}" -> "${target}" is not listed on that parameter`);
}
for (const entry of parameters) {
  for (const alias of entry.aliases) {
    if (topAliases[alias] !== entry.name) errors.push(`alias "${alias}" of ${entry.name} is missing from the top-level alias map`);
  }
}
if (unknownFields.size) warnings.push(`fields not carried over: ${[...unknownFields].sort().join(", ")}`);
if (errors.length) fail();

const aliasCount = parameters.reduce((n, p) => n + p.aliases.length, 0);
const rel = relative(join(here, "..", ".."), fileURLToPath(import.meta.url))
  .split("\\")
  .join("/");
const header = {
  _generated: `Generated from imgix-url-params dist/parameters.json (version ${upstream.version}); do not edit by hand. Regenerate with node ${rel} <parameters.json>`,
  source: {
    repository: "imgix/imgix-url-params",
    package: `imgix-url-params@${upstream.version}`,
    path: "dist/parameters.json",
    version: upstream.version,
    sha256: createHash("sha256").update(raw).digest("hex"),
  },
  parameterCount: parameters.length,
  aliasCount,
  categories: upstream.categoryValues ?? [],
  valueSets: { color_keyword: upstream.colorKeywordValues ?? [], font: upstream.fontValues ?? [] },
};

// One parameter per line keeps the file compact and its diffs readable.
const lines = Object.entries(header).map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},`);
lines.push(`  "parameters": [`);
lines.push(parameters.map((p) => `    ${JSON.stringify(p)}`).join(",\n"));
lines.push("  ]");
const text = `{\n${lines.join("\n")}\n}\n`;
JSON.parse(text); // sanity: what we write is valid JSON
writeFileSync(output, text);

for (const w of warnings) console.warn(`warning: ${w}`);
console.log(`wrote ${output}: ${parameters.length} parameters, ${aliasCount} aliases (upstream version ${upstream.version})`);

function fail() {
  for (const e of errors) console.error(`error: ${e}`);
  process.exit(1);
}
