// The drift report: which managed Sources differ from what the stack declares, field by field, and
// which enabled Sources of the account the stack does not manage.
// This is also the documented JSON shape of `asset-delivery drift --format json`.
import type { SourceShape } from "./declared-state";

/**
 * - `changed`: fields differ;
 * - `retired`: disabled on the server (enabled: false) although declared enabled; other fields may differ too;
 * - `gone`: the server no longer has the Source.
 */
export type DriftStatus = "changed" | "retired" | "gone";

/** A field whose value differs. `declared` or `live` is absent when that side does not have the field. */
export interface ValueDrift {
  /** camelCase path as written in the program, e.g. `deployment.cacheTtlError`, `deployment.defaultParams.w`. */
  field: string;
  declared?: unknown;
  live?: unknown;
}

/**
 * A field whose value is secret and differs; the values themselves are never shown. Either a
 * write-only field whose presence, as the server reports it through a read-only flag, disagrees
 * with the declared one, or a field the program passed as a secret.
 */
export interface SecretDrift {
  field: string;
  secret: true;
  declared: "set" | "not set";
  /** `different`: set on both sides, to different values. */
  live: "set" | "not set" | "different";
  /** The read-only output that revealed the difference, e.g. `passwordSet`; absent when the values were compared. */
  flag?: string;
}

export type FieldDrift = ValueDrift | SecretDrift;

export interface SourceDrift {
  /** The resource's Pulumi name. */
  name: string;
  /** The Source's id on the server. */
  id: string;
  /** The resource's URN, for `--target`. */
  urn: string;
  /** The dynamic `Source` of @asset-delivery/provider, or the native plugin's `assetdelivery:index:Source`. */
  shape: SourceShape;
  status: DriftStatus;
  /** Empty for a Source that is gone. */
  fields: FieldDrift[];
  wayOut: WayOut;
}

/** The two ways out of a drift, as commands to run in the project's folder, in order. */
export interface WayOut {
  /** Back to the declaration: the server gets the stack's values again. */
  revert: string[];
  /** Keep the server's values: the state records them and the declaration takes them. */
  keep: string[];
  /** What else keeping takes, in words (e.g. the program's edit). */
  keepNote?: string;
  /** The declaration that matches the live Source in the stack's language, for the program (keep). */
  declaration?: GeneratedDeclaration;
}

/** Code printed by Pulumi's import code generation (`pulumi import`) for a live Source. */
export interface GeneratedDeclaration {
  /** The project's runtime: `nodejs` (TypeScript), `python`, `yaml`, `go`. */
  language: string;
  code: string;
  /** Secret config keys the code reads (each a write-only field, or a value the program passes as a secret), to set with `pulumi config set --secret`. */
  secretConfig: string[];
}

/** An enabled Source of the account that no resource of the stack manages (`asset-delivery import` declares it). */
export interface UnmanagedSource {
  id: string;
  name: string;
  /** The deployment type. */
  type: string;
  serviceSubdomains: string[];
}

export interface DriftReport {
  stack: string;
  /** How many Sources the stack manages. */
  sourceCount: number;
  /** The Sources that differ, by Pulumi name. */
  drifted: SourceDrift[];
  /** The account's enabled Sources (of those the filters select) that the stack does not manage, by id. */
  unmanaged: UnmanagedSource[];
  /** Why no declaration could be generated for the drifted native Sources declared in the program, when that failed. */
  declarationsUnavailable?: string;
}

export function isSecretDrift(field: FieldDrift): field is SecretDrift {
  return "secret" in field;
}
