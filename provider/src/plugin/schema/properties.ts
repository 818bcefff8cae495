// A field's descriptor (the sdk's FieldDescriptor: its shape, default, secrecy, description) as a
// property of the schema; an object with named fields becomes a type of its own.
import { camelCase, type FieldDescriptor, type ValueShape } from "@asset-delivery/sdk";
import { PACKAGE_NAME } from "../../tokens";
import type { ObjectType, PulumiProperty, SchemaTypes } from "./format";

const SCALARS = new Set(["string", "integer", "number", "boolean"]);

/** A value shape as a Pulumi type; an object with named fields becomes a type of its own, `nameForObjects`. */
function typeOf(shape: ValueShape, nameForObjects: string, types: SchemaTypes): PulumiProperty {
  switch (shape.type) {
    case "array":
      return { type: "array", items: typeOf(shape.items, nameForObjects, types) };
    case "map": {
      const values = typeOf(shape.values, nameForObjects, types);
      return { type: "object", additionalProperties: values };
    }
    case "object": {
      const token = `${PACKAGE_NAME}:index:${nameForObjects}`;
      types[token] = objectTypeOf(shape.fields, types);
      return { $ref: `#/types/${token}` };
    }
    case "oneOf":
      // `default_params` values: a string, number or boolean, as in a rendering URL.
      return { $ref: "pulumi.json#/Any" };
    default:
      return SCALARS.has(shape.type) ? { type: shape.type } : { $ref: "pulumi.json#/Any" };
  }
}

/** What a descriptor states of a value, in words, for the property's description. */
function ruleText(field: FieldDescriptor): string[] {
  const words: string[] = field.description ? [field.description] : [];
  if (field.type === "string" && field.enum) words.push(`One of ${field.enum.map((value) => `\`${value}\``).join(", ")}.`);
  // The default and the write-only mark are the descriptor's, written here once: no description restates them (field-facts.test.ts).
  if (field.default !== undefined && field.default !== null) words.push(`Default \`${JSON.stringify(field.default)}\`.`);
  if (field.writeOnly) words.push("Write-only: the API never returns it, so it is kept from the program; always secret.");
  return words;
}

export function propertyOf(field: FieldDescriptor, types: SchemaTypes): PulumiProperty {
  const property = typeOf(field, pascalCase(field.apiName), types);
  const scalarDefault = field.default !== undefined && field.default !== null && typeof field.default !== "object";
  const text = ruleText(field);
  return {
    ...property,
    ...(scalarDefault && { default: field.default }),
    ...(field.secret && { secret: true }),
    ...(text.length > 0 && { description: text.join(" ") }),
  };
}

export function objectTypeOf(fields: readonly FieldDescriptor[], types: SchemaTypes): ObjectType {
  const properties = Object.fromEntries(fields.map((field) => [field.name, propertyOf(field, types)]));
  const required = fields.filter((field) => field.required).map((field) => field.name);
  return { type: "object", properties, ...(required.length > 0 && { required }) };
}

export function pascalCase(apiName: string): string {
  const camel = camelCase(apiName);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}
