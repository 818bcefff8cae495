// The data-source functions in the schema, each from its signature (functions/signatures.ts: the
// sdk's schemas' descriptors), and the `Report` type their results share.
import type { FieldDescriptor } from "@asset-delivery/sdk";
import { REPORT_MEMBERS, SIGNATURES, type ResultMember } from "../../functions/signatures";
import { FUNCTION_TOKENS, TYPE_TOKENS } from "../../tokens";
import type { PulumiProperty, SchemaTypes } from "./format";
import { propertyOf } from "./properties";

/**
 * A data-source function's result members, from its signature's. An object member stays a map of
 * any values, its members named in the description, as the schema first published it: a type of
 * its own would change the SDKs' types.
 */
function membersOf(members: readonly ResultMember[], types: SchemaTypes) {
  const properties = Object.fromEntries(
    members.map((member) => [
      member.name,
      "listOf" in member
        ? { type: "array", items: { $ref: `#/types/${TYPE_TOKENS[member.listOf]}` } }
        : member.field.type === "object"
          ? memberMap(member.field.fields)
          : propertyOf(member.field, types),
    ]),
  );
  return { properties, required: members.filter((member) => member.required).map((member) => member.name) };
}

/** `{ code, message }` → a map described as "`code` and `message`.". */
function memberMap(fields: readonly FieldDescriptor[]): PulumiProperty {
  const names = fields.map((field) => `\`${field.name}\``);
  const description = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}.` : `${names.join("")}.`;
  return { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" }, description };
}

/** The `Report` type, added to `types`. */
export function reportType(types: SchemaTypes): void {
  types[TYPE_TOKENS.report] = { type: "object", description: "An analytics report.", ...membersOf(REPORT_MEMBERS, types) };
}

/** The schema's `functions`, each from its signature; a result inlining a type (`SourceInfo`) reads it from `types`. */
export function functions(types: SchemaTypes) {
  return Object.fromEntries(
    Object.entries(SIGNATURES).map(([name, signature]) => {
      const args = Object.values(signature.args);
      const required = args.filter((arg) => arg.required).map((arg) => arg.name);
      const inline = signature.result.membersOf === undefined ? undefined : types[TYPE_TOKENS[signature.result.membersOf]]!;
      const own = membersOf(signature.result.members, types);
      const outputRequired = [...(inline?.required ?? []), ...own.required];
      return [
        FUNCTION_TOKENS[name as keyof typeof FUNCTION_TOKENS],
        {
          description: signature.description,
          inputs: {
            properties: Object.fromEntries(args.map((arg) => [arg.name, propertyOf(arg, types)])),
            ...(required.length > 0 && { required }),
          },
          outputs: {
            properties: { ...inline?.properties, ...own.properties },
            ...(outputRequired.length > 0 && { required: outputRequired }),
          },
        },
      ];
    }),
  );
}
