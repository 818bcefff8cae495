// `asset-delivery import`: brings Sources made outside Pulumi under a stack's management. Lists
// the account's Sources (narrowed by the API's filters), leaves out those the stack already manages
// or declares, and declares the rest with `adoptSourceId`, as the server has them: into the stack's
// configuration (`<project>:sources`, read by the root program) or a TypeScript module. Reads the
// API only; writes only the configuration file or the module.
import * as fs from "node:fs";
import * as path from "node:path";
import { isPlainObject, type Source } from "@asset-delivery/sdk";
import { declarationOf, NATIVE_SOURCE_TYPE, PULUMI_INSTRUCTIONS, pulumiConfigReader } from "@asset-delivery/provider";
import { connect, resolveSettings } from "@asset-delivery/provider/core";
import { DriftError, explainFailure } from "../drift/failure";
import { readStack } from "../drift/stack";
import { accountSources } from "../sources/account";
import type { SourceQuery } from "../sources/filters";
import { fromDeclarations, fromImportFile, fromModule, fromState, type Existing, type PulumiImportFile } from "./existing";
import { baseName, uniqueName } from "./names";
import { renderModule, renderReport, type ImportedSource } from "./render";
import { addDeclarations, configSizeProblem } from "./stack-config";

export { renderModule, renderReport, type ImportedSource } from "./render";

export const IMPORT_FORMATS = ["config", "typescript", "pulumi-import"] as const;

export interface ImportOptions {
  stack: string;
  /** The Pulumi project's folder. */
  workDir: string;
  query: SourceQuery;
  format: (typeof IMPORT_FORMATS)[number];
  /** The TypeScript module (format typescript) or Pulumi's import file (format pulumi-import) to write. */
  out?: string;
  dryRun: boolean;
  env?: NodeJS.ProcessEnv;
}

export interface ImportOutcome {
  imported: ImportedSource[];
  /** What was written (or, with dryRun, would be): the configuration's new entries as YAML-ready JSON, or the module text. */
  written: string;
  report: string;
}

export async function importSources(options: ImportOptions): Promise<ImportOutcome> {
  const workDir = path.resolve(options.workDir);
  const { state, config, project, configFile } = await readStack(options.stack, workDir);
  const sourcesKey = `${project.name}:sources`;
  const declared = parsedDeclarations(config[sourcesKey], sourcesKey);
  const outFile = options.out === undefined ? undefined : path.resolve(workDir, options.out);

  const existing: Existing = { ids: new Set(), names: new Set() };
  fromState(state, existing);
  const importFile = options.format === "pulumi-import" ? readImportFile(outFile!) : undefined;
  if (options.format === "config") fromDeclarations(declared, existing);
  else if (importFile) fromImportFile(importFile, existing);
  else fromModule(outFile!, existing);

  const matching = await listAccount(options, config);
  const fresh = matching.filter((source) => !existing.ids.has(source.id)).sort((a, b) => a.id.localeCompare(b.id));
  const imported = fresh.map((source) => ({
    name: uniqueName(baseName(source.attributes.name), existing.names),
    declaration: declarationOf(source),
    type: source.attributes.deployment.type,
  }));

  const common = { stack: options.stack, imported, alreadyManaged: matching.length - fresh.length, dryRun: options.dryRun };
  if (importFile) {
    // For the native plugin: `pulumi import --file FILE` reads each Source (no write) and prints its declaration.
    const resources = imported.map(({ name, declaration }) => ({ type: NATIVE_SOURCE_TYPE, name, id: declaration.args.adoptSourceId }));
    const written = JSON.stringify({ resources: [...importFile.resources, ...resources] }, null, 2) + "\n";
    if (!options.dryRun && imported.length > 0) fs.writeFileSync(outFile!, written);
    const target = path.relative(process.cwd(), outFile!) || outFile!;
    return { imported, written: imported.length > 0 ? written : "", report: renderReport({ ...common, target, importFile: true }) };
  }
  if (options.format === "typescript") {
    const whole = !fs.existsSync(outFile!);
    const written = imported.length > 0 ? renderModule(imported, options.stack, whole) : "";
    if (!options.dryRun && written !== "") fs.appendFileSync(outFile!, whole ? written : `\n${written}`);
    return { imported, written, report: renderReport({ ...common, target: path.relative(process.cwd(), outFile!) || outFile! }) };
  }
  const entries = Object.fromEntries(imported.map(({ name, declaration }) => [name, declaration.args]));
  if (imported.length > 0) {
    const all = { ...declared, ...entries };
    const problem = configSizeProblem(
      { ...config, [sourcesKey]: JSON.stringify(all) },
      `${Object.keys(all).length} Sources' declarations`,
      "import them as code with --format typescript --out FILE, or a part at a time into several stacks with --filter",
    );
    if (problem) throw new DriftError(problem);
  }
  if (!options.dryRun && imported.length > 0) addDeclarations(configFile, sourcesKey, entries);
  const secretCommand = (name: string, field: string) =>
    `pulumi config set --stack ${options.stack} --secret --path 'sourceSecrets.${name}.${field}' <value>`;
  return {
    imported,
    written: imported.length > 0 ? JSON.stringify({ [sourcesKey]: entries }, null, 2) + "\n" : "",
    report: renderReport({ ...common, target: `${path.relative(workDir, configFile)} (${sourcesKey})`, secretCommand }),
  };
}

/** Pulumi's import file at `file`, as written before (or empty). */
export function readImportFile(file: string): PulumiImportFile {
  if (!fs.existsSync(file)) return { resources: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    parsed = undefined;
  }
  const resources = isPlainObject(parsed) ? parsed.resources : undefined;
  const valid =
    Array.isArray(resources) &&
    resources.every((r) => isPlainObject(r) && typeof r.type === "string" && typeof r.name === "string" && typeof r.id === "string");
  if (!valid) throw new DriftError(`${file} is not a Pulumi import file ({"resources": [{"type", "name", "id"}, ...]})`);
  return { resources: resources as PulumiImportFile["resources"] };
}

/** The configured declarations: name → Source arguments (a JSON object in the config's value). */
export function parsedDeclarations(value: string | undefined, key: string): Record<string, unknown> {
  if (value === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  if (!isPlainObject(parsed)) throw new DriftError(`the stack's ${key} is not an object of name → Source arguments`);
  return parsed;
}

async function listAccount(options: ImportOptions, config: Record<string, string>): Promise<Source[]> {
  let settings;
  try {
    settings = resolveSettings(
      pulumiConfigReader((key) => config[key]),
      options.env ?? process.env,
      PULUMI_INSTRUCTIONS,
    );
  } catch (error) {
    throw new DriftError(explainFailure(error, undefined), { cause: error });
  }
  const connection = connect(settings);
  try {
    return await accountSources(connection.client, options.query);
  } catch (error) {
    throw new DriftError(explainFailure(error, settings.baseUrl), { cause: error });
  } finally {
    await connection.close();
  }
}
