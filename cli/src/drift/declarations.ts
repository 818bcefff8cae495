// The declaration that matches a live Source, in the stack's own language, printed by Pulumi's own
// import code generation: `pulumi import --file ... --out ...` of the drifted native Sources, each
// under its resource name, into a throwaway stack on a throwaway local backend, from a copy of the
// project's Pulumi.yaml in a temporary folder. The import only reads the Sources (the engine's
// Read); the reviewed stack, its backend and the project's folder are not touched. The provider
// finds the API through ASSET_DELIVERY_BASE_URL and ASSET_DELIVERY_API_KEY in the child's
// environment, never on a command line.
//
// Secrets are never printed: the code refers to config instead. The API never returns write-only
// values (the generator writes "" for a required one), and a value the program passes as a secret
// (e.g. `deployment.s3AccessKey` from secret config) comes back in plain text: each becomes a read
// of a secret config key. A write-only field the Source holds (its flag says so: `password_set`; a
// field without a flag is one its type requires) is added the same way, so that the declaration
// keeps it; one it does not hold is left out, and so is its config key. A declaration in which a
// secret would still appear is not printed.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isMap, isScalar, isSeq, parseDocument, visit, type Document } from "yaml";
import { camelCase, holdsSecret, isPlainObject, writeOnlyFields, type Source } from "@asset-delivery/sdk";
import { secretConfigKey } from "../sources/secret-config-key";
import { ENV_VARS, NATIVE_SOURCE_TYPE, toPulumiNames, writeOnlyFieldNames } from "@asset-delivery/provider";
import { declarableDeployment, type ProviderSettings } from "@asset-delivery/provider/core";
import type { DeclaredSource } from "./declared-state";
import type { GeneratedDeclaration } from "./report";

export interface LiveDeclared {
  declared: DeclaredSource;
  live: Source;
}

export type DeclarationsOutcome = { declarations: Map<string, GeneratedDeclaration> } | { unavailable: string };

