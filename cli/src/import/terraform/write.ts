// What the import writes, once the Sources are chosen: the state's secrets and the trusted record
// into the stack's configuration (secret-config.ts), and the declarations, into Pulumi's import
// file (native) or `<project>:sources` (sourcesFromConfig). Checked first, all of it as the program
// will be handed it: a stack whose configuration Pulumi cannot hand its program is refused, and
// nothing is written.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Source } from "@asset-delivery/sdk";
import { declarationOf, NATIVE_SOURCE_TYPE, TRUSTED_SECRETS_KEY } from "@asset-delivery/provider";
import { DriftError } from "../../drift/failure";
import type { PulumiImportFile } from "../existing";
import { addDeclarations, configSizeProblem } from "../stack-config";
import type { CarriedSettings } from "./settings";
import { writeSecretConfig, type StackConfigTarget } from "./secret-config";
import type { Selection } from "./selection";
import { secretSettings, withSecrets } from "./state-secrets";
import { earlierRecord, recordSetting, trustedRecord, writeRecord, type TrustedRecord } from "./trusted-record";

export interface Destination extends StackConfigTarget {
  /** The stack's configuration as read (full key → value, secrets decrypted). */
  config: Record<string, string>;
  project: string;
  /** The project's runtime (`nodejs`, `yaml`, ...). */
  runtime: string;
  /** Pulumi's import file for the native resource (else `<project>:sources`). */
  native: boolean;
  /** `<project>:sources` as declared before (sourcesFromConfig). */
  declared: Record<string, unknown>;
}

export interface Written {
  /** Where the declarations went, as the report names it. */
  target: string;
  /** The trusted record before, and as written. */
  earlier: TrustedRecord;
  record: TrustedRecord;
}

/** `managed`: the ids the stack's state manages (their entries leave the record); `trust`: --trust-state-secrets. */
export function writeImport(
  destination: Destination,
  /** Pulumi's import file, and what an earlier import wrote to it (native). */
  importFile: { file: string; content: PulumiImportFile },
  selection: Selection,
  managed: ReadonlySet<string>,
  trust: boolean,
): Written {
  const { config, project, native } = destination;
  const { imported } = selection;
  const sourcesKey = `${project}:sources`;
  const secrets = secretSettings(project, native, imported);
  // Every import drops the entries of Sources the state now manages; with --trust-state-secrets it adds the state's.
  const earlier = earlierRecord(config[TRUSTED_SECRETS_KEY]);
  const record = trustedRecord(earlier, managed, trust ? [...imported, ...selection.declaredBefore] : []);
  const recordChanged = JSON.stringify(record) !== JSON.stringify(earlier);
  const entries = Object.fromEntries(imported.map(({ name, live, settings }) => [name, declarationFor(live, settings)]));

  const written: Record<string, string> = Object.keys(record).length > 0 ? { [TRUSTED_SECRETS_KEY]: JSON.stringify(record) } : {};
  if (native) for (const { key, value } of secrets) written[key] = value;
  else if (imported.length > 0) {
    written[sourcesKey] = JSON.stringify({ ...destination.declared, ...entries });
    written[`${project}:sourceSecrets`] = JSON.stringify(withSecrets(config[`${project}:sourceSecrets`], secrets));
  }
  // Pulumi hands a program its configuration in one environment variable, but a YAML one (its host evaluates it).
  const { [TRUSTED_SECRETS_KEY]: _replaced, ...kept } = config;
  const problem =
    (!native || destination.runtime !== "yaml") &&
    (imported.length > 0 || recordChanged) &&
    configSizeProblem(
      { ...kept, ...written },
      "This import (its declarations, the state's secrets and the trusted record)",
      "import the state's Sources into several stacks (a state per stack, or a module's resources at a time)",
    );
  if (problem) throw new DriftError(problem);

  writeSecretConfig(destination, [...(recordChanged && Object.keys(record).length > 0 ? [recordSetting(record)] : []), ...secrets]);
  if (recordChanged && Object.keys(record).length === 0) writeRecord(destination, record);
  if (native) {
    if (imported.length > 0) {
      const resources = imported.map(({ name, live }) => ({ type: NATIVE_SOURCE_TYPE, name, id: live.id }));
      fs.writeFileSync(importFile.file, JSON.stringify({ resources: [...importFile.content.resources, ...resources] }, null, 2) + "\n");
    }
    return { target: path.relative(process.cwd(), importFile.file) || importFile.file, earlier, record };
  }
  if (imported.length > 0) addDeclarations(destination.file, sourcesKey, entries);
  return { target: `${path.relative(destination.workDir, destination.file)} (${sourcesKey})`, earlier, record };
}

/** The declaration of `sourcesFromConfig`: the Source as the server has it, adopted by id, with Terraform's settings. */
function declarationFor(source: Source, settings: CarriedSettings): Record<string, unknown> {
  const { adoptSourceId, ...args } = declarationOf(source).args;
  return { ...args, ...settings.options, adoptSourceId };
}
