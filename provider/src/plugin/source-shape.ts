// The native resource's shape against the provider core's. The native Source keeps each write-only
// field where it lives (`deployment.s3SecretKey`, marked secret on the wire); the core takes them
// apart in `deploymentSecrets`, as the dynamic resource must (it can only mark top-level outputs
// secret). These two functions are the only place the shapes meet, and the secret paths of the
// native state are worked out here from the sdk's field table.
import { isPlainObject } from "@asset-delivery/sdk";
import { splitSecrets, WRITE_ONLY_NAMES, type SourceInputs, type SourceState } from "../core/codec";
import type { PropertyPath } from "./wire";

/** Native inputs or state: the core's, with the declared secrets back inside the deployment. */
export type NativeSource = Record<string, unknown>;

/** The native inputs or state as the core takes them: write-only fields apart in `deploymentSecrets`. */
export function toCore(native: NativeSource): Record<string, unknown> {
  const { deployment } = native;
  if (!isPlainObject(deployment)) return native; // check reports it
  const split = splitSecrets(deployment);
  return { ...native, deployment: split.deployment, deploymentSecrets: split.secrets };
}

/**
 * A state the engine hands back (to diff, update, read): one this provider wrote from the core's
 * `SourceState` (create, update, read, import), in the native shape. It is not parsed again: it
 * holds what the server returned, which the sdk parsed when it arrived, and a rule of a later
 * version must not make an existing state unreadable.
 */
export function stateOf(native: NativeSource): SourceState {
  return toCore(native) as unknown as SourceState;
}

/** The core's inputs or state in the native shape. */
export function fromCore(core: SourceInputs | SourceState | Record<string, unknown>): NativeSource {
  const { deploymentSecrets, deployment, ...rest } = core as Record<string, unknown>;
  if (!isPlainObject(deployment)) return rest;
  return { ...rest, deployment: { ...deployment, ...(isPlainObject(deploymentSecrets) ? deploymentSecrets : {}) } };
}

/**
 * Where a Source may hold secrets: every write-only deployment field (of any type, so that a type
 * not known yet loses none), and the secure-URL token. Paths absent from a value mark nothing.
 */
export const SECRET_PATHS: readonly PropertyPath[] = [...[...WRITE_ONLY_NAMES].map((field) => ["deployment", field]), ["secureUrlToken"]];
