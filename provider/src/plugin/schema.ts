// The package schema the plugin serves (GetSchema), committed as provider/schema.json: made
// from the sdk's field table, so a field's type, default, allowed values, secrecy and write-only or
// read-only mark are stated once, there. The resource `assetdelivery:index:Source` takes the same
// camelCase arguments as the TypeScript `new Source(...)`; its deployment is one object type per
// deployment type, joined by a union discriminated on `type` (the form Pulumi's code generators
// render as a tagged union: a TypeScript union, a Python Union, a Go interface with one struct per
// case), with every secret field (write-only, or the secure-URL token) marked `secret` where it lives.
// The functions are their signatures (functions/signatures.ts), whose results are the sdk's schemas too.
import {
  ALWAYS_RETURNED_SOURCE_ATTRIBUTES,
  camelCase,
  deploymentFieldDescriptors,
  REQUIRED_SOURCE_CREATE_ATTRIBUTES,
  sourceAttributeDescriptors,
  SOURCE_TYPES,
  type FieldDescriptor,
  type SourceType,
  type ValueShape,
} from "@asset-delivery/sdk";
import { PROVIDER_OPTION_DESCRIPTORS } from "../core/provider-options";
import { CONFIG_NAMES } from "../core/config-check";
import { SECRET_SETTINGS, SETTING_DESCRIPTIONS } from "../core/settings";
import { REPORT_MEMBERS, SIGNATURES, type ResultMember } from "../functions/signatures";
import { FUNCTION_TOKENS, PACKAGE_NAME, SOURCE_TOKEN, TYPE_TOKENS } from "../tokens";

export { PACKAGE_NAME, SOURCE_TOKEN };

/** A property of the Pulumi schema (a subset of its JSON form: what this package uses). */
export interface PulumiProperty {
  type?: string;
  $ref?: string;
  items?: PulumiProperty;
  additionalProperties?: PulumiProperty;
  oneOf?: PulumiProperty[];
  discriminator?: { propertyName: string; mapping: Record<string, string> };
  const?: unknown;
  default?: unknown;
  secret?: boolean;
  description?: string;
}

interface ObjectType {
  type: "object";
  description?: string;
  properties: Record<string, PulumiProperty>;
  required?: string[];
}

const SCALARS = new Set(["string", "integer", "number", "boolean"]);

/** A value shape as a Pulumi type; an object with named fields becomes a type of its own, `nameForObjects`. */
function typeOf(shape: ValueShape, nameForObjects: string, types: Record<string, ObjectType>): PulumiProperty {
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
  const statesDefault = field.description?.includes("Default") ?? false;
  if (field.default !== undefined && field.default !== null && !statesDefault) words.push(`Default \`${JSON.stringify(field.default)}\`.`);
  if (field.writeOnly) words.push("Write-only: the API never returns it, so it is kept from the program; always secret.");
  return words;
}

