// What creating and updating a Source means (spec 2.2, 2.3, 3.1, 4.2): defaults, the default
// annotation, write-only secrets kept or replaced, the deployment lifecycle, the secure URL token
// and global hostname uniqueness. Each operation is one transaction: a rejected one changes nothing.
import { isDeepStrictEqual } from "node:util";
import {
  attributePresentWhile,
  fieldIssue,
  requiredWriteOnlyFields,
  writeOnlyFields,
  type FieldIssue,
  type SourceType,
  type StoredDeployment,
} from "@asset-delivery/sdk";
import type { AuthContext } from "../accounts/key-store";
import { notFound, validationFailed } from "../http/errors";
import type { Database } from "../store/database";
import { newSourceId, randomAlphanumeric } from "../store/random";
import { completedDeploymentSecond } from "./deployment-status";
import { splitDeployment, type PublicDeployment, type SourceRecord } from "./source-record";
import type { SourceStore } from "./source-store";

const SECURE_URL_TOKEN_LENGTH = 32;
/** The deployment flag the token is present only while (the sdk's field table: `secure_url_enabled`). */
const SECURE_URL_TOKEN_WHILE = attributePresentWhile("secure_url_token");

export function defaultAnnotation(userName: string): string {
  return `New deployment created for Source by ${userName}`;
}

interface CreateInput {
  name: string;
  enabled: boolean;
  deployment: StoredDeployment;
}

interface PatchInput {
  name?: string;
  enabled?: boolean;
  deployment?: Partial<StoredDeployment> & { type: SourceType };
}

/** Kept while secure URLs stay on, a new one when they are turned on, none while off. */
function secureUrlToken(deployment: PublicDeployment, current: string | null): string | null {
  if (SECURE_URL_TOKEN_WHILE === undefined || (deployment as Record<string, unknown>)[SECURE_URL_TOKEN_WHILE] !== true) return null;
  return current ?? randomAlphanumeric(SECURE_URL_TOKEN_LENGTH);
}

export type SourceService = ReturnType<typeof createSourceService>;

export interface DeploymentTiming {
  /** How long after a change its deployment starts; until then reads show the deployment before it. */
  deployLagMs: number;
  /** How long a deployment takes once started. */
  deployDelayMs: number;
}

export function createSourceService(db: Database, store: SourceStore, options: DeploymentTiming & { now: () => number }) {
  const { now, deployLagMs, deployDelayMs } = options;

  function rejectConflicts(record: SourceRecord): void {
    const issues = store.hostnameConflicts(record.id, record.deployment);
    if (issues.length) throw validationFailed(issues);
  }

  /** A new deployment starts after the lag; the one before it, if it had completed, becomes the previous one. */
  function redeploy(record: SourceRecord): void {
    const at = now();
    if (record.deployReadyAt <= at) record.previousDeployedAt = completedDeploymentSecond(record);
    record.deployStartsAt = at + deployLagMs;
    record.deployReadyAt = record.deployStartsAt + deployDelayMs;
  }

  return {
    /** Creates the Source; returns the record written. */
    create(auth: AuthContext, input: CreateInput): SourceRecord {
      const { fields, secrets } = splitDeployment(input.deployment);
      const deployment = { ...fields, annotation: input.deployment.annotation ?? defaultAnnotation(auth.userName) } as PublicDeployment;
      const record: SourceRecord = {
        id: newSourceId(),
        accountId: auth.accountId,
        name: input.name,
        enabled: input.enabled,
        deployment,
        secrets: withoutNulls(secrets),
        secureUrlToken: secureUrlToken(deployment, null),
        deployStartsAt: now() + deployLagMs,
        deployReadyAt: now() + deployLagMs + deployDelayMs,
        previousDeployedAt: null,
      };
      db.transaction(() => {
        rejectConflicts(record);
        store.insert(record);
      }).immediate();
      return record;
    },

    /** Applies a PATCH; omitted attributes keep their values. Returns the record written. */
    patch(auth: AuthContext, id: string, input: PatchInput): SourceRecord {
      return db
        .transaction(() => {
          const record = store.load(auth.accountId, id);
          if (!record) throw notFound("Source", id);
          const wasEnabled = record.enabled;
          const renamed = input.name !== undefined && input.name !== record.name;
          if (input.name !== undefined) record.name = input.name;
          if (input.enabled !== undefined) record.enabled = input.enabled;
          const deploymentChanged = input.deployment !== undefined && applyDeployment(record, input.deployment, auth.userName);
          if ((renamed || deploymentChanged) && !(wasEnabled && record.enabled)) throw disabledSourceChange(wasEnabled);
          if (deploymentChanged || (record.enabled && !wasEnabled)) redeploy(record);
          if (deploymentChanged) rejectConflicts(record);
          store.update(record);
          return record;
        })
        .immediate();
    },
  };
}

