// `asset-delivery import --from-terraform STATE`: Sources managed by Terraform or OpenTofu with a
// community provider (providers.ts), brought under a Pulumi stack with no write to the API. Each
// Source of the state is read by its id from the service (the live Source is the truth; the state
// gives only the address, for the name, and the secrets, which the API never returns), then declared
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
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import {
  camelCase,
  NotFoundError,
  pacingLimits,
  requiredWriteOnlyFields,
  WRITE_ONLY_DEPLOYMENT_FIELDS,
  writeOnlyFields,
  type Source,
} from "@asset-delivery/sdk";
import { declarationOf, NATIVE_SOURCE_TYPE, PULUMI_INSTRUCTIONS, pulumiConfigReader, TRUSTED_SECRETS_KEY } from "@asset-delivery/provider";
import { connect, parseTrustedSecrets, resolveSettings, TrustedSecretsError, type ProviderSettings } from "@asset-delivery/provider/core";
import { DriftError, explainFailure } from "../../drift/failure";
import { readStack } from "../../drift/stack";
import { fromDeclarations, fromImportFile, fromState, type Existing } from "../existing";
import { parsedDeclarations, readImportFile } from "../index";
import { baseName, uniqueName } from "../names";
import { addDeclarations, configSizeProblem, stackConfigFile } from "../stack-config";
import { carriedSettings, type CarriedSettings } from "./settings";
import { parseTerraformState, type TerraformSource } from "./state";
import { renderTerraformReport, type Skipped, type TerraformImported } from "./report";
import { setSecretConfig, type SecretSetting } from "./secret-config";

export { parseTerraformState, type TerraformSource } from "./state";
export { TERRAFORM_SOURCE_KINDS, RENAMED_DEPLOYMENT_ATTRIBUTES } from "./providers";

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
  const { state, config } = await readStack(options.stack, workDir);
  const project = await (await LocalWorkspace.create({ workDir })).projectSettings();
  const sourcesKey = `${project.name}:sources`;
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
  const declaredBefore: Pick<TerraformImported, "live" | "secrets">[] = [];
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
      if (!managed.has(source.id)) declaredBefore.push({ live: found, secrets: secretsOf(source, found).secrets });
    } else {
      const name = uniqueName(baseName(source.nameParts.join(" ")), existing.names);
      imported.push({ source, live: found, name, settings: carriedSettings(source), ...secretsOf(source, found) });
    }
    seen.set(source.id, source.address);
  }

  const native = options.format === "pulumi-import";
  // sourcesFromConfig reads <project>:sourceSecrets.<name>.<field>; a native program, one key per secret.
  const secretKey = (name: string, field: string) =>
    native
      ? `${name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())}${field[0]!.toUpperCase()}${field.slice(1)}`
      : `sourceSecrets.${name}.${field}`;
  const secrets: SecretSetting[] = imported.flatMap(({ name, secrets: held }) =>
    Object.entries(held).map(([field, value]) => ({ key: secretKey(name, field), value, path: !native })),
  );

  const trust = options.trustStateSecrets === true;
  const trusted = trust ? trustedRecord(config[TRUSTED_SECRETS_KEY], [...imported, ...declaredBefore]) : undefined;
  // Set with the secrets, after the checks that may refuse the import (alone when only Sources declared before are trusted).
  const trustSetting: SecretSetting[] = trusted ? [{ key: TRUSTED_SECRETS_KEY, value: JSON.stringify(trusted), path: false }] : [];

  let target: string;
  if (native) {
    if (imported.length > 0) {
      const resources = imported.map(({ name, live: source }) => ({ type: NATIVE_SOURCE_TYPE, name, id: source.id }));
      const whole = { resources: [...importFile!.resources, ...resources] };
      setSecretConfig(workDir, options.stack, [...trustSetting, ...secrets], env);
      fs.writeFileSync(outFile, JSON.stringify(whole, null, 2) + "\n");
    }
    target = path.relative(process.cwd(), outFile) || outFile;
  } else {
    const entries = Object.fromEntries(imported.map(({ name, live: source, settings }) => [name, declarationFor(source, settings)]));
    const stackConfigDir = "stackConfigDir" in project && typeof project.stackConfigDir === "string" ? project.stackConfigDir : undefined;
    const configFile = stackConfigFile(workDir, options.stack, stackConfigDir);
    if (imported.length > 0) {
      const problem = configSizeProblem(config, sourcesKey, { ...declared, ...entries });
      if (problem) throw new DriftError(problem);
      setSecretConfig(workDir, options.stack, [...trustSetting, ...secrets], env);
      addDeclarations(configFile, sourcesKey, entries);
    }
    target = `${path.relative(workDir, configFile)} (${sourcesKey})`;
  }
  if (imported.length === 0 && trustSetting.length > 0) setSecretConfig(workDir, options.stack, trustSetting, env);
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
    declaredBefore: trusted ? declaredBefore.filter(({ secrets: held }) => Object.keys(held).length > 0).length : 0,
    limits: pacingLimits(settings.pacing),
  });
  return { imported, skipped, report };
}

