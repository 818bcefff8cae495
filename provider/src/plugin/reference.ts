// The package's reference in Markdown, generated from the schema the plugin serves (so the docs
// cannot say other than the plugin does): the Source resource, its deployment types, the
// functions and the configuration (docs/reference.md, beside the pages the Pulumi Registry reads:
// docs/_index.md and docs/installation-configuration.md).
import type { PulumiProperty } from "./schema";

interface SchemaObject {
  description?: string;
  properties?: Record<string, PulumiProperty>;
  inputProperties?: Record<string, PulumiProperty>;
  required?: string[];
  requiredInputs?: string[];
}

interface PackageSchema {
  name: string;
  version: string;
  config: { variables: Record<string, PulumiProperty> };
  types: Record<string, SchemaObject>;
  resources: Record<string, SchemaObject>;
  functions: Record<string, { description?: string; inputs: SchemaObject; outputs: SchemaObject }>;
}

function typeName(property: PulumiProperty): string {
  if (property.$ref === "pulumi.json#/Any") return "any";
  if (property.$ref) return `[${property.$ref.split(":").pop()!}](#${property.$ref.split(":").pop()!.toLowerCase()})`;
  if (property.oneOf) return property.oneOf.map(typeName).join(" \\| ");
  if (property.type === "array") return `list of ${typeName(property.items ?? {})}`;
  if (property.type === "object" && property.additionalProperties) return `map of ${typeName(property.additionalProperties)}`;
  return property.type ?? "any";
}

function cell(text: string | undefined): string {
  return (text ?? "").replace(/\|/g, "\\|").replace(/\n+/g, " ");
}

function table(properties: Record<string, PulumiProperty> = {}, required: readonly string[] = []): string[] {
  const rows = Object.entries(properties).map(
    ([name, property]) =>
      `| \`${name}\` | ${typeName(property)} | ${required.includes(name) ? "yes" : ""} | ${property.secret ? "yes" : ""} | ${cell(property.description)} |`,
  );
  return ["| property | type | required | secret | description |", "|---|---|---|---|---|", ...rows];
}

/** `docs/reference.md`: every resource, type, function and setting of the schema. */
export function referenceMarkdown(schema: PackageSchema): string {
  const lines = [
    "<!-- Generated from the schema of pulumi-resource-assetdelivery (provider/src/plugin/reference.ts): do not edit. -->",
    `# ${schema.name} reference (v${schema.version})`,
    "",
  ];
  for (const [token, resource] of Object.entries(schema.resources)) {
    lines.push(`## Resource \`${token}\``, "", cell(resource.description), "", "### Inputs", "");
    lines.push(...table(resource.inputProperties, resource.requiredInputs), "", "### Outputs", "");
    const outputsOnly = Object.fromEntries(
      Object.entries(resource.properties ?? {}).filter(([name]) => !(name in (resource.inputProperties ?? {}))),
    );
    lines.push(...table(outputsOnly, resource.required), "");
  }
  lines.push("## Types", "");
  for (const [token, type] of Object.entries(schema.types)) {
    const name = token.split(":").pop()!;
    lines.push(`### ${name}`, "", ...(type.description ? [cell(type.description), ""] : []), ...table(type.properties, type.required), "");
  }
  lines.push("## Functions", "");
  for (const [token, fn] of Object.entries(schema.functions)) {
    lines.push(`### \`${token}\``, "", cell(fn.description), "", "Arguments:", "", ...table(fn.inputs.properties, fn.inputs.required), "");
    lines.push("Result:", "", ...table(fn.outputs.properties, fn.outputs.required), "");
  }
  lines.push("## Configuration", "", ...table(schema.config.variables), "");
  return lines.join("\n");
}