// The real service refuses updates to a disabled Source (a public Terraform provider for it
// enables first and then updates, and to disable with other changes, updates first and then
// disables). Ours: any change but `enabled` is refused while the Source is disabled before or
// after the PATCH; resending the stored values is no change, so a repeated PATCH still succeeds.
const ENABLED_SEGMENTS = ["data", "attributes", "enabled"];

function disabledSourceChange(wasEnabled: boolean) {
  const rule = wasEnabled
    ? "a Source cannot be disabled together with other changes: send the changes first, then enabled: false alone"
    : "a disabled Source cannot be updated: send enabled: true alone first, then the other changes";
  return validationFailed([{ path: ENABLED_SEGMENTS.join("."), segments: ENABLED_SEGMENTS, rule }]);
}

/**
 * Replaces the record's deployment with a supplied one (a complete deployment of its type, with
 * defaults for what it omits). Secrets: omitted ones keep the stored values when the type is
 * unchanged, `null` clears one; a type change requires the new type's secrets. Returns whether
 * anything changed (an identical deployment is not a new deployment and keeps its annotation).
 */
function applyDeployment(record: SourceRecord, supplied: Partial<StoredDeployment> & { type: SourceType }, userName: string): boolean {
  const { fields, secrets: suppliedSecrets } = splitDeployment(supplied);
  const sameType = supplied.type === record.deployment.type;
  const secrets: Record<string, unknown> = {};
  const missing: FieldIssue[] = [];
  for (const name of writeOnlyFields(supplied.type)) {
    if (name in suppliedSecrets) secrets[name] = suppliedSecrets[name];
    else if (sameType && name in record.secrets) secrets[name] = record.secrets[name];
  }
  if (!sameType) {
    for (const name of requiredWriteOnlyFields(supplied.type)) {
      if (secrets[name] === undefined || secrets[name] === null) {
        const segments = ["data", "attributes", "deployment", name];
        missing.push(
          fieldIssue(segments, `is required when the deployment type changes to ${supplied.type} (stored secrets are not carried over)`),
        );
      }
    }
  }
  if (missing.length) throw validationFailed(missing);

  const nextSecrets = withoutNulls(secrets);
  const { annotation: previousAnnotation, ...previousFields } = record.deployment;
  const { annotation: suppliedAnnotation, ...nextFields } = fields;
  const changed =
    !isDeepStrictEqual(previousFields, nextFields) ||
    !isDeepStrictEqual(record.secrets, nextSecrets) ||
    (suppliedAnnotation !== undefined && suppliedAnnotation !== previousAnnotation);
  if (!changed) return false;

  record.deployment = {
    ...nextFields,
    annotation: (suppliedAnnotation as string | undefined) ?? defaultAnnotation(userName),
  } as PublicDeployment;
  record.secrets = nextSecrets;
  record.secureUrlToken = secureUrlToken(record.deployment, record.secureUrlToken);
  return true;
}

function withoutNulls(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
}
