// Declared state + live Sources → drift report. What counts as a change is the provider's: the
// live Source is turned into inputs the way a refresh would (`inputsFromSource`), `diffSource`
// names the attributes that differ, and `comparableDeployment` drops what is not declarable (read-only
// fields, the server's own annotation). Secrets cannot be read back; where a read-only flag
// (`password_set`) reports whether one is set, its presence is compared instead. Values the
// program passed as secrets are compared but never shown.
import deepEqual from "fast-deep-equal";
import { isPlainObject, type Source } from "@asset-delivery/sdk";
import {
  comparableDeployment,
  declarableDeployment,
  diffSource,
  inputsFromSource,
  pathsOverlap,
  secretFlagMismatches,
  type SourceInputs,
} from "@asset-delivery/provider/core";
import { camelCase, pulumiPath } from "@asset-delivery/provider";
import type { DeclaredSource } from "./declared-state";
import type { DriftReport, FieldDrift, SecretDrift, SourceDrift } from "./report";
import { wayOut, type WayOutContext } from "./way-out";

/**
 * `live` holds every declared id: the Source as the server has it, or undefined when the server
 * does not have it. `enabled`: the account's enabled Sources (as the filters select them), of
 * which those the stack does not manage are reported as unmanaged. `configDeclared`: the names
 * the stack's configuration declares (`<project>:sources`), for the way out of each drift.
 */
export function compareSources(
  stack: string,
  declared: readonly DeclaredSource[],
  live: ReadonlyMap<string, Source | undefined>,
  enabled: readonly Source[] = [],
  configDeclared: ReadonlySet<string> = new Set(),
): DriftReport {
  const context: WayOutContext = { stack, configDeclared };
  const drifted = declared.flatMap((source) => {
    const drift = sourceDrift(source, live.get(source.id));
    if (!drift) return [];
    const { name, id, urn, shape } = source;
    return [{ name, id, urn, shape, ...drift, wayOut: wayOut(drift.status, source, context) }];
  });
  const managed = new Set(declared.map((source) => source.id));
  const unmanaged = enabled
    .filter((source) => !managed.has(source.id))
    .map(({ id, attributes }) => ({
      id,
      name: attributes.name,
      type: attributes.deployment.type,
      serviceSubdomains: attributes.deployment.service_subdomains,
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
  return { stack, sourceCount: declared.length, drifted, unmanaged };
}

function sourceDrift(declared: DeclaredSource, live: Source | undefined): Pick<SourceDrift, "status" | "fields"> | undefined {
  if (isGone(live)) return { status: "gone", fields: [] };
  const values = valueDrift(declared.inputs, live).map((drift) => shown(drift, declared.secretPaths));
  const fields = [...values, ...secretDrift(declared.inputs, live)];
  const retired = declared.inputs.enabled !== false && !live.attributes.enabled;
  if (retired) return { status: "retired", fields };
  return fields.length > 0 ? { status: "changed", fields } : undefined;
}

function isGone(live: Source | undefined): live is undefined {
  return !live || live.attributes.deployment_status === "deleted";
}

/** A live value that keeping the server's values writes into a declaration; `live` undefined: the field goes. */
export interface AcceptedField {
  path: string[];
  live: unknown;
}

/**
 * What keeping the server's values changes in a Source's declaration: each differing value by its
 * path, or, when it cannot be kept by writing values (gone, or a secret differs), why not.
 */
export function acceptedFields(declared: DeclaredSource, live: Source | undefined): { fields: AcceptedField[] } | { refused: string } {
  if (isGone(live)) return { refused: "the server no longer has it: remove its declaration instead" };
  const differences = valueDrift(declared.inputs, live);
  const secrets = [
    ...differences
      .filter(({ path }) => declared.secretPaths.some((secret) => pathsOverlap(secret, path)))
      .map(({ path }) => fieldPath(path)),
    ...secretDrift(declared.inputs, live).map(({ field }) => field),
  ];
  if (secrets.length > 0)
    return {
      refused: `${secrets.join(", ")} ${secrets.length === 1 ? "is a secret" : "are secrets"}: declare ${secrets.length === 1 ? "it" : "them"} with pulumi config set --secret`,
    };
  return { fields: differences.map(({ path, live: value }) => ({ path, live: value })) };
}

interface Difference {
  path: string[];
  declared: unknown;
  live: unknown;
}

/** The differing values, by the resource's property paths (the core compares in the API's names). */
function valueDrift(declared: SourceInputs, source: Source): Difference[] {
  // As a refresh would record it: the declared secrets kept (the API never returns them; secretDrift
  // compares their flags), and the whole declarable deployment, annotation included
  // (comparableDeployment keeps it only when declared).
  const refreshed = inputsFromSource(source, declared);
  const live: SourceInputs = { ...refreshed, deployment: { ...declarableDeployment(source), ...refreshed.deployment } };
  const { changed } = diffSource(source.id, live, declared);
  const drift: Difference[] = [];
  if (changed.includes("name")) drift.push({ path: ["name"], declared: declared.name, live: live.name });
  if (changed.includes("enabled")) drift.push({ path: ["enabled"], declared: declared.enabled, live: live.enabled });
  if (changed.includes("deployment")) {
    const declaredDeployment = comparableDeployment(declared.deployment, declared.deployment);
    const liveDeployment = comparableDeployment(live.deployment, declared.deployment);
    drift.push(...leafDrift(declaredDeployment, liveDeployment, ["deployment"]));
  }
  return drift.map((difference) => ({ ...difference, path: pulumiPath(difference.path).map(String) }));
}

/** The differing values inside two objects, one per differing leaf; lists are compared whole (PATCH replaces them whole). */
function leafDrift(declared: unknown, live: unknown, path: string[]): Difference[] {
  if (!isPlainObject(declared) || !isPlainObject(live)) return deepEqual(declared, live) ? [] : [{ path, declared, live }];
  const keys = [...new Set([...Object.keys(declared), ...Object.keys(live)])];
  return keys.flatMap((key) => leafDrift(declared[key], live[key], [...path, key]));
}

/** A difference as reported: its values, or only whether each side is set when a secret is in or around it. */
function shown({ path, declared, live }: Difference, secretPaths: readonly string[][]): FieldDrift {
  const field = fieldPath(path);
  if (secretPaths.some((secret) => pathsOverlap(secret, path))) {
    const isSet = (value: unknown) => value !== undefined && value !== null;
    return {
      field,
      secret: true,
      declared: presence(isSet(declared)),
      live: isSet(declared) && isSet(live) ? "different" : presence(isSet(live)),
    };
  }
  return { field, ...(declared !== undefined && { declared }), ...(live !== undefined && { live }) };
}

/** Declared write-only values against the server's flags, by the provider's rule (see secretFlagMismatches). */
function secretDrift(declared: SourceInputs, source: Source): SecretDrift[] {
  return secretFlagMismatches(source.attributes, declared).map(({ secret, flag, declaredSet, liveSet }) => ({
    field: fieldPath(pulumiPath(["deployment", secret]).map(String)),
    secret: true,
    declared: presence(declaredSet),
    live: presence(liveSet),
    // The read-only flag, an output of the resource at its top level.
    flag: camelCase(flag),
  }));
}

function presence(set: boolean): "set" | "not set" {
  return set ? "set" : "not set";
}

/** `deployment.cacheTtlError`, `deployment.defaultParams["txt-font"]`: keys that are data are quoted. */
function fieldPath(path: readonly string[]): string {
  return path.map((key, index) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `${index ? "." : ""}${key}` : `[${JSON.stringify(key)}]`)).join("");
}
