// The breaking changes between two Pulumi package schemas (the last recorded release's
// test/upgrade/recorded/v<version>/schema.json and this build's), each named by its path: what a
// program, a stack or an SDK user written against the old schema can meet after the upgrade.
//
// Breaking: a resource, function or type removed; a property removed (an input, an output, a
// type's member, a function's argument or result, a provider setting, a config variable); a
// property's type changed; an input newly required; an output no longer always set (a resource's or
// a function's, or a member of a type an output holds); a default or a constant changed; a secret
// made plain; an allowed value removed; the package's name, its plugin's download address
// (`pluginDownloadURL`, where the engine fetches the plugin a stack names) or a language's setting
// (`language.*`: the SDKs' package names and import paths) changed or removed.
// Additions (a new optional input, a new output, a new resource, a new language setting) are not.
// pulumi/schema-tools does this for Pulumi's own providers; its module is refused here.

interface Property {
  type?: string;
  $ref?: string;
  items?: Property;
  additionalProperties?: Property;
  oneOf?: Property[];
  default?: unknown;
  secret?: boolean;
  const?: unknown;
}

interface ObjectShape {
  properties?: Record<string, Property>;
  required?: string[];
}

interface Schema {
  name?: string;
  pluginDownloadURL?: string;
  language?: Record<string, unknown>;
  resources?: Record<string, ObjectShape & { inputProperties?: Record<string, Property>; requiredInputs?: string[] }>;
  functions?: Record<string, { inputs?: ObjectShape; outputs?: ObjectShape }>;
  types?: Record<string, ObjectShape & { type?: string; enum?: { value: unknown }[] }>;
  provider?: { inputProperties?: Record<string, Property>; requiredInputs?: string[] };
  config?: { variables?: Record<string, Property> };
}

/** A property's type as one comparable string: `string`, `array<integer>`, `map<#/types/...>`, `oneOf(...)`. */
export function typeSignature(property: Property): string {
  if (property.$ref) return property.$ref;
  if (property.oneOf) return `oneOf(${property.oneOf.map(typeSignature).sort().join("|")})`;
  if (property.type === "array") return `array<${property.items ? typeSignature(property.items) : "?"}>`;
  if (property.type === "object" && property.additionalProperties) return `map<${typeSignature(property.additionalProperties)}>`;
  return property.type ?? "any";
}

const json = (value: unknown) => (value === undefined ? "none" : JSON.stringify(value));

/** Each property of `before` compared with `after`'s, at `where` (e.g. `resources.assetdelivery:index:Source.inputProperties`). */
function compareProperties(
  where: string,
  before: Record<string, Property> = {},
  after: Record<string, Property> = {},
  { input }: { input: boolean },
): string[] {
  const changes: string[] = [];
  for (const [name, old] of Object.entries(before)) {
    const path = `${where}.${name}`;
    const now = after[name];
    if (!now) {
      changes.push(`${path}: ${input ? "input" : "output"} removed`);
      continue;
    }
    if (typeSignature(old) !== typeSignature(now))
      changes.push(`${path}: type changed from ${typeSignature(old)} to ${typeSignature(now)}`);
    if (json(old.default) !== json(now.default)) changes.push(`${path}: default changed from ${json(old.default)} to ${json(now.default)}`);
    if (old.secret === true && now.secret !== true) changes.push(`${path}: secret made plain`);
    if (old.const !== undefined && json(old.const) !== json(now.const))
      changes.push(`${path}: constant changed from ${json(old.const)} to ${json(now.const)}`);
  }
  return changes;
}

function newlyRequired(where: string, before: readonly string[] = [], after: readonly string[] = []): string[] {
  return after.filter((name) => !before.includes(name)).map((name) => `${where}.${name}: input newly required`);
}

/** Outputs a user could rely on being set that may now be absent. */
function noLongerRequired(where: string, before: readonly string[] = [], after: readonly string[] = []): string[] {
  return before.filter((name) => !after.includes(name)).map((name) => `${where}.${name}: output no longer always set`);
}

/** The `#/types/<token>` a property refers to, through arrays, maps and unions. */
function referencedTypes(property: Property): string[] {
  const own = property.$ref?.startsWith("#/types/") ? [property.$ref.slice("#/types/".length)] : [];
  const nested = [property.items, property.additionalProperties, ...(property.oneOf ?? [])].filter((p) => p !== undefined);
  return [...own, ...nested.flatMap(referencedTypes)];
}

