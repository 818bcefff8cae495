// `asset-delivery import --from-terraform STATE`: Sources managed by Terraform or OpenTofu with a
// community provider (providers.ts), brought under a Pulumi stack with no write to the API. Each
// Source of the state is read from the service, in the account's listing (the live Source is the
// truth; the state gives only the address, for the name, and the secrets, which the API never
// returns), then declared
// for the stack: Pulumi's bulk import file for the native resource, or `<project>:sources` with
// `adoptSourceId` for `sourcesFromConfig`. The secrets go into the stack's configuration as Pulumi
// secrets; Terraform's settings are carried over where Pulumi has one; and the report says how to
// make Terraform forget the Sources without disabling them. The API never returns a secret, so the
// first `up` sends each Source's secrets once (the report says how many updates and the least time
// the hourly budget gives them), unless `trustStateSecrets`: the user says the server holds what
// the state holds, and `assetdelivery:trustedSecrets` records it by Source id for the provider
// (provider/src/core/trusted-secrets.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import {
  camelCase,
  holdsSecret,
  pacingLimits,
  requiredWriteOnlyFields,
  WRITE_ONLY_DEPLOYMENT_FIELDS,
  writeOnlyFields,
  type Source,
} from "@asset-delivery/sdk";
import { declarationOf, NATIVE_SOURCE_TYPE, PULUMI_INSTRUCTIONS, pulumiConfigReader, TRUSTED_SECRETS_KEY } from "@asset-delivery/provider";
import { connect, resolveSettings, type ProviderSettings } from "@asset-delivery/provider/core";
import { DriftError, explainFailure } from "../../drift/failure";
import { readStack } from "../../drift/stack";
import { fromDeclarations, fromImportFile, fromState, type Existing } from "../existing";
import { parsedDeclarations, readImportFile } from "../index";
import { baseName, uniqueName } from "../names";
import { secretConfigKey } from "../../sources/secret-config-key";
import { addDeclarations, configSizeProblem } from "../stack-config";
import { carriedSettings, type CarriedSettings } from "./settings";
import { parseTerraformState, type TerraformSource } from "./state";
import { renderTerraformReport, type Skipped, type TerraformImported } from "./report";
import { writeSecretConfig, type SecretSetting } from "./secret-config";
import { earlierRecord, recordSetting, trustedRecord, writeRecord } from "./trusted-record";

export { parseTerraformState, type TerraformSource } from "./state";
export { TERRAFORM_SOURCE_KINDS, RENAMED_DEPLOYMENT_ATTRIBUTES } from "./providers";
export { pruneTrustedSecrets } from "./trusted-record";

export const TERRAFORM_IMPORT_FORMATS = ["pulumi-import", "config"] as const;

export interface TerraformImportOptions {
  /** The state file, or `-` for standard input. */
  statePath: string;
  stack: string;
  /** The Pulumi project's folder. */
  workDir: string;
  format: (typeof TERRAFORM_IMPORT_FORMATS)[number];
  /** Pulumi's import file (format pulumi-import; default import.json in the project's folder). */
  out?: string;
  env?: NodeJS.ProcessEnv;
  /** The state's secrets count as what the server has: the first `up` sends none of them (trusted-secrets.ts). */
  trustStateSecrets?: boolean;
}

export interface TerraformImportOutcome {
  imported: TerraformImported[];
  skipped: Skipped[];
  report: string;
}

