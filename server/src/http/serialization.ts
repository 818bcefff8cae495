// Response documents leave as JSON written by fast-json-stringify, compiled once per schema from the
// sdk's zod schema of the document. The compiled schema lists each object's members sorted by
// name, so every object's keys come out in alphabetical order, as the real service sends them,
// without sorting anything per response. A map's members (additionalProperties: default_params,
// an error's meta) come out in the order the object holds them: the code that builds a map puts
// them in order. Members the schema does not name are not sent, as zod's parse would drop them.
import fastJson from "fast-json-stringify";
import type { z } from "zod";
import { jsonSchemaOf, type JsonSchema } from "../openapi/json-schema";

/** The serializer of documents that `schema` describes (as produced: zod's output side). */
export function documentSerializer(schema: z.ZodType): (document: unknown) => string {
  return fastJson(serializationSchema(jsonSchemaOf(schema, "output")));
}

const PRIMITIVE_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

/**
 * The part of a JSON Schema that decides how a value is written: its types, its members (sorted)
 * and items. Rules that only validate (patterns, bounds, enums) are left out. Alternatives
 * (anyOf, oneOf: a nullable value, a union of deployment types) become one schema that accepts
 * each, so that fast-json-stringify never has to validate a value to choose its branch.
 */
function serializationSchema(schema: JsonSchema): JsonSchema {
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return mergedAlternatives(alternatives.map(serializationSchema));
  const parts = schema.allOf as JsonSchema[] | undefined;
  if (parts) return mergedParts(parts.map(serializationSchema));
  const types = typesOf(schema);
  if (types === undefined) return {}; // any value: written as JSON.stringify writes it
  const result: JsonSchema = { type: types.length === 1 ? types[0] : types };
  if (types.includes("object")) {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    result.properties = sortedMembers(properties, serializationSchema);
    const additional = schema.additionalProperties as JsonSchema | boolean | undefined;
    if (typeof additional === "object") result.additionalProperties = serializationSchema(additional);
  }
  if (types.includes("array")) {
    if (schema.prefixItems !== undefined) throw new Error(`no serialization for tuples: ${JSON.stringify(schema)}`);
    result.items = serializationSchema((schema.items ?? {}) as JsonSchema);
  }
  return result;
}

/** An object's member schemas, sorted by name (the order the serializer writes them in), each made by `schemaOf`. */
function sortedMembers<T>(members: Record<string, T>, schemaOf: (member: T) => JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.keys(members)
      .sort()
      .map((name) => [name, schemaOf(members[name]!)]),
  );
}

/** The types a schema allows; undefined when it allows any value. */
function typesOf(schema: JsonSchema): string[] | undefined {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === "string") return [schema.type];
  if (schema.properties !== undefined || schema.additionalProperties !== undefined) return ["object"];
  if (schema.items !== undefined) return ["array"];
  if ("const" in schema) {
    // An object or array const would need its members listed: none of the API's schemas has one.
    if (typeof schema.const === "object" && schema.const !== null)
      throw new Error(`no serialization for the const ${JSON.stringify(schema.const)}`);
    return [schema.const === null ? "null" : typeof schema.const];
  }
  const unknownKeywords = Object.keys(schema).filter((keyword) => !ANNOTATIONS.has(keyword));
  if (unknownKeywords.length > 0) throw new Error(`no serialization for the schema ${JSON.stringify(schema)}`);
  return undefined;
}

// Keywords that say nothing about how a value is written.
const ANNOTATIONS = new Set(["description", "title", "readOnly", "writeOnly", "default", "examples", "not"]);

/** One schema for a value that may be any of `options`. */
function mergedAlternatives(options: JsonSchema[]): JsonSchema {
  if (options.some((option) => option.type === undefined)) return {};
  const types = [...new Set(options.flatMap(typeList))];
  const nonNull = types.filter((type) => type !== "null");
  if (nonNull.length > 1 && !nonNull.every((type) => PRIMITIVE_TYPES.has(type))) {
    throw new Error(`no serialization for a value of types ${nonNull.join(", ")}`);
  }
  // Null beside one other type: fast-json-stringify's `nullable` writes it without a type test.
  const merged: JsonSchema =
    nonNull.length === 1
      ? { type: nonNull[0], ...(types.length > 1 && { nullable: true }) }
      : { type: types.length === 1 ? types[0] : types };
  const objects = options.filter((option) => option.properties !== undefined);
  if (objects.length > 0) {
    const byName = new Map<string, JsonSchema[]>();
    for (const option of objects) {
      for (const [name, property] of Object.entries(option.properties as Record<string, JsonSchema>)) {
        byName.set(name, [...(byName.get(name) ?? []), property]);
      }
    }
    merged.properties = sortedMembers(Object.fromEntries(byName), (schemas) =>
      schemas.length === 1 ? schemas[0]! : mergedAlternatives(schemas),
    );
    const maps = objects.flatMap((option) =>
      option.additionalProperties === undefined ? [] : [option.additionalProperties as JsonSchema],
    );
    if (maps.length > 0) merged.additionalProperties = mergedAlternatives(maps);
  }
  const arrays = options.filter((option) => option.items !== undefined);
  if (arrays.length > 0) merged.items = mergedAlternatives(arrays.map((option) => option.items as JsonSchema));
  return merged;
}

/** The types a serialization schema accepts, null included. */
function typeList(schema: JsonSchema): string[] {
  return [...[schema.type as string | string[]].flat(), ...(schema.nullable === true ? ["null"] : [])];
}

/** One schema for a value that is all of `parts`: objects with disjoint members (a list page's meta and its pagination). */
function mergedParts(parts: JsonSchema[]): JsonSchema {
  if (!parts.every((part) => part.type === "object")) throw new Error(`no serialization for allOf of ${JSON.stringify(parts)}`);
  const properties = Object.assign({}, ...parts.map((part) => part.properties)) as Record<string, JsonSchema>;
  const sorted = sortedMembers(properties, (property) => property);
  const maps = parts.flatMap((part) => (part.additionalProperties === undefined ? [] : [part.additionalProperties as JsonSchema]));
  return { type: "object", properties: sorted, ...(maps.length > 0 && { additionalProperties: mergedAlternatives(maps) }) };
}
