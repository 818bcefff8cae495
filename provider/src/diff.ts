// `diff`: the declared Source (checked, defaults filled) against the state (what the server
// returned). Exact comparison of normalized values; a changed secret is a change, and so is a
// secret whose presence the server's flag contradicts (cleared or set behind Pulumi's back, seen
// by a refresh). Every attribute can be updated in place, so the only replacement is a switch to
// another adopted Source.
import deepEqual from "fast-deep-equal";
import { readOnlyFields, secretPresenceFlags } from "@asset-delivery/sdk";
import { camelCase, isPlainObject } from "./names";
import { isSourceType, PROVIDER_OPTION_KEYS, type SourceInputs } from "./source-state";
import { containsUnknown } from "./unknowns";

export interface SourceDiff {
  changes: boolean;
  replaces: string[];
  /** The top-level inputs that differ, for update and for tests. */
  changed: string[];
}

export function diffSource(id: string, olds: SourceInputs, news: SourceInputs): SourceDiff {
  const changed: string[] = [];
  const differs = (key: keyof SourceInputs, old: unknown, now: unknown) => {
    if (containsUnknown(now) || !deepEqual(old, now)) changed.push(key);
  };
  differs("name", olds.name, news.name);
  differs("enabled", olds.enabled, news.enabled);
  differs("deployment", comparableDeployment(olds.deployment, news.deployment), comparableDeployment(news.deployment, news.deployment));
  differs("deploymentSecrets", olds.deploymentSecrets ?? {}, news.deploymentSecrets ?? {});
  if (!changed.includes("deploymentSecrets") && secretFlagMismatches(olds.deployment, news).length > 0) changed.push("deploymentSecrets");
  for (const key of PROVIDER_OPTION_KEYS) if (key !== "adoptSourceId") differs(key, olds[key], news[key]);

  // Adopting a different Source means managing another object: the API cannot move an id.
  const replaces = news.adoptSourceId !== undefined && news.adoptSourceId !== id ? ["adoptSourceId"] : [];
  return { changes: changed.length > 0 || replaces.length > 0, replaces, changed };
}

export interface SecretFlagMismatch {
  /** The camelCase write-only field, e.g. `password`. */
  secret: string;
  /** The camelCase read-only flag that reports it, e.g. `passwordSet`. */
  flag: string;
  declaredSet: boolean;
  liveSet: boolean;
}

/**
 * Declared secrets against the read-only flags of a deployment as the server has it (camelCase,
 * flags included): a declared value means set, a declared null means cleared, and an undeclared
 * secret is the server's to keep. After a type change the declared secrets belong to the other
 * type, so nothing is compared.
 */
export function secretFlagMismatches(liveDeployment: unknown, declared: SourceInputs): SecretFlagMismatch[] {
  if (!isPlainObject(liveDeployment) || !isSourceType(liveDeployment.type)) return [];
  if (!isPlainObject(declared.deployment) || declared.deployment.type !== liveDeployment.type) return [];
  const secrets = isPlainObject(declared.deploymentSecrets) ? declared.deploymentSecrets : {};
  return secretPresenceFlags(liveDeployment.type).flatMap(({ flag, secret }) => {
    const value = secrets[camelCase(secret)];
    if (value === undefined) return [];
    const mismatch = { secret: camelCase(secret), flag: camelCase(flag), declaredSet: value !== null, liveSet: liveDeployment[camelCase(flag)] === true };
    return mismatch.declaredSet === mismatch.liveSet ? [] : [mismatch];
  });
}

/**
 * The declarable part of a deployment: read-only fields dropped, and the annotation only when the
 * program declares one (otherwise the server writes its own, which is not drift).
 */
export function comparableDeployment(deployment: unknown, declared: unknown): unknown {
  if (!isPlainObject(deployment)) return deployment;
  const readOnly = new Set(isSourceType(deployment.type) ? readOnlyFields(deployment.type).map(camelCase) : []);
  const annotationDeclared = isPlainObject(declared) && declared.annotation !== undefined;
  return Object.fromEntries(
    Object.entries(deployment).filter(([key, value]) => value !== undefined && !readOnly.has(key) && (key !== "annotation" || annotationDeclared)),
  );
}
