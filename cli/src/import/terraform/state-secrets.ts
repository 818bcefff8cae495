// The state's secrets for a Source: the values of the live Source's write-only fields (the sdk's
// field table says which), the config keys they go to, and what of them the live Source says it
// lacks (its presence flag, `password_set`): those are carried over for the first `up` to send,
// never trusted as the server's.
import {
  camelCase,
  holdsSecret,
  requiredWriteOnlyFields,
  WRITE_ONLY_DEPLOYMENT_FIELDS,
  writeOnlyFields,
  type Source,
} from "@asset-delivery/sdk";
import { secretConfigKey } from "../../sources/secret-config-key";
import type { TerraformImported } from "./report";
import type { SecretSetting } from "./secret-config";
import type { TerraformSource } from "./state";

export type StateSecrets = Pick<TerraformImported, "secrets" | "secretNotes" | "secretsMissing" | "secretsNotHeld">;

export function secretsOf(source: TerraformSource, live: Source): StateSecrets {
  const deployment = live.attributes.deployment;
  const type = deployment.type;
  const secrets: Record<string, string> = {};
  const secretNotes: string[] = [];
  const secretsNotHeld: string[] = [];
  const ofType = new Set(writeOnlyFields(type));
  for (const [field, value] of Object.entries(source.deployment)) {
    if (typeof value !== "string" || value === "" || !WRITE_ONLY_DEPLOYMENT_FIELDS.has(field)) continue;
    if (!ofType.has(field)) {
      secretNotes.push(
        `${field}: not a field of a ${type} Source (the state's type is ${String(source.deployment.type)}); not carried over`,
      );
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

/**
 * The config key a secret of the state goes to, as the report names it: a native program reads one
 * key per secret (the rule drift names them by); sourcesFromConfig, `<project>:sourceSecrets.<name>.<field>`.
 */
export function terraformSecretKey(native: boolean, name: string, field: string): string {
  return native ? secretConfigKey(name, field) : `sourceSecrets.${name}.${field}`;
}

/** The imported Sources' secrets as config settings of the project `project`. */
export function secretSettings(project: string, native: boolean, imported: readonly TerraformImported[]): SecretSetting[] {
  return imported.flatMap(({ name, secrets }) =>
    Object.entries(secrets).map(([field, value]) =>
      native
        ? { key: `${project}:${terraformSecretKey(true, name, field)}`, path: [], value }
        : { key: `${project}:sourceSecrets`, path: [name, field], value },
    ),
  );
}

/** The stack's `sourceSecrets` (decrypted JSON text) with these settings made: what the program will read. */
export function withSecrets(current: string | undefined, settings: readonly SecretSetting[]): Record<string, Record<string, string>> {
  const all = structuredClone((current ? JSON.parse(current) : {}) as Record<string, Record<string, string>>);
  for (const { path, value } of settings) {
    const [name, field] = path as [string, string];
    all[name] = { ...all[name], [field]: value };
  }
  return all;
}
