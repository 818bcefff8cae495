// A model of Pulumi's package schema format: the subset of its JSON form this package uses
// (Pulumi's docs, "Pulumi Package Schema"). The other modules of this folder fill it in.

/** A property of the Pulumi schema. */
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

/** An object type of the schema's `types`. */
export interface ObjectType {
  type: "object";
  description?: string;
  properties: Record<string, PulumiProperty>;
  required?: string[];
}

/** The schema's `types`, by token: filled in as properties that need a type of their own are made. */
export type SchemaTypes = Record<string, ObjectType>;