/** The object types an output can hold (a resource's outputs, a function's results, and the types those refer to). */
function outputTypes(schema: Schema): Set<string> {
  const roots = [
    ...Object.values(schema.resources ?? {}).flatMap((resource) => Object.values(resource.properties ?? {})),
    ...Object.values(schema.functions ?? {}).flatMap((fn) => Object.values(fn.outputs?.properties ?? {})),
  ];
  const found = new Set<string>();
  const pending = roots.flatMap(referencedTypes);
  for (let token = pending.pop(); token !== undefined; token = pending.pop()) {
    if (found.has(token)) continue;
    found.add(token);
    pending.push(...Object.values(schema.types?.[token]?.properties ?? {}).flatMap(referencedTypes));
  }
  return found;
}

/** Each setting of `before` (a leaf of a nested object, e.g. `language.nodejs.packageName`) changed or removed in `after`. */
function changedSettings(where: string, before: unknown, after: unknown): string[] {
  if (before !== null && typeof before === "object" && !Array.isArray(before)) {
    const now = after !== null && typeof after === "object" && !Array.isArray(after) ? (after as Record<string, unknown>) : {};
    return Object.entries(before).flatMap(([key, value]) => changedSettings(`${where}.${key}`, value, now[key]));
  }
  if (after === undefined) return [`${where}: removed (was ${json(before)})`];
  return json(before) === json(after) ? [] : [`${where}: changed from ${json(before)} to ${json(after)}`];
}

/** The breaking changes from `before` to `after`, sorted by path. */
export function breakingSchemaChanges(before: Schema, after: Schema): string[] {
  const changes: string[] = [];
  if (before.name !== after.name) changes.push(`name: package name changed from ${json(before.name)} to ${json(after.name)}`);
  if (before.pluginDownloadURL !== undefined)
    changes.push(...changedSettings("pluginDownloadURL", before.pluginDownloadURL, after.pluginDownloadURL));
  changes.push(...changedSettings("language", before.language ?? {}, after.language ?? {}));
  const outputsBefore = outputTypes(before);
  for (const [token, old] of Object.entries(before.resources ?? {})) {
    const now = after.resources?.[token];
    const at = `resources.${token}`;
    if (!now) {
      changes.push(`${at}: resource removed`);
      continue;
    }
    changes.push(...compareProperties(`${at}.inputProperties`, old.inputProperties, now.inputProperties, { input: true }));
    changes.push(...newlyRequired(`${at}.requiredInputs`, old.requiredInputs, now.requiredInputs));
    changes.push(...compareProperties(`${at}.properties`, old.properties, now.properties, { input: false }));
    changes.push(...noLongerRequired(`${at}.required`, old.required, now.required));
  }
  for (const [token, old] of Object.entries(before.functions ?? {})) {
    const now = after.functions?.[token];
    const at = `functions.${token}`;
    if (!now) {
      changes.push(`${at}: function removed`);
      continue;
    }
    changes.push(...compareProperties(`${at}.inputs.properties`, old.inputs?.properties, now.inputs?.properties, { input: true }));
    changes.push(...newlyRequired(`${at}.inputs.required`, old.inputs?.required, now.inputs?.required));
    changes.push(...compareProperties(`${at}.outputs.properties`, old.outputs?.properties, now.outputs?.properties, { input: false }));
    changes.push(...noLongerRequired(`${at}.outputs.required`, old.outputs?.required, now.outputs?.required));
  }
  for (const [token, old] of Object.entries(before.types ?? {})) {
    const now = after.types?.[token];
    const at = `types.${token}`;
    if (!now) {
      changes.push(`${at}: type removed`);
      continue;
    }
    // An object type is an input and an output at once (a Source's deployment): a member removed is both.
    changes.push(
      ...compareProperties(`${at}.properties`, old.properties, now.properties, { input: true }).map((c) =>
        c.replace(": input removed", ": property removed"),
      ),
    );
    changes.push(...newlyRequired(`${at}.required`, old.required, now.required));
    if (outputsBefore.has(token)) changes.push(...noLongerRequired(`${at}.required`, old.required, now.required));
    const values = new Set((now.enum ?? []).map((e) => json(e.value)));
    for (const value of old.enum ?? []) if (!values.has(json(value.value))) changes.push(`${at}.enum: value ${json(value.value)} removed`);
  }
  changes.push(
    ...compareProperties("provider.inputProperties", before.provider?.inputProperties, after.provider?.inputProperties, { input: true }),
  );
  changes.push(...newlyRequired("provider.requiredInputs", before.provider?.requiredInputs, after.provider?.requiredInputs));
  changes.push(...compareProperties("config.variables", before.config?.variables, after.config?.variables, { input: true }));
  return changes.sort();
}