function propertyOf(field: FieldDescriptor, types: Record<string, ObjectType>): PulumiProperty {
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

function objectTypeOf(fields: readonly FieldDescriptor[], types: Record<string, ObjectType>): ObjectType {
  const properties = Object.fromEntries(fields.map((field) => [field.name, propertyOf(field, types)]));
  const required = fields.filter((field) => field.required).map((field) => field.name);
  return { type: "object", properties, ...(required.length > 0 && { required }) };
}

function pascalCase(apiName: string): string {
  const camel = camelCase(apiName);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

/** `s3_compatible` → `S3CompatibleDeployment`. */
export function deploymentTypeName(type: SourceType): string {
  return `${pascalCase(type)}Deployment`;
}

/** One object type per deployment type: its declarable fields (read-only ones are the resource's outputs). */
function deploymentTypes(types: Record<string, ObjectType>): Record<SourceType, string> {
  const tokens = {} as Record<SourceType, string>;
  for (const type of SOURCE_TYPES) {
    const fields = deploymentFieldDescriptors(type).filter((field) => !field.readOnly);
    const { properties, required } = objectTypeOf(fields, types);
    properties.type = { type: "string", const: type, description: `The deployment type: \`${type}\`.` };
    const token = `${PACKAGE_NAME}:index:${deploymentTypeName(type)}`;
    types[token] = {
      type: "object",
      description: `The deployment of a Source of type \`${type}\`. Every field may be changed in place; another type is a change of type.`,
      properties,
      ...(required && { required }),
    };
    tokens[type] = token;
  }
  return tokens;
}

function deploymentUnion(tokens: Record<SourceType, string>, description: string): PulumiProperty {
  const refs = SOURCE_TYPES.map((type) => `#/types/${tokens[type]}`);
  return {
    oneOf: refs.map(($ref) => ({ $ref })),
    discriminator: { propertyName: "type", mapping: Object.fromEntries(SOURCE_TYPES.map((type, i) => [type, refs[i]!])) },
    description,
  };
}

/**
 * The Source's attributes as the API returns them, camelCase: outputs of the resource and of
 * getSource. The deployment's read-only flags (`passwordSet`, `allowsUpload`) are outputs of their
 * own, as on the TypeScript resource.
 */
function sourceOutputProperties(deployment: PulumiProperty, types: Record<string, ObjectType>): Record<string, PulumiProperty> {
  const flags = new Map(
    SOURCE_TYPES.flatMap((type) => deploymentFieldDescriptors(type).filter((field) => field.readOnly)).map((field) => [field.name, field]),
  );
  const attributes = Object.fromEntries(sourceAttributeDescriptors.map((field) => [field.name, propertyOf(field, types)]));
  return {
    ...attributes,
    deployment,
    ...Object.fromEntries([...flags.values()].map((field) => [field.name, propertyOf(field, types)])),
  };
}

/** The provider's own inputs (waitForDeployment, ...), from their descriptors as the Source's fields are. */
function optionProperties(types: Record<string, ObjectType>): Record<string, PulumiProperty> {
  return Object.fromEntries(PROVIDER_OPTION_DESCRIPTORS.map((field) => [field.name, propertyOf(field, types)]));
}

/** The names of the provider's own inputs that `holds` is true of. */
function optionNames(holds: (field: FieldDescriptor) => boolean): string[] {
  return PROVIDER_OPTION_DESCRIPTORS.filter(holds).map((field) => field.name);
}

function configVariables(): Record<string, PulumiProperty> {
  return Object.fromEntries(
    CONFIG_NAMES.map((name) => [
      name,
      { type: "string", description: SETTING_DESCRIPTIONS[name], ...(SECRET_SETTINGS.has(name) && { secret: true }) },
    ]),
  );
}

/**
 * A data-source function's result members, from its signature's (functions/signatures.ts: the
 * sdk's schemas' descriptors). An object member stays a map of any values, its members named in
 * the description, as the schema first published it: a type of its own would change the SDKs' types.
 */
function membersOf(members: readonly ResultMember[], types: Record<string, ObjectType>) {
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

/** The functions, each from its signature (functions/signatures.ts). */
function functions(types: Record<string, ObjectType>) {
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

/** The engine's source for the plugin's release tarballs: this repository's GitHub releases. */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/asset-delivery/asset-delivery-as-code";
const REPOSITORY = "https://github.com/asset-delivery/asset-delivery-as-code";
/** The logo the Registry shows: docs/images/logo.svg, served from the default branch. */
export const LOGO_URL = "https://raw.githubusercontent.com/asset-delivery/asset-delivery-as-code/main/docs/images/logo.svg";

/** The package schema at `version` (the package's version: plugin, schema and npm package are one number). */
export function packageSchema(version: string): Record<string, unknown> {
  const types: Record<string, ObjectType> = {};
  const tokens = deploymentTypes(types);
  const deploymentIn = deploymentUnion(tokens, "Where the images come from and how they are served, by `type`.");
  const options = optionProperties(types);
  const outputs = sourceOutputProperties(deploymentUnion(tokens, "The deployment as the server has it, defaults filled in."), types);
  // The Source's members every read holds (the sdk's response schema says which), as the resource's outputs name them.
  const alwaysReturned = ALWAYS_RETURNED_SOURCE_ATTRIBUTES.map(camelCase);
  types[TYPE_TOKENS.sourceInfo] = {
    type: "object",
    description: "A Source as the server has it.",
    properties: { id: { type: "string", description: "The 24-character id." }, ...outputs },
    required: ["id", ...alwaysReturned],
  };
  types[TYPE_TOKENS.report] = { type: "object", description: "An analytics report.", ...membersOf(REPORT_MEMBERS, types) };
  const config = configVariables();
  return {
    name: PACKAGE_NAME,
    displayName: "Asset Delivery",
    version,
    description: "Manage an image-delivery service's Sources (image origins and delivery settings) and read its reports and video jobs.",
    // The Registry files a package by its `category/` keyword; `kind/native`: a provider of its own, not bridged.
    keywords: ["pulumi", "asset-delivery", "image-delivery", "category/cloud", "kind/native"],
    homepage: `${REPOSITORY}#readme`,
    license: "Apache-2.0",
    publisher: "asset-delivery",
    repository: REPOSITORY,
    logoUrl: LOGO_URL,
    // Where the engine downloads the plugin the SDKs name: the project's GitHub releases, tag
    // v<version>, assets pulumi-resource-assetdelivery-v<version>-<os>-<arch>.tar.gz (tools/package-plugin.sh).
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    config: { variables: config },
    provider: {
      description: "The provider: one account of the service (an explicit provider per account).",
      inputProperties: config,
      // A secret setting is an input only: the provider's outputs never hold it.
      properties: Object.fromEntries(CONFIG_NAMES.filter((name) => !SECRET_SETTINGS.has(name)).map((name) => [name, config[name]])),
    },
    types,
    resources: {
      [SOURCE_TOKEN]: {
        description:
          "A Source: where images come from (an origin) and how they are served. The API cannot delete Sources: `destroy` retires one (disabled, its subdomains reserved), and declaring its subdomains again adopts it.",
        inputProperties: {
          name: outputs.name,
          // Both from the sdk's field table, as the outputs are: its default and description.
          enabled: outputs.enabled,
          deployment: deploymentIn,
          ...options,
        },
        requiredInputs: [...REQUIRED_SOURCE_CREATE_ATTRIBUTES.map(camelCase), ...optionNames((field) => field.required)],
        properties: { ...outputs, ...options },
        // An option with a default is always in the state.
        required: [...alwaysReturned, ...optionNames((field) => field.required || field.default !== undefined)],
      },
    },
    functions: functions(types),
    language: {
      nodejs: { packageName: "@asset-delivery/pulumi", respectSchemaVersion: true },
      python: { packageName: "pulumi_assetdelivery", pyproject: { enabled: true }, respectSchemaVersion: true },
      go: {
        importBasePath: "github.com/asset-delivery/asset-delivery-as-code/sdks/go/assetdelivery",
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
    },
  };
}

/** The schema as committed in provider/schema.json (tools/plugin-reference.sh), where the Registry reads it. */
export function schemaJson(schema: Record<string, unknown>): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
