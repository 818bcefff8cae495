// `diff`: the declared Source (checked, defaults filled) against the state (what the server
// returned, with the declared secrets). Exact comparison of normalized values; a changed secret is
// a change, and so is a secret whose presence the server's flag contradicts (cleared or set behind
// the program's back, seen by a refresh). Every attribute can be updated in place, so the only
// replacement is a switch to another adopted Source.
import deepEqual from "fast-deep-equal";
import {
  isSourceType,
  readOnlyFields,
  secretPresenceFlags,
  WRITABLE_SOURCE_ATTRIBUTES,
  WRITE_ONLY_DEPLOYMENT_FIELDS,
} from "@asset-delivery/sdk";
import { withoutMark } from "./create-mark";
import { PROVIDER_OPTION_KEYS, type ProviderOptionKey, type ProviderOptions } from "./provider-options";
import type { DeclaredAttributes, SourceInputs } from "./codec";
import { containsUnknown, isUnknown } from "./unknowns";

/** The attributes sent to the API. */
export type SourceAttributeKey = keyof DeclaredAttributes;

export interface SourceDiff {
  changes: boolean;
  /** What makes it a replacement: another adopted Source (`adoptSourceId`, an option). */
  replaces: ProviderOptionKey[];
  /** The attributes that differ, and the options that do (by their names). */
  changed: (SourceAttributeKey | ProviderOptionKey)[];
  /** The deployment's fields that differ, secrets included (empty when the deployment is not known as a whole yet). */
  deploymentFields: string[];
}

/** A deployment as compared: a declared one, or a returned one (its read-only fields in it). */
export type ComparedDeployment = { type: string; annotation?: string };

/** A state (or a Source as the server has it) to compare a declaration with: its read-only flags in its deployment. */
export type Compared = Omit<DeclaredAttributes, "deployment"> & { deployment: ComparedDeployment; options?: Partial<ProviderOptions> };

export function diffSource(id: string, olds: Compared, news: SourceInputs): SourceDiff {
  const { changed, deploymentFields } = changedAttributes(olds, news);
  const options: ProviderOptionKey[] = [];
  for (const key of PROVIDER_OPTION_KEYS) {
    // Another adopted Source is a replacement (below).
    if (key === "adoptSourceId") continue;
    if (containsUnknown(news.options[key]) || !deepEqual(olds.options?.[key], news.options[key])) options.push(key);
  }
  // Adopting a different Source means managing another object: the API cannot move an id.
  const adopted = news.options.adoptSourceId;
  const replaces: ProviderOptionKey[] = adopted !== undefined && adopted !== id ? ["adoptSourceId"] : [];
  return {
    changes: changed.length + options.length + replaces.length > 0,
    replaces,
    changed: [...changed, ...options],
    deploymentFields,
  };
}

/**
 * The attributes in which a declaration differs from a Source (its state, or the server's copy),
 * and the deployment's fields that do. During a preview a value not known yet counts as a change,
 * and is not compared.
 */
export function changedAttributes(olds: Compared, news: SourceInputs): { changed: SourceAttributeKey[]; deploymentFields: string[] } {
  const changed: SourceAttributeKey[] = WRITABLE_SOURCE_ATTRIBUTES.filter((key) => containsUnknown(news[key]) || olds[key] !== news[key]);
  if (isUnknown(news.deployment)) return { changed: [...changed, "deployment"], deploymentFields: [] };
  const before = comparableDeployment(olds.deployment, news.deployment);
  const after = comparableDeployment(news.deployment, news.deployment);
  const deploymentFields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (field) => containsUnknown(after[field]) || !deepEqual(before[field], after[field]),
  );
  for (const { secret } of secretFlagMismatches(olds, news)) if (!deploymentFields.includes(secret)) deploymentFields.push(secret);
  return { changed: deploymentFields.length > 0 ? [...changed, "deployment"] : changed, deploymentFields };
}

/** Whether any of the deployment fields is one the server deploys (a secret alone changes no deployment). */
export function redeploys(deploymentFields: readonly string[]): boolean {
  return deploymentFields.some((field) => !WRITE_ONLY_DEPLOYMENT_FIELDS.has(field));
}

export interface SecretFlagMismatch {
  /** The write-only field, e.g. `password`. */
  secret: string;
  /** The read-only deployment flag that reports it, e.g. `password_set`. */
  flag: string;
  declaredSet: boolean;
  liveSet: boolean;
}

/**
 * Declared secrets against the read-only flags of a Source as the server has it: a declared value
 * means set, a declared null means cleared, and an undeclared secret is the server's to keep.
 * After a type change the declared secrets belong to the other type, so nothing is compared.
 */
export function secretFlagMismatches(live: Pick<Compared, "deployment">, declared: DeclaredAttributes): SecretFlagMismatch[] {
  if (declared.deployment.type !== live.deployment.type || !isSourceType(live.deployment.type)) return [];
  const flags: Readonly<Record<string, unknown>> = live.deployment;
  const secrets: Readonly<Record<string, unknown>> = declared.deployment;
  return secretPresenceFlags(live.deployment.type).flatMap(({ flag, secret }) => {
    const value = secrets[secret];
    if (value === undefined) return [];
    const mismatch = { secret, flag, declaredSet: value !== null, liveSet: flags[flag] === true };
    return mismatch.declaredSet === mismatch.liveSet ? [] : [mismatch];
  });
}

/**
 * The declarable part of a deployment: read-only fields dropped, and the annotation only when the
 * program declares one (otherwise the server writes its own, which is not drift), without the
 * create mark a create adds to it (create-mark.ts).
 */
export function comparableDeployment(deployment: ComparedDeployment, declared: ComparedDeployment): Record<string, unknown> {
  const readOnly = new Set(isSourceType(deployment.type) ? readOnlyFields(deployment.type) : []);
  const annotationDeclared = declared.annotation !== undefined;
  return Object.fromEntries(
    Object.entries(deployment)
      .filter(([key, value]) => value !== undefined && !readOnly.has(key) && (key !== "annotation" || annotationDeclared))
      .map(([key, value]) => [key, key === "annotation" && typeof value === "string" ? withoutMark(value) : value]),
  );
}
