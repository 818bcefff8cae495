// Per-language surgery on the code Pulumi's import generation printed: one resource's statement cut
// out of it, each secret's literal replaced by a read of its config key, and a held write-only
// field the generator left out added. YAML is edited as a document; TypeScript and Python as
// top-level statements.
import { isMap, isScalar, parseDocument, visit, type Document } from "yaml";
import type { SecretField } from "./secrets";

/** One resource's code out of the generated code, and the secret config keys it reads (each once). */
export interface Declaration {
  found: boolean;
  code: string;
  secretConfig: string[];
}

export interface Language {
  /** The code of one resource out of the generated code, its secrets read from config. */
  declaration(code: string, name: string, secrets: readonly SecretField[]): Declaration;
}

export const LANGUAGES: Readonly<Record<string, Language>> = {
  yaml: { declaration: yamlDeclaration },
  nodejs: statementLanguage({
    starts: (name) => `new assetdelivery.Source(${JSON.stringify(name)}`,
    field: (field) => field,
    read: (key) => `config.requireSecret(${JSON.stringify(key)})`,
    entry: (field, read) => `${field}: ${read},`,
    makeConfig: "const config = new pulumi.Config();",
  }),
  python: statementLanguage({
    starts: (name) => `assetdelivery.Source(${JSON.stringify(name)}`,
    field: (field) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
    read: (key) => `config.require_secret(${JSON.stringify(key)})`,
    entry: (field, read) => `${field}=${read},`,
    makeConfig: "config = pulumi.Config()",
  }),
};

/** Pulumi YAML: the resource's entry, each secret a `${key}` of a secret config value the program declares. */
function yamlDeclaration(code: string, name: string, secrets: readonly SecretField[]): Declaration {
  const document = parseDocument(code);
  const resource = document.getIn(["resources", name], true);
  if (!isMap(resource)) return { found: false, code: "", secretConfig: [] };
  const single = parseDocument("{}");
  single.setIn(["resources", name], resource);
  const used: string[] = [];
  for (const secret of secrets) {
    const at = ["resources", name, "properties", ...secret.path];
    const present = single.getIn(at, true);
    const reference = `\${${secret.key}}`;
    if (isScalar(present) && (present.value === "" || present.value === secret.value)) single.setIn(at, reference);
    else if (present === undefined) single.setIn(at, reference);
    else continue;
    used.push(secret.key);
  }
  // Any other place the value still appears (inside a list) is caught by the caller's check.
  visit(single, {
    Scalar(_key, node) {
      const secret = secrets.find(({ value }) => value !== undefined && node.value === value);
      if (secret) node.value = `\${${secret.key}}`;
    },
  });
  const config = used.length > 0 ? `config:\n${used.map((key) => `  ${key}:\n    type: string\n    secret: true\n`).join("")}` : "";
  return { found: true, code: config + toYaml(single), secretConfig: used };
}

function toYaml(document: Document): string {
  return document.toString({ lineWidth: 0 });
}

interface StatementSyntax {
  /** How the generated code starts the resource's statement. */
  starts(name: string): string;
  /** A deployment field's name in the language. */
  field(camel: string): string;
  /** A read of a secret config value. */
  read(key: string): string;
  /** A member of the deployment's arguments. */
  entry(field: string, read: string): string;
  /** The line that makes `config`. */
  makeConfig: string;
}

/**
 * TypeScript and Python: the imports, then one top-level statement per resource. The resource's
 * statement is kept; a write-only value the generator left empty, or a passed secret's value,
 * becomes a read of config; a write-only field the Source holds, missing from it, is added after the
 * deployment's `type`.
 */
function statementLanguage(syntax: StatementSyntax): Language {
  return {
    declaration(code, name, secrets) {
      const lines = code.split("\n");
      const imports = lines.filter((line) => /^(import |from )/.test(line));
      const statements = topLevelStatements(lines.filter((line) => !imports.includes(line)));
      const statement = statements.find((text) => text.includes(syntax.starts(name)));
      if (statement === undefined) return { found: false, code: "", secretConfig: [] };
      let body = statement;
      const reads: string[] = [];
      for (const secret of secrets) {
        const field = syntax.field(secret.path[secret.path.length - 1]!);
        const read = syntax.read(secret.key);
        const literal = new RegExp(
          `(\\b${field}["']?\\s*[:=]\\s*)(""|${secret.value === undefined ? "(?!)" : escaped(JSON.stringify(secret.value))})`,
        );
        if (literal.test(body)) body = body.replace(literal, (_all, head: string) => `${head}${read}`);
        else if (secret.path[0] === "deployment" && !new RegExp(`\\b${field}\\b`).test(body)) {
          body = body.replace(
            /^(\s*)(["']?type["']?\s*[:=]\s*"[^"]*",)$/m,
            (_all, indent: string, line: string) => `${indent}${line}\n${indent}${syntax.entry(field, read)}`,
          );
        } else continue;
        reads.push(secret.key);
      }
      const header = [...imports, "", ...(reads.length > 0 ? [syntax.makeConfig, ""] : [])];
      return { found: true, code: [...header, body.trim(), ""].join("\n"), secretConfig: reads };
    },
  };
}

/** Lines grouped into top-level statements: one starts at a line without indentation that does not close a bracket. */
function topLevelStatements(lines: readonly string[]): string[] {
  const statements: string[][] = [];
  for (const line of lines) {
    if (line.trim() === "") continue;
    const starts = !/^\s/.test(line) && !/^[)}\]]/.test(line);
    if (starts || statements.length === 0) statements.push([line]);
    else statements[statements.length - 1]!.push(line);
  }
  return statements.map((statement) => statement.join("\n"));
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
