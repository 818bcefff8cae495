// `asset-delivery import --from-terraform STATE`: Sources managed by Terraform or OpenTofu with a
// community provider (providers.ts), brought under a Pulumi stack with no write to the API. Each
// Source of the state is read from the service, in the account's listing (the live Source is the
// truth; the state gives only the address, for the name, and the secrets, which the API never
// returns), then declared for the stack: Pulumi's bulk import file for the native resource, or `<project>:sources` with
// `adoptSourceId` for `sourcesFromConfig`. The secrets go into the stack's configuration as Pulumi
// secrets; Terraform's settings are carried over where Pulumi has one; and the report says how to
// make Terraform forget the Sources without disabling them. The API never returns a secret, so the
// first `up` sends each Source's secrets once (the report says how many updates and the least time
// the hourly budget gives them), unless `trustStateSecrets`: the user says the server holds what
// the state holds, and `assetdelivery:trustedSecrets` records it by Source id for the provider
// (provider/src/core/trusted-secrets.ts).
import * as path from "node:path";
import { pacingLimits } from "@asset-delivery/sdk";
import { readStack } from "../../drift/stack";
import { fromDeclarations, fromImportFile, fromState, type Existing } from "../existing";
import { parsedDeclarations, readImportFile } from "../index";
import { readTerraformState } from "./input";
import { readLive, settingsOf } from "./live";
import { renderTerraformReport, type Skipped, type TerraformImported } from "./report";
import { selectSources } from "./selection";
import { terraformSecretKey } from "./state-secrets";
import { writeImport } from "./write";

export { parseTerraformState, type TerraformSource } from "./state";
export { TERRAFORM_SOURCE_KINDS, RENAMED_DEPLOYMENT_ATTRIBUTES } from "./providers";
export { pruneTrustedSecrets } from "./trusted-record";
export { terraformSecretKey } from "./state-secrets";

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
  // The state is checked whole before the stack or the API is touched.
  const { origin, sources } = await readTerraformState(options.statePath);

  const workDir = path.resolve(options.workDir);
  const { state, config, project, configFile } = await readStack(options.stack, workDir);
  const native = options.format === "pulumi-import";
  const sourcesKey = `${project.name}:sources`;
  // What the stack manages, and what an earlier import declared for it (not managed yet).
  const existing: Existing = { ids: new Set(), names: new Set() };
  fromState(state, existing);
  const managed = new Set(existing.ids);
  const importFile = path.resolve(workDir, options.out ?? "import.json");
  const earlierImport = native ? readImportFile(importFile) : { resources: [] };
  const declared = native ? {} : parsedDeclarations(config[sourcesKey], sourcesKey);
  if (native) fromImportFile(earlierImport, existing);
  else fromDeclarations(declared, existing);

  const settings = settingsOf(config, env);
  const selection = selectSources(sources, await readLive(sources, settings), existing, managed, options.stack);
  const runtime = typeof project.runtime === "string" ? project.runtime : (project.runtime?.name ?? "nodejs");
  const trusted = options.trustStateSecrets === true;
  const { target, earlier, record } = writeImport(
    { file: configFile, stack: options.stack, workDir, env, config, project: project.name, runtime, native, declared },
    { file: importFile, content: earlierImport },
    selection,
    managed,
    trusted,
  );
  const report = renderTerraformReport({
    origin,
    stack: options.stack,
    target,
    native,
    runtime,
    imported: selection.imported,
    skipped: selection.skipped,
    secretKey: (name, field) => terraformSecretKey(native, name, field),
    all: sources,
    trusted,
    declaredBefore: trusted ? selection.declaredBefore.filter(({ live }) => live.id in record).length : 0,
    recordPruned: Object.keys(earlier).filter((id) => managed.has(id)).length,
    recordKept: Object.keys(record).length,
    limits: pacingLimits(settings.pacing),
  });
  return { imported: selection.imported, skipped: selection.skipped, report };
}
