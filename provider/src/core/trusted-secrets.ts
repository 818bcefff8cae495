// Secrets the server is trusted to hold: the `trustedSecrets` configuration, a Pulumi secret that
// `asset-delivery import --from-terraform --trust-state-secrets` writes from a Terraform state,
// which holds the secret Terraform last sent to each Source. The API never returns a secret, so
// without this the provider cannot know the server has one, and the first `up` after a migration
// sends every declared secret again (one PATCH per Source, against the hourly update budget).
//
// A trusted secret is bound to one Source id, one write-only field of that Source's type and one
// value, and it is read only where Pulumi has no state of the Source yet: an import's read (its
// state then records the secret as an update would) and an adoption by id (a declared value equal
// to it is not sent). A declared value that differs is sent as any change; a field the Source's
// type does not have is ignored; once the state records the secret, this is no longer read for it.
import { isPlainObject, sourceIdSchema, WRITE_ONLY_DEPLOYMENT_FIELDS, writeOnlyFields, type Source } from "@asset-delivery/sdk";
import { TRUSTED_SECRETS_NAME } from "./config-names";
import { PLAIN_INSTRUCTIONS, type Instructions } from "./instructions";

/**
 * Source id → write-only field in the API's names (`s3_secret_key`, as the Terraform state has it)
 * → the value the server holds.
 */
export type TrustedSecrets = ReadonlyMap<string, Readonly<Record<string, string>>>;

const NONE: TrustedSecrets = new Map();

/**
 * The setting as the configuration gives it (JSON text, or the value itself from an explicit
 * provider's arguments); absent or blank is none. A bad one is refused, naming where: a secret
 * silently not trusted would cost the writes the user opted out of, one silently trusted worse.
 */
export function parseTrustedSecrets(setting: unknown, instructions: Instructions = PLAIN_INSTRUCTIONS): TrustedSecrets {
  const where = instructions.settingName(TRUSTED_SECRETS_NAME);
  if (setting === undefined || setting === null || (typeof setting === "string" && setting.trim() === "")) return NONE;
  let value: unknown = setting;
  if (typeof setting === "string") {
    try {
      value = JSON.parse(setting);
    } catch {
      throw new TrustedSecretsError(where, "must be JSON: an object of Source ids, each an object of write-only fields and their values");
    }
  }
  if (!isPlainObject(value))
    throw new TrustedSecretsError(where, "must be an object of Source ids, each an object of write-only fields and their values");
  const trusted = new Map<string, Record<string, string>>();
  for (const [id, fields] of Object.entries(value)) {
    const checkedId = sourceIdSchema.safeParse(id);
    if (!checkedId.success) throw new TrustedSecretsError(where, `${JSON.stringify(id)}: ${checkedId.error.issues[0]!.message}`);
    if (!isPlainObject(fields)) throw new TrustedSecretsError(where, `${id}: must be an object of write-only fields and their values`);
    for (const [field, secret] of Object.entries(fields)) {
      if (!WRITE_ONLY_DEPLOYMENT_FIELDS.has(field))
        throw new TrustedSecretsError(
          where,
          `${id}.${field}: not a write-only field of any Source type (${[...WRITE_ONLY_DEPLOYMENT_FIELDS].join(", ")})`,
        );
      if (typeof secret !== "string" || secret === "") throw new TrustedSecretsError(where, `${id}.${field}: must be a non-empty string`);
    }
    trusted.set(id, fields as Record<string, string>);
  }
  return trusted;
}

export class TrustedSecretsError extends Error {
  override readonly name = "TrustedSecretsError";
  /** `where`: the setting as the caller's instructions name it (settings.ts). */
  constructor(where: string, problem: string) {
    super(`${where}: ${problem}`);
  }
}

/** The trusted secrets of this Source that its type has, under the API's names (`s3_secret_key`). */
export function trustedSecretsOf(trusted: (() => TrustedSecrets) | undefined, source: Source): Record<string, string> {
  const fields = trusted?.().get(source.id);
  if (!fields) return {};
  return Object.fromEntries(
    writeOnlyFields(source.attributes.deployment.type).flatMap((field) => {
      const value = fields[field];
      return value === undefined ? [] : [[field, value]];
    }),
  );
}

/** A parse kept while its setting stays the same (one per operation would parse the whole record each time). */
export function trustedSecretsCache(instructions: Instructions): (setting: unknown) => TrustedSecrets {
  let last: { setting: unknown; parsed: TrustedSecrets } | undefined;
  return (setting) => {
    if (last === undefined || last.setting !== setting) last = { setting, parsed: parseTrustedSecrets(setting, instructions) };
    return last.parsed;
  };
}