/** The declaration of `sourcesFromConfig`: the Source as the server has it, adopted by id, with Terraform's settings. */
function declarationFor(source: Source, settings: CarriedSettings): Record<string, unknown> {
  const { adoptSourceId, ...args } = declarationOf(source).args;
  return { ...args, ...settings.options, adoptSourceId };
}

/** The state's values of the Source's write-only fields (camelCase), where the live Source's type has them. */
function secretsOf(source: TerraformSource, live: Source): Pick<TerraformImported, "secrets" | "secretNotes" | "secretsMissing"> {
  const type = live.attributes.deployment.type;
  const secrets: Record<string, string> = {};
  const secretNotes: string[] = [];
  const ofType = new Set(writeOnlyFields(type));
  const stateType = source.deployment.type;
  for (const [field, value] of Object.entries(source.deployment)) {
    if (typeof value !== "string" || value === "" || !isWriteOnlyAnywhere(field)) continue;
    if (ofType.has(field)) secrets[camelCase(field)] = value;
    else secretNotes.push(`${field}: not a field of a ${type} Source (the state's type is ${String(stateType)}); not carried over`);
  }
  const secretsMissing = requiredWriteOnlyFields(type)
    .map((field) => camelCase(field))
    .filter((field) => !(field in secrets));
  return { secrets, secretNotes, secretsMissing };
}

const isWriteOnlyAnywhere = (field: string) => WRITE_ONLY_DEPLOYMENT_FIELDS.has(field);

/**
 * `assetdelivery:trustedSecrets` with the imported Sources' secrets added (by Source id; what an
 * earlier import recorded for other Sources kept), or undefined when none has secrets.
 */
function trustedRecord(
  existing: string | undefined,
  imported: readonly Pick<TerraformImported, "live" | "secrets">[],
): Record<string, Record<string, string>> | undefined {
  const withSecrets = imported.filter(({ secrets }) => Object.keys(secrets).length > 0);
  if (withSecrets.length === 0) return undefined;
  let earlier;
  try {
    earlier = parseTrustedSecrets(existing, PULUMI_INSTRUCTIONS);
  } catch (error) {
    if (!(error instanceof TrustedSecretsError)) throw error;
    throw new DriftError(`the stack's ${error.message}: fix or remove it, then run the import again`, { cause: error });
  }
  // The record speaks the API's names (`s3_secret_key`), the config keys the resource's (`s3SecretKey`).
  const onServer = ({ live, secrets }: Pick<TerraformImported, "live" | "secrets">) =>
    Object.fromEntries(
      writeOnlyFields(live.attributes.deployment.type).flatMap((field) => {
        const value = secrets[camelCase(field)];
        return value === undefined ? [] : [[field, value]];
      }),
    );
  return { ...Object.fromEntries(earlier), ...Object.fromEntries(withSecrets.map((imported) => [imported.live.id, onServer(imported)])) };
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

/** Each Source of the state as the server has it now (undefined: gone), in the state's order. */
async function readLive(sources: readonly TerraformSource[], settings: ProviderSettings) {
  const connection = connect(settings);
  try {
    return await Promise.all(
      sources.map(async ({ id }) => {
        try {
          return await connection.client.sources.get(id);
        } catch (error) {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        }
      }),
    );
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
