// The declaration that matches a live Source, in the stack's own language, printed by Pulumi's own
// import code generation: `pulumi import --file ... --out ...` of the drifted native Sources, each
// under its resource name, into a throwaway stack on a throwaway local backend, from a copy of the
// project's Pulumi.yaml in a temporary folder. The import only reads the Sources (the engine's
// Read); the reviewed stack, its backend and the project's folder are not touched. The provider
// finds the API through ASSET_DELIVERY_BASE_URL and ASSET_DELIVERY_API_KEY in the child's
// environment, never on a command line.
//
// Secrets are never printed: each one's code reads it from config (secrets.ts, code.ts), and a
// declaration in which a secret would still appear is not printed.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isSeq, parseDocument } from "yaml";
import { ENV_VARS, NATIVE_SOURCE_TYPE } from "@asset-delivery/provider";
import type { ProviderSettings } from "@asset-delivery/provider/core";
import type { GeneratedDeclaration } from "../report";
import { LANGUAGES } from "./code";
import { leaksSecret, secretsOf, type LiveDeclared } from "./secrets";

export type { LiveDeclared } from "./secrets";

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
      if (generated.found && !leaksSecret(generated.code, source, secrets))
        declarations.set(source.declared.name, { language: runtime, code: generated.code, secretConfig: generated.secretConfig });
    }
    return { declarations };
  } catch (error) {
    return { unavailable: (error as Error).message };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
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