export async function importFromTerraform(options: TerraformImportOptions): Promise<TerraformImportOutcome> {
  const env = options.env ?? process.env;
  const origin = options.statePath === "-" ? "standard input" : options.statePath;
  const text = options.statePath === "-" ? await readStandardInput() : readStateFile(options.statePath);
  // The state is checked whole before the stack or the API is touched.
  const inState = parseTerraformState(text, origin);

  const workDir = path.resolve(options.workDir);
  const { state, config, project, configFile } = await readStack(options.stack, workDir);
  const sourcesKey = `${project.name}:sources`;
  const secretsKey = `${project.name}:sourceSecrets`;
  const existing: Existing = { ids: new Set(), names: new Set() };
  fromState(state, existing);
  const managed = new Set(existing.ids);
  const outFile = path.resolve(workDir, options.out ?? "import.json");
  const importFile = options.format === "pulumi-import" ? readImportFile(outFile) : undefined;
  const declared = options.format === "config" ? parsedDeclarations(config[sourcesKey], sourcesKey) : {};
  if (importFile) fromImportFile(importFile, existing);
  else fromDeclarations(declared, existing);

  const settings = settingsOf(config, env);
  const live = await readLive(inState, settings);
  const imported: TerraformImported[] = [];
  const skipped: Skipped[] = [];
  // Declared by an earlier import, not managed yet: with --trust-state-secrets, trusted all the same.
  const declaredBefore: Pick<TerraformImported, "live" | "secrets" | "secretsNotHeld">[] = [];
  const seen = new Map<string, string>();
  for (const [index, source] of inState.entries()) {
    const found = live[index];
    const twin = seen.get(source.id);
    if (twin) skipped.push({ source, reason: `the same Source as ${twin}` });
    else if (found === undefined) skipped.push({ source, reason: "no longer on the server (404): nothing to take over" });
    else if (found.attributes.deployment_status === "deleted" || (source.enabled && !found.attributes.enabled))
      skipped.push({
        source,
        reason: "retired on the server (disabled, while the state has it enabled): left out, as Terraform destroyed it",
      });
    else if (existing.ids.has(source.id)) {
      skipped.push({ source, reason: `already managed or declared by stack ${options.stack}` });
      if (!managed.has(source.id)) declaredBefore.push({ live: found, ...secretsOf(source, found) });
    } else {
      const name = uniqueName(baseName(source.nameParts.join(" ")), existing.names);
      imported.push({ source, live: found, name, settings: carriedSettings(source), ...secretsOf(source, found) });
    }
    seen.set(source.id, source.address);
  }

  const native = options.format === "pulumi-import";
  const secretKey = (name: string, field: string) => terraformSecretKey(native, name, field);
  const secrets: SecretSetting[] = imported.flatMap(({ name, secrets: held }) =>
    Object.entries(held).map(([field, value]) =>
      native ? { key: `${project.name}:${secretKey(name, field)}`, path: [], value } : { key: secretsKey, path: [name, field], value },
    ),
  );

  const trust = options.trustStateSecrets === true;
  // Every import drops the entries of Sources the state now manages; with --trust-state-secrets it adds the state's.
  const earlier = earlierRecord(config[TRUSTED_SECRETS_KEY]);
  const record = trustedRecord(earlier, managed, trust ? [...imported, ...declaredBefore] : []);
  const recordChanged = JSON.stringify(record) !== JSON.stringify(earlier);
  const stackConfig = { file: configFile, stack: options.stack, workDir, env };
  const entries = Object.fromEntries(imported.map(({ name, live: source, settings }) => [name, declarationFor(source, settings)]));

  // What the program will be handed, as it will be: checked before anything is written.
  const written: Record<string, string> = { ...(Object.keys(record).length > 0 ? { [TRUSTED_SECRETS_KEY]: JSON.stringify(record) } : {}) };
  if (native) for (const { key, value } of secrets) written[key] = value;
  else if (imported.length > 0) {
    written[sourcesKey] = JSON.stringify({ ...declared, ...entries });
    written[secretsKey] = JSON.stringify(withSecrets(config[secretsKey], secrets));
  }
  const { [TRUSTED_SECRETS_KEY]: _replaced, ...kept } = config;
  const problem =
    (imported.length > 0 || recordChanged) &&
    configSizeProblem(
      { ...kept, ...written },
      "This import (its declarations, the state's secrets and the trusted record)",
      "import the state's Sources into several stacks (a state per stack, or a module's resources at a time)",
    );
  if (problem) throw new DriftError(problem);

  writeSecretConfig(stackConfig, [...(recordChanged && Object.keys(record).length > 0 ? [recordSetting(record)] : []), ...secrets]);
  if (recordChanged && Object.keys(record).length === 0) writeRecord(stackConfig, record);
  let target: string;
  if (native) {
    if (imported.length > 0) {
      const resources = imported.map(({ name, live: source }) => ({ type: NATIVE_SOURCE_TYPE, name, id: source.id }));
      fs.writeFileSync(outFile, JSON.stringify({ resources: [...importFile!.resources, ...resources] }, null, 2) + "\n");
    }
    target = path.relative(process.cwd(), outFile) || outFile;
  } else {
    if (imported.length > 0) addDeclarations(configFile, sourcesKey, entries);
    target = `${path.relative(workDir, configFile)} (${sourcesKey})`;
  }
  const runtime = typeof project.runtime === "string" ? project.runtime : (project.runtime?.name ?? "nodejs");
  const report = renderTerraformReport({
    origin,
    stack: options.stack,
    target,
    native,
    runtime,
    imported,
    skipped,
    secretKey,
    all: inState,
    trusted: trust,
    declaredBefore: trust ? declaredBefore.filter(({ live: source }) => source.id in record).length : 0,
    recordPruned: Object.keys(earlier).filter((id) => managed.has(id)).length,
    recordKept: Object.keys(record).length,
    limits: pacingLimits(settings.pacing),
  });
  return { imported, skipped, report };
}

