// The Source resource of the schema, `assetdelivery:index:Source`, and the `SourceInfo` type
// getSource returns: the same camelCase names as the TypeScript `new Source(...)`; the deployment
// one object type per deployment type, joined by a union discriminated on `type` (the form Pulumi's
// code generators render as a tagged union: a TypeScript union, a Python Union, a Go interface with
// one struct per case), every secret field (write-only, or the secure-URL token) marked `secret`
// where it lives; the provider's own options (waitForDeployment, ...) beside the Source's fields.
import {
  ALWAYS_RETURNED_SOURCE_ATTRIBUTES,
  camelCase,
  deploymentFieldDescriptors,
  REQUIRED_SOURCE_CREATE_ATTRIBUTES,
  requiredMembers,
  sourceAttributeDescriptors,
  SOURCE_TYPES,
  type FieldDescriptor,
  type SourceType,
} from "@asset-delivery/sdk";
import { PROVIDER_OPTION_DESCRIPTORS, providerOptionsSchema } from "../../core";
import { PACKAGE_NAME, SOURCE_TOKEN, TYPE_TOKENS } from "../../tokens";
import type { PulumiProperty, SchemaTypes } from "./format";
import { objectTypeOf, pascalCase, propertyOf } from "./properties";

/** `s3_compatible` → `S3CompatibleDeployment`. */
function deploymentTypeName(type: SourceType): string {
  return `${pascalCase(type)}Deployment`;
}

/** One object type per deployment type: its declarable fields (read-only ones are the resource's outputs). */
function deploymentTypes(types: SchemaTypes): Record<SourceType, string> {
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
function sourceOutputProperties(deployment: PulumiProperty, types: SchemaTypes): Record<string, PulumiProperty> {
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
function optionProperties(types: SchemaTypes): Record<string, PulumiProperty> {
  return Object.fromEntries(PROVIDER_OPTION_DESCRIPTORS.map((field) => [field.name, propertyOf(field, types)]));
}

/** The names of the provider's own inputs that `holds` is true of. */
function optionNames(holds: (field: FieldDescriptor) => boolean): string[] {
  return PROVIDER_OPTION_DESCRIPTORS.filter(holds).map((field) => field.name);
}

/**
 * The Source resource, its deployment types and `SourceInfo` added to `types`: the schema's
 * `resources`.
 */
export function sourceResource(types: SchemaTypes): Record<string, unknown> {
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
  return {
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
      // One rule for the Source's attributes and the options: what their schemas cannot parse absent.
      requiredInputs: [...REQUIRED_SOURCE_CREATE_ATTRIBUTES.map(camelCase), ...requiredMembers(providerOptionsSchema)],
      properties: { ...outputs, ...options },
      // An option with a default is always in the state.
      required: [...alwaysReturned, ...optionNames((field) => field.required || field.default !== undefined)],
    },
  };
}
