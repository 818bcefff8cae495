// Each fact about a Source's fields is stated once, in the sdk (its field table and what derives
// from it: sdk/src/api/source/descriptors.ts, sdk/src/source-resource.ts); the provider, the CLI,
// the server and the policy pack import it. These fail when a module writes a copy again.
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  deploymentFieldDescriptors,
  DYNAMIC_SECRETS_KEY,
  REQUIRED_SOURCE_CREATE_ATTRIBUTES,
  sourceAttributeDescriptors,
  sourceCreateAttributesSchema,
  SOURCE_TYPES,
  type FieldDescriptor,
} from "@asset-delivery/sdk";
import { PROVIDER_OPTION_DESCRIPTORS, providerOptionsSchema } from "../../provider/src/core/provider-options";
import { packageSchema } from "../../provider/src/plugin/schema";
import { SECRET_PATHS } from "../../provider/src/pulumi-names/secret-paths";
import { SOURCE_TOKEN } from "../../provider/src/tokens";

const root = path.resolve(__dirname, "../..");
const PARTS = ["provider/src", "cli/src", "server/src", "policy/src"];

/** The code lines (comments left out) of the parts' modules that match, as `file: line`. */
function matching(pattern: RegExp): string[] {
  return PARTS.flatMap((part) =>
    fs
      .readdirSync(path.join(root, part), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .flatMap((file) =>
        fs
          .readFileSync(path.join(root, part, file), "utf8")
          .split("\n")
          .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line) && pattern.test(line))
          .map((line) => `${part}/${file}: ${line.trim()}`),
      ),
  );
}

/**
 * Where the parts' modules write `name` as a key (or its snake_case spelling): as a string or a
 * template without substitutions anywhere, or as an identifier where it names a property (an
 * object's, a class's, an interface's, an access, a shorthand, a destructured one); as
 * `file:line: what it is`. A local variable that only bears the name is not a key.
 */
/** A node that holds a key, as `keyWritten` tells it: a class's property with its modifiers and class, else its kind. */
function described(node: ts.Node): string {
  if (ts.isPropertyDeclaration(node) && ts.isClassDeclaration(node.parent)) {
    const modifiers = (node.modifiers ?? []).map((modifier) => modifier.getText()).join(" ");
    return `${modifiers} property of class ${node.parent.name?.text}`.trim();
  }
  return ts.SyntaxKind[node.kind];
}