/** Runs Pulumi's import code generation for `sources` (native, declared in the program) and returns each one's code, by resource name. */
export async function generatedDeclarations(
  workDir: string,
  sources: readonly LiveDeclared[],
  settings: Pick<ProviderSettings, "baseUrl" | "apiKey">,
): Promise<DeclarationsOutcome> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-drift-"));
  try {
    const { runtime, folder } = copyProject(workDir, scratch);
    const language = LANGUAGES[runtime];
    if (!language) return { unavailable: `a declaration in ${runtime} cannot be printed here: run \`pulumi import\` for it` };
    const stateDir = path.join(scratch, "state");
    fs.mkdirSync(stateDir);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PULUMI_BACKEND_URL: `file://${stateDir}`,
      PULUMI_CONFIG_PASSPHRASE: randomBytes(16).toString("hex"),
      [ENV_VARS.baseUrl]: settings.baseUrl,
      [ENV_VARS.apiKey]: settings.apiKey,
    };
    delete env.PULUMI_CONFIG_PASSPHRASE_FILE;
    const importFile = path.join(scratch, "import.json");
    const resources = sources.map(({ declared }) => ({ type: NATIVE_SOURCE_TYPE, name: declared.name, id: declared.id }));
    fs.writeFileSync(importFile, JSON.stringify({ resources }));
    const out = path.join(scratch, "declarations.out");
    await pulumi(["stack", "init", "drift-keep"], folder, env);
    // Into the throwaway stack, for real (not --preview-only): the code then has no `import` option.
    await pulumi(["import", "--stack", "drift-keep", "--file", importFile, "--out", out, "--protect=false", "--yes"], folder, env);
    const code = fs.readFileSync(out, "utf8");
    const declarations = new Map<string, GeneratedDeclaration>();
    for (const source of sources) {
      const secrets = secretsOf(source);
      const generated = language.declaration(code, source.declared.name, secrets);
      const leaked = [...secrets.map(({ value }) => value), ...declaredSecretValues(source.declared)].some(
        (value) => value !== undefined && value !== "" && generated.code.includes(value),
      );
      if (generated.found && !leaked)
        declarations.set(source.declared.name, { language: runtime, code: generated.code, secretConfig: generated.secretConfig });
    }
    return { declarations };
  } catch (error) {
    return { unavailable: (error as Error).message };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** A secret of a Source as the code reads it from config: a write-only field, or a value the program passes as a secret. */
interface SecretField {
  /** The camelCase path in the Source's arguments, e.g. `["deployment", "password"]`. */
  path: string[];
  /** The config key the code reads it from: `photosPassword`. */
  key: string;
  /** The live value, where the API returns it (never for a write-only field). */
  value?: string;
}

/** The secrets a declaration of the live Source reads from config: the write-only fields it holds, and the values the program passes as secrets. */
export function secretsOf({ declared, live }: LiveDeclared): SecretField[] {
  const { deployment } = live.attributes;
  // As the program declares them: the resource's names.
  const liveArgs = toPulumiNames({ name: live.attributes.name, enabled: live.attributes.enabled, deployment: declarableDeployment(live) });
  const writeOnly = writeOnlyFieldNames(deployment.type);
  // Held unless the API says it is not: a field it does not report is kept in the declaration.
  const held = writeOnlyFields(deployment.type)
    .filter((field) => holdsSecret(deployment, field) !== false)
    .map((field) => ({ path: ["deployment", camelCase(field)], key: secretConfigKey(declared.name, camelCase(field)) }));
  const passed = declared.secretPaths
    .filter((secretPath) => !(secretPath.length === 2 && secretPath[0] === "deployment" && writeOnly.includes(secretPath[1]!)))
    .flatMap((secretPath) => {
      const value = valueAt(liveArgs, secretPath);
      if (typeof value !== "string") return [];
      return [{ path: secretPath, key: secretConfigKey(declared.name, secretPath[secretPath.length - 1]!), value }];
    });
  return [...held, ...passed];
}

/** The plaintext of every secret the stack declares for the Source: none may reach the code, whatever the generator did. */
function declaredSecretValues({ inputs: declared, secretPaths }: DeclaredSource): string[] {
  // The resource's names, which the secret paths are in.
  const inputs = toPulumiNames(declared);
  const leaves = (value: unknown): string[] =>
    typeof value === "string"
      ? [value]
      : Array.isArray(value)
        ? value.flatMap(leaves)
        : isPlainObject(value)
          ? Object.values(value).flatMap(leaves)
          : [];
  const deployment = inputs.deployment as Record<string, unknown>;
  const writeOnly = writeOnlyFieldNames(deployment.type).map((field) => deployment[field]);
  return [...leaves(writeOnly), ...secretPaths.flatMap((at) => leaves(valueAt(inputs, at)))];
}

function valueAt(value: unknown, at: readonly string[]): unknown {
  return at.reduce<unknown>((inner, key) => (isPlainObject(inner) ? inner[key] : undefined), value);
}

/** One resource's code out of the generated code, and the secret config keys it reads (each once). */
interface Declaration {
  found: boolean;
  code: string;
  secretConfig: string[];
}

interface Language {
  /** The code of one resource out of the generated code, its secrets read from config. */
  declaration(code: string, name: string, secrets: readonly SecretField[]): Declaration;
}

const LANGUAGES: Readonly<Record<string, Language>> = {
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

const PROJECT_FILES = ["Pulumi.yaml", "Pulumi.yml"];

/**
 * The project's Pulumi.yaml, without its program (a YAML program's resources, the declared config)
 * and with its relative paths (plugins found by path, a virtual environment) made absolute, in
 * `scratch/project`: the plugin and the language host run as they do for the project.
 */
function copyProject(workDir: string, scratch: string): { runtime: string; folder: string } {
  const file = PROJECT_FILES.map((name) => path.join(workDir, name)).find((candidate) => fs.existsSync(candidate));
  if (!file) throw new Error(`no Pulumi.yaml in ${workDir}`);
  const document = parseDocument(fs.readFileSync(file, "utf8"));
  const absolute = (at: (string | number)[]) => {
    const value = document.getIn(at);
    if (typeof value === "string") document.setIn(at, path.resolve(workDir, value));
  };
  for (const kind of ["providers", "languages", "analyzers"]) {
    const list = document.getIn(["plugins", kind], true);
    for (let index = 0; index < (isSeq(list) ? list.items.length : 0); index++) absolute(["plugins", kind, index, "path"]);
  }
  absolute(["runtime", "options", "virtualenv"]);
  for (const key of ["config", "resources", "variables", "outputs", "stackConfigDir", "main"]) document.delete(key);
  const runtime = document.get("runtime");
  const name = typeof runtime === "string" ? runtime : document.getIn(["runtime", "name"]);
  if (typeof name !== "string") throw new Error(`${file} names no runtime`);
  const folder = path.join(scratch, "project");
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, "Pulumi.yaml"), document.toString());
  return { runtime: name, folder };
}

/** Runs the Pulumi CLI on PATH; a failure is told by its `error:` lines only (its output holds what it read from the API). */
function pulumi(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      "pulumi",
      [...args, "--non-interactive", "--color=never"],
      { cwd, env, maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        const lines = stderr
          .split("\n")
          .map((line) => line.trim())
          .filter((line) => line.startsWith("error:"));
        reject(new Error(`pulumi ${args[0]} failed: ${lines.join("; ") || `exit ${String(error.code)}`}`));
      },
    );
  });
}
