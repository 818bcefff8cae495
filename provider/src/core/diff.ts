// `diff`: the declared Source (checked, defaults filled) against the state (what the server
// returned). Exact comparison of normalized values; a changed secret is a change, and so is a
// secret whose presence the server's flag contradicts (cleared or set behind Pulumi's back, seen
// by a refresh). Every attribute can be updated in place, so the only replacement is a switch to
// another adopted Source.
import deepEqual from "fast-deep-equal";
import { readOnlyFields, secretPresenceFlags } from "@asset-delivery/sdk";
import { withoutMark } from "./create-mark";
import { camelCase } from "./names";
import { PROVIDER_OPTION_KEYS, type ProviderOptions } from "./provider-options";
import { WRITABLE_ATTRIBUTE_NAMES, type CamelDeployment, type SourceDeclaration, type SourceInputs } from "./codec";
import type { SourceReadOnlyValues } from "../source-types";
import { containsUnknown } from "./unknowns";

/** The attributes sent to the API, as the resource names them. */
export type SourceAttributeKey = keyof SourceDeclaration;

export interface SourceDiff {
  changes: boolean;
  replaces: string[];
  /** The top-level inputs that differ, for update and for tests. */
  changed: (SourceAttributeKey | keyof ProviderOptions)[];
}

export function diffSource(id: string, olds: SourceDeclaration & SourceReadOnlyValues & ProviderOptions, news: SourceInputs): SourceDiff {
  const changed: SourceDiff["changed"] = changedAttributes(olds, news);
  for (const key of PROVIDER_OPTION_KEYS) {
    // Another adopted Source is a replacement (below); a new URN (an alias, a new parent) changes nothing on the server.
    if (key === "adoptSourceId" || key === "resourceUrn") continue;
    if (containsUnknown(news[key]) || !deepEqual(olds[key], news[key])) changed.push(key);
  }
  // Adopting a different Source means managing another object: the API cannot move an id.
  const replaces = news.adoptSourceId !== undefined && news.adoptSourceId !== id ? ["adoptSourceId"] : [];
  return { changes: changed.length > 0 || replaces.length > 0, replaces, changed };
}

/**
 * The attributes in which a declaration differs from a Source (its state, or the server's copy).
 * During a preview a value not known yet counts as a change, and is not compared.
 */
export function changedAttributes(olds: SourceDeclaration & SourceReadOnlyValues, news: SourceInputs): SourceAttributeKey[] {
  const changed: SourceAttributeKey[] = [];
  const differs = (key: SourceAttributeKey, compare: () => boolean) => {
    if (containsUnknown(news[key]) || !compare()) changed.push(key);
  };
  for (const key of WRITABLE_ATTRIBUTE_NAMES) differs(key, () => olds[key] === news[key]);
  differs("deployment", () =>
    deepEqual(comparableDeployment(olds.deployment, news.deployment), comparableDeployment(news.deployment, news.deployment)),
  );
  differs(
    "deploymentSecrets",
    () => deepEqual(olds.deploymentSecrets, news.deploymentSecrets) && secretFlagMismatches(olds, news).length === 0,
  );
  return changed;
}

export interface SecretFlagMismatch {
  /** The camelCase write-only field, e.g. `password`. */
  secret: string;
  /** The camelCase read-only flag that reports it, e.g. `passwordSet`. */
  flag: string;
  declaredSet: boolean;
  liveSet: boolean;
}

/** A Source as the server has it (a state, or a live Source): its deployment's type, and its read-only flags at the top level. */
export type LiveFlags = { deployment: Pick<CamelDeployment, "type"> } & SourceReadOnlyValues;

/**
 * Declared secrets against the read-only flags of a Source as the server has it: a declared value
 * means set, a declared null means cleared, and an undeclared secret is the server's to keep.
 * After a type change the declared secrets belong to the other type, so nothing is compared.
 */
export function secretFlagMismatches(live: LiveFlags, declared: SourceDeclaration): SecretFlagMismatch[] {
  if (declared.deployment.type !== live.deployment.type) return [];
  const flags: Readonly<Record<string, unknown>> = live;
  const secrets: Readonly<Record<string, unknown>> = declared.deploymentSecrets;
  return secretPresenceFlags(live.deployment.type).flatMap(({ flag, secret }) => {
    const value = secrets[camelCase(secret)];
    if (value === undefined) return [];
    const mismatch = {
      secret: camelCase(secret),
      flag: camelCase(flag),
      declaredSet: value !== null,
      liveSet: flags[camelCase(flag)] === true,
    };
    return mismatch.declaredSet === mismatch.liveSet ? [] : [mismatch];
  });
}

/**
 * The declarable part of a deployment: read-only fields dropped, and the annotation only when the
 * program declares one (otherwise the server writes its own, which is not drift), without the
 * create mark a create adds to it (create-mark.ts).
 */
export function comparableDeployment(deployment: CamelDeployment, declared: CamelDeployment): Record<string, unknown> {
  const readOnly = new Set(readOnlyFields(deployment.type).map(camelCase));
  const annotationDeclared = declared.annotation !== undefined;
  return Object.fromEntries(
    Object.entries(deployment)
      .filter(([key, value]) => value !== undefined && !readOnly.has(key) && (key !== "annotation" || annotationDeclared))
      .map(([key, value]) => [key, key === "annotation" && typeof value === "string" ? withoutMark(value) : value]),
  );
}