function keyWritten(name: string): string[] {
  const spellings = new Set([name, name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]);
  const namesProperty = (node: ts.Identifier) => {
    const parent = node.parent;
    if (ts.isBindingElement(parent)) return parent.propertyName === node || (parent.propertyName === undefined && parent.name === node);
    return (
      (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
      ts.isShorthandPropertyAssignment(parent) ||
      ((ts.isPropertyAssignment(parent) ||
        ts.isPropertyDeclaration(parent) ||
        ts.isPropertySignature(parent) ||
        ts.isMethodDeclaration(parent) ||
        ts.isGetAccessorDeclaration(parent)) &&
        parent.name === node)
    );
  };
  return PARTS.flatMap((part) =>
    fs
      .readdirSync(path.join(root, part), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .flatMap((file) => {
        const text = fs.readFileSync(path.join(root, part, file), "utf8");
        // Parsed only where the text holds a spelling at all: most modules do not.
        if (![...spellings].some((spelling) => text.includes(spelling))) return [];
        const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
        const found: string[] = [];
        const visit = (node: ts.Node): void => {
          const written =
            ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && spellings.has(node.text)) ||
            (ts.isIdentifier(node) && spellings.has(node.text) && namesProperty(node));
          if (written) {
            const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
            found.push(`${part}/${file}:${line + 1}: ${described(node.parent)}`);
          }
          ts.forEachChild(node, visit);
        };
        visit(source);
        return found;
      }),
  );
}

describe("a field fact", () => {
  it("the set of write-only, read-only or presence-flag fields of any type is the sdk's, derived nowhere else", () => {
    expect(matching(/SOURCE_TYPES\.flatMap\(\(\w+\) => (writeOnlyFields|readOnlyFields|secretPresenceFlags)\(/)).toEqual([]);
  });

  it("whether a value is a deployment type is the sdk's isSourceType", () => {
    expect(matching(/\(SOURCE_TYPES as readonly unknown\[\]\)\.includes|SOURCE_TYPES\.find\(\(\w+\) => \w+ === /)).toEqual([]);
  });

  it("a type's defaults are the sdk's deploymentDefaults", () => {
    expect(matching(/\.filter\(\(field\) => "default" in field\)/)).toEqual([]);
  });

  it("what is secret is the table's secret mark: the plugin marks on the wire (SECRET_PATHS) what its schema marks secret", () => {
    type Properties = Record<string, { secret?: boolean }>;
    const schema = packageSchema("0.0.0") as {
      resources: Record<string, { properties: Properties }>;
      types: Record<string, { properties: Properties }>;
    };
    const secretIn = (properties: Properties) => Object.keys(properties).filter((name) => properties[name]!.secret);
    const deploymentTypes = Object.entries(schema.types).filter(([token]) => token.endsWith("Deployment"));
    const inSchema = new Set([
      ...secretIn(schema.resources[SOURCE_TOKEN]!.properties),
      ...deploymentTypes.flatMap(([, type]) => secretIn(type.properties).map((name) => `deployment.${name}`)),
    ]);
    expect(new Set(SECRET_PATHS.map((path) => path.join(".")))).toEqual(inSchema);
  });

  it("the dynamic Source's declared outputs are described as the table describes them", () => {
    const text = fs.readFileSync(path.join(root, "provider/src/dynamic/source.ts"), "utf8");
    const comments = new Map([...text.matchAll(/\/\*\* (.+?) \*\/\s+declare readonly (\w+)/g)].map((m) => [m[2]!, m[1]!]));
    const described = sourceAttributeDescriptors.filter((field) => field.description !== undefined);
    expect(described.length).toBeGreaterThan(0);
    for (const field of described)
      expect(comments.get(field.name)?.slice(0, field.description!.length), field.name).toBe(field.description);
  });

  it("the dynamic Source's secrets input is named once (the sdk's DYNAMIC_SECRETS_KEY), and the Source class declares that output", () => {
    // The one place the name is written again: the Source class's declared output, which a class
    // member must spell out (a computed name is no declaration the compiler keeps).
    expect(keyWritten(DYNAMIC_SECRETS_KEY)).toEqual([
      expect.stringMatching(/^provider\/src\/dynamic\/source\.ts:\d+: declare readonly property of class Source$/),
    ]);
  });

  describe("in the plugin's schema, written once from the descriptor", () => {
    /** Every descriptor a schema property is made of: each type's deployment fields, the Source's attributes, the options. */
    const descriptors: FieldDescriptor[] = [
      ...SOURCE_TYPES.flatMap((type) => deploymentFieldDescriptors(type)),
      ...sourceAttributeDescriptors,
      ...PROVIDER_OPTION_DESCRIPTORS,
    ];
    type Property = { default?: unknown; description?: string };
    const schema = packageSchema("0.0.0") as {
      resources: Record<string, { inputProperties: Record<string, Property>; requiredInputs: string[] }>;
      types: Record<string, { properties: Record<string, Property> }>;
    };
    const properties: [string, Property][] = [
      ...Object.entries(schema.resources[SOURCE_TOKEN]!.inputProperties),
      ...Object.entries(schema.types).flatMap(([token, type]) =>
        Object.entries(type.properties).map(([name, p]): [string, Property] => [`${token}.${name}`, p]),
      ),
    ];

    it("a default: the descriptor's, which no description restates (the schema writes it once, `Default ...`)", () => {
      expect(
        descriptors.filter((field) => field.default !== undefined && /\bDefault\b/.test(field.description ?? "")).map((f) => f.name),
      ).toEqual([]);
      const withDefault = properties.filter(([, property]) => property.default !== undefined);
      expect(withDefault.length).toBeGreaterThan(0);
      for (const [name, property] of withDefault) expect(property.description?.match(/\bDefault\b/g), name).toHaveLength(1);
      expect(schema.resources[SOURCE_TOKEN]!.inputProperties.deploymentTimeoutSeconds!.description).toBe(
        "How long to wait for the deployment, in seconds (1 to 3600). Default `300`.",
      );
    });

    it("that a write-only field is never returned: its mark, which no description restates", () => {
      const writeOnly = descriptors.filter((field) => field.writeOnly);
      expect(writeOnly.length).toBeGreaterThan(0);
      expect(writeOnly.filter((field) => /never returned/i.test(field.description ?? "")).map((f) => f.name)).toEqual([]);
      const stated = properties.filter(([, property]) => /never return/i.test(property.description ?? ""));
      expect(stated.length).toBeGreaterThan(0);
      for (const [name, property] of stated) expect(property.description?.match(/never return/gi), name).toHaveLength(1);
    });

    it("what a create must give: one rule (what the schemas cannot parse absent), which the descriptors' `required` agrees with", () => {
      expect(schema.resources[SOURCE_TOKEN]!.requiredInputs).toEqual(["name", "deployment"]);
      const absentRefused = (member: { safeParse(value: unknown): { success: boolean } }) => !member.safeParse(undefined).success;
      for (const field of PROVIDER_OPTION_DESCRIPTORS)
        expect(field.required, field.name).toBe(
          absentRefused(providerOptionsSchema.shape[field.name as keyof typeof providerOptionsSchema.shape]),
        );
      for (const field of sourceAttributeDescriptors.filter((f) => !f.readOnly)) {
        expect(field.required, field.name).toBe(REQUIRED_SOURCE_CREATE_ATTRIBUTES.includes(field.apiName));
        expect(field.required, field.name).toBe(absentRefused(sourceCreateAttributesSchema.shape[field.apiName as "name"]));
      }
    });
  });
});
