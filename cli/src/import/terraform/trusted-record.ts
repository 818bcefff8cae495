// The record `--trust-state-secrets` writes (`assetdelivery:trustedSecrets`, a Pulumi secret; read
// by the provider, provider/src/core/trusted-secrets.ts): Source id → write-only field in the API's
// names → the state's value. It serves one thing, the step that first records a Source in the
// stack's state (`pulumi import`, or the adoption of the first `up`), and is never read again for
// that Source; so each entry goes once the state manages its Source: every import of a state drops
// them, and `asset-delivery import --prune-trusted-secrets` does it alone (the import says so).
import * as fs from "node:fs";
import * as path from "node:path";
import { parseDocument } from "yaml";
import { camelCase, writeOnlyFields, type Source } from "@asset-delivery/sdk";
import { PULUMI_INSTRUCTIONS, TRUSTED_SECRETS_KEY } from "@asset-delivery/provider";
import { parseTrustedSecrets, TrustedSecretsError } from "@asset-delivery/provider/core";
import { DriftError } from "../../drift/failure";
import { readStack } from "../../drift/stack";
import { fromState, type Existing } from "../existing";
import { writeSecretConfig, type SecretSetting, type StackConfigTarget } from "./secret-config";

export type TrustedRecord = Record<string, Record<string, string>>;

/** A Source the import trusts the state's secrets of: camelCase field → value, less those the live Source lacks. */
export interface TrustedSource {
  live: Source;
  secrets: Record<string, string>;
  /** camelCase fields of `secrets` the live Source says it does not hold: never trusted. */
  secretsNotHeld: readonly string[];
}

/** The stack's record as its configuration holds it (decrypted JSON text), refused by name when it is not one. */
export function earlierRecord(setting: string | undefined): TrustedRecord {
  try {
    return Object.fromEntries(parseTrustedSecrets(setting, PULUMI_INSTRUCTIONS));
  } catch (error) {
    if (!(error instanceof TrustedSecretsError)) throw error;
    throw new DriftError(`the stack's ${error.message}: fix or remove it, then run the import again`, { cause: error });
  }
}

/**
 * The record with the trusted Sources' secrets added (by Source id, in the API's names: the config
 * keys speak the resource's), and without the entries of Sources the stack's state manages.
 */
export function trustedRecord(earlier: TrustedRecord, managed: ReadonlySet<string>, trusted: readonly TrustedSource[]): TrustedRecord {
  const added = trusted.flatMap(({ live, secrets, secretsNotHeld }) => {
    const fields = writeOnlyFields(live.attributes.deployment.type).flatMap((field) => {
      const value = secrets[camelCase(field)];
      return value === undefined || secretsNotHeld.includes(camelCase(field)) ? [] : [[field, value] as const];
    });
    return fields.length > 0 ? [[live.id, Object.fromEntries(fields)] as const] : [];
  });
  return pruned({ ...earlier, ...Object.fromEntries(added) }, managed);
}

function pruned(record: TrustedRecord, managed: ReadonlySet<string>): TrustedRecord {
  return Object.fromEntries(Object.entries(record).filter(([id]) => !managed.has(id)));
}

/** The setting that writes `record`, or removes the key when it is empty (removal needs no encryption). */
export function recordSetting(record: TrustedRecord): SecretSetting {
  return { key: TRUSTED_SECRETS_KEY, path: [], value: JSON.stringify(record) };
}

/** Writes the record, or removes it from the stack's file when nothing is left in it. */
export function writeRecord(target: StackConfigTarget, record: TrustedRecord): void {
  if (Object.keys(record).length > 0) return writeSecretConfig(target, [recordSetting(record)]);
  if (!fs.existsSync(target.file)) return;
  const document = parseDocument(fs.readFileSync(target.file, "utf8"));
  if (document.deleteIn(["config", TRUSTED_SECRETS_KEY])) fs.writeFileSync(target.file, document.toString());
}

export interface PruneOptions {
  stack: string;
  workDir: string;
  env?: NodeJS.ProcessEnv;
}

/** `asset-delivery import --prune-trusted-secrets`: drops the entries of the Sources the stack's state manages; says what is left. */
export async function pruneTrustedSecrets(options: PruneOptions): Promise<string> {
  const workDir = path.resolve(options.workDir);
  const { state, config, configFile } = await readStack(options.stack, workDir);
  const earlier = earlierRecord(config[TRUSTED_SECRETS_KEY]);
  const existing: Existing = { ids: new Set(), names: new Set() };
  fromState(state, existing);
  const left = pruned(earlier, existing.ids);
  const removed = Object.keys(earlier).length - Object.keys(left).length;
  if (removed > 0) writeRecord({ file: configFile, stack: options.stack, workDir, env: options.env ?? process.env }, left);
  const count = (n: number) => `${n} Source${n === 1 ? "" : "s"}`;
  return (
    `${TRUSTED_SECRETS_KEY}: removed the secrets of ${count(removed)} stack ${options.stack} manages; ` +
    (Object.keys(left).length === 0
      ? "none left.\n"
      : `kept those of ${count(Object.keys(left).length)} not recorded yet (after \`pulumi import\` or \`pulumi up\`, run this again).\n`)
  );
}