/**
 * The config key a secret of the state goes to, as the report names it: a native program reads one
 * key per secret (the rule drift names them by); sourcesFromConfig, `<project>:sourceSecrets.<name>.<field>`.
 */
export function terraformSecretKey(native: boolean, name: string, field: string): string {
  return native ? secretConfigKey(name, field) : `sourceSecrets.${name}.${field}`;
}

/** The declaration of `sourcesFromConfig`: the Source as the server has it, adopted by id, with Terraform's settings. */
function declarationFor(source: Source, settings: CarriedSettings): Record<string, unknown> {
  const { adoptSourceId, ...args } = declarationOf(source).args;
  return { ...args, ...settings.options, adoptSourceId };
}

/**
 * The state's values of the Source's write-only fields (camelCase), where the live Source's type
 * has them, and those of them the live Source says it lacks (its presence flag, `password_set`):
 * carried over all the same, for the first `up` to send, but never trusted as the server's.
 */
function secretsOf(
  source: TerraformSource,
  live: Source,
): Pick<TerraformImported, "secrets" | "secretNotes" | "secretsMissing" | "secretsNotHeld"> {
  const deployment = live.attributes.deployment;
  const type = deployment.type;
  const secrets: Record<string, string> = {};
  const secretNotes: string[] = [];
  const secretsNotHeld: string[] = [];
  const ofType = new Set(writeOnlyFields(type));
  const stateType = source.deployment.type;
  for (const [field, value] of Object.entries(source.deployment)) {
    if (typeof value !== "string" || value === "" || !isWriteOnlyAnywhere(field)) continue;
    if (!ofType.has(field)) {
      secretNotes.push(`${field}: not a field of a ${type} Source (the state's type is ${String(stateType)}); not carried over`);
      continue;
    }
    secrets[camelCase(field)] = value;
    if (holdsSecret(deployment, field) === false) secretsNotHeld.push(camelCase(field));
  }
  const secretsMissing = requiredWriteOnlyFields(type)
    .map((field) => camelCase(field))
    .filter((field) => !(field in secrets));
  return { secrets, secretNotes, secretsMissing, secretsNotHeld };
}

const isWriteOnlyAnywhere = (field: string) => WRITE_ONLY_DEPLOYMENT_FIELDS.has(field);

/** The stack's `sourceSecrets` (decrypted JSON text) with these secrets set: what the program will read. */
function withSecrets(current: string | undefined, secrets: readonly SecretSetting[]): Record<string, Record<string, string>> {
  const all = structuredClone((current ? JSON.parse(current) : {}) as Record<string, Record<string, string>>);
  for (const {
    path: [name, field],
    value,
  } of secrets)
    all[name!] = { ...all[name!], [field!]: value };
  return all;
}

function settingsOf(config: Record<string, string>, env: NodeJS.ProcessEnv): ProviderSettings {
  try {
    return resolveSettings(
      pulumiConfigReader((key) => config[key]),
      env,
      PULUMI_INSTRUCTIONS,
    );
  } catch (error) {
    throw new DriftError(explainFailure(error, undefined), { cause: error });
  }
}

/**
 * Each Source of the state as the server has it now (undefined: gone), in the state's order: read
 * from the account's listing, 100 a page, as a drift review reads (provider/src/core/read-coalescer.ts),
 * each id once.
 */
async function readLive(sources: readonly TerraformSource[], settings: ProviderSettings): Promise<(Source | undefined)[]> {
  const connection = connect(settings);
  try {
    const ids = [...new Set(sources.map(({ id }) => id))];
    const live = new Map(await Promise.all(ids.map(async (id) => [id, await connection.reads.read(id)] as const)));
    return sources.map(({ id }) => live.get(id));
  } catch (error) {
    throw new DriftError(explainFailure(error, settings.baseUrl), { cause: error });
  } finally {
    await connection.close();
  }
}

function readStateFile(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new DriftError(`cannot read the Terraform state ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
