// A Source as the server keeps it, and how a parsed deployment splits into what is returned and
// what is write-only. The field lists come from the sdk's field descriptors (writeOnlyFields,
// readOnlyFields, secretPresenceFlags).
import {
  readOnlyFields,
  SOURCE_TYPES,
  secretPresenceFlags,
  writeOnlyFields,
  type SourceType,
  type StoredDeployment,
} from "@asset-delivery/sdk";
import type { DeploymentTimes } from "./deployment-status";

/** Deployment fields that are returned as stored (every field but the write-only and read-only ones). */
export type PublicDeployment = { type: SourceType; annotation: string } & Record<string, unknown>;

/** The deployment's times (DeploymentTimes) decide its status and date (deployment-status.ts). */
export interface SourceRecord extends DeploymentTimes {
  id: string;
  accountId: string;
  name: string;
  deployment: PublicDeployment;
  /** Plaintext write-only values, by field name (encrypted only when written to the database). */
  secrets: Record<string, unknown>;
  /** Present while deployment.secure_url_enabled is true. */
  secureUrlToken: string | null;
}

/**
 * Splits a parsed deployment: write-only values (secrets) apart, read-only ones dropped (the
 * schema ignores them on input), absent values left out. `null` secrets are kept: they mean "clear".
 */
export function splitDeployment(deployment: Partial<StoredDeployment> & { type: SourceType }): {
  fields: Record<string, unknown>;
  secrets: Record<string, unknown>;
} {
  const secretNames = new Set(writeOnlyFields(deployment.type));
  const readOnly = new Set(readOnlyFields(deployment.type));
  const fields: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(deployment)) {
    if (value === undefined || readOnly.has(name)) continue;
    if (secretNames.has(name)) secrets[name] = value;
    else fields[name] = value;
  }
  return { fields, secrets };
}

// Which secret each read-only flag reports, per type (the sdk's presenceFlag marks): read once, not per request.
const FLAGS_BY_TYPE: ReadonlyMap<SourceType, readonly { flag: string; secret: string }[]> = new Map(
  SOURCE_TYPES.map((type) => [type, secretPresenceFlags(type)]),
);

/** A type's read-only flags: `{ password_set: true, ... }`, each saying whether its secret is stored. */
export function computedFlags(type: SourceType, storedSecrets: Record<string, unknown>): Record<string, boolean> {
  const flags: Record<string, boolean> = {};
  for (const { flag, secret } of FLAGS_BY_TYPE.get(type) ?? []) flags[flag] = secret in storedSecrets;
  return flags;
}
