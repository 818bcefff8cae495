// The secrets of a printed declaration: what its code reads from config, and the guard that keeps
// any secret's plaintext out of it. The API never returns write-only values (the generator writes
// "" for a required one), and a value the program passes as a secret (e.g. `deployment.s3AccessKey`
// from secret config) comes back in plain text: each becomes a read of a secret config key
// (secret-config-key.ts names it). A write-only field the Source holds (the sdk's holdsSecret: its
// flag, `password_set`, or its type requires it) is added the same way, so that the declaration
// keeps it; one it does not hold is left out, and so is its config key.
import { camelCase, holdsSecret, isPlainObject, writeOnlyFields, type Source } from "@asset-delivery/sdk";
import { toPulumiNames, writeOnlyFieldNames } from "@asset-delivery/provider";
import { declarableDeployment } from "@asset-delivery/provider/core";
import { secretConfigKey } from "../../sources/secret-config-key";
import type { DeclaredSource } from "../declared-state";

export interface LiveDeclared {
  declared: DeclaredSource;
  live: Source;
}

/** A secret of a Source as the code reads it from config: a write-only field, or a value the program passes as a secret. */
export interface SecretField {
  /** The camelCase path in the Source's arguments, e.g. `["deployment", "password"]`. */
  path: string[];
  /** The config key the code reads it from: `photosPassword`. */
  key: string;
  /** The live value, where the API returns it (never for a write-only field). */
  value?: string;
}

/** The secrets a declaration of the live Source reads from config: the write-only fields it holds, and the values the program passes as secrets. */
export function secretsOf({ declared, live }: LiveDeclared): SecretField[] {
  const { deployment } = live.attributes;
  // As the program declares them: the resource's names.
  const liveArgs = toPulumiNames({ name: live.attributes.name, enabled: live.attributes.enabled, deployment: declarableDeployment(live) });
  const writeOnly = writeOnlyFieldNames(deployment.type);
  // Held unless the API says it is not: a field it does not report is kept in the declaration.
  const held = writeOnlyFields(deployment.type)
    .filter((field) => holdsSecret(deployment, field) !== false)
    .map((field) => ({ path: ["deployment", camelCase(field)], key: secretConfigKey(declared.name, camelCase(field)) }));
  const passed = declared.secretPaths
    .filter((secretPath) => !(secretPath.length === 2 && secretPath[0] === "deployment" && writeOnly.includes(secretPath[1]!)))
    .flatMap((secretPath) => {
      const value = valueAt(liveArgs, secretPath);
      if (typeof value !== "string") return [];
      return [{ path: secretPath, key: secretConfigKey(declared.name, secretPath[secretPath.length - 1]!), value }];
    });
  return [...held, ...passed];
}

/** The plaintext of every secret the stack declares for the Source: none may reach the code, whatever the generator did. */
function declaredSecretValues({ inputs: declared, secretPaths }: DeclaredSource): string[] {
  // The resource's names, which the secret paths are in.
  const inputs = toPulumiNames(declared);
  const leaves = (value: unknown): string[] =>
    typeof value === "string"
      ? [value]
      : Array.isArray(value)
        ? value.flatMap(leaves)
        : isPlainObject(value)
          ? Object.values(value).flatMap(leaves)
          : [];
  const deployment = inputs.deployment as Record<string, unknown>;
  const writeOnly = writeOnlyFieldNames(deployment.type).map((field) => deployment[field]);
  return [...leaves(writeOnly), ...secretPaths.flatMap((at) => leaves(valueAt(inputs, at)))];
}

function valueAt(value: unknown, at: readonly string[]): unknown {
  return at.reduce<unknown>((inner, key) => (isPlainObject(inner) ? inner[key] : undefined), value);
}

/** Whether the code holds the plaintext of a secret: a live value it was to read from config, or any the stack declares. */
export function leaksSecret(code: string, source: LiveDeclared, secrets: readonly SecretField[]): boolean {
  return [...secrets.map(({ value }) => value), ...declaredSecretValues(source.declared)].some(
    (value) => value !== undefined && value !== "" && code.includes(value),
  );
}
