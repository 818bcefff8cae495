// The one reader of the Sources a stack manages, for drift review and import: each Source resource
// of the state, as its inputs were last recorded (the program's declaration, checked and with the
// API's defaults filled in), in the provider core's shape. Both resource shapes are read:
// - the dynamic Source (`new Source(...)` of @asset-delivery/provider, TypeScript only), whose
//   inputs are the core's already, write-only values apart in `deploymentSecrets`;
// - the native plugin's `assetdelivery:index:Source` (YAML, Python, Go, and TypeScript on the
//   generated @asset-delivery/pulumi), whose write-only values stay inside `deployment`: they are
//   moved apart here, as the plugin does at its own edge.
// The state comes from `pulumi stack export --show-secrets`: secrets arrive decrypted inside
// Pulumi's secret envelopes, unwrapped by `revealed`, the one walker of those envelopes here.
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime";
import { isPlainObject } from "@asset-delivery/sdk";
import { NATIVE_SOURCE_TYPE, SOURCE_RESOURCE_TYPE, writeOnlyFieldNames } from "@asset-delivery/provider";
import type { SourceInputs } from "@asset-delivery/provider/core";

export { NATIVE_SOURCE_TYPE, SOURCE_RESOURCE_TYPE };

/** Which resource declares the Source: the dynamic `Source` or the native plugin's. */
export type SourceShape = "dynamic" | "native";

const SHAPES: Readonly<Record<string, SourceShape>> = { [SOURCE_RESOURCE_TYPE]: "dynamic", [NATIVE_SOURCE_TYPE]: "native" };

export interface DeclaredSource {
  /** The resource's Pulumi name: the last part of its URN. */
  name: string;
  urn: string;
  shape: SourceShape;
  id: string;
  inputs: SourceInputs;
  /** Where the recorded inputs held secrets (e.g. `["deployment", "s3AccessKey"]` from a secret config value): never printed. */
  secretPaths: string[][];
}

interface StateResource {
  urn?: unknown;
  type?: unknown;
  id?: unknown;
  inputs?: unknown;
  /** An old copy waiting to be deleted after a replacement: not managed any more. */
  delete?: unknown;
}

/** The managed Sources of an exported deployment (`{ version, deployment: { resources } }`), dynamic and native, by Pulumi name. */
export function declaredSources(exported: unknown): DeclaredSource[] {
  return stateResources(exported)
    .filter((resource) => typeof resource.type === "string" && resource.type in SHAPES && resource.delete !== true)
    .map((resource) => {
      const urn = String(resource.urn);
      if (typeof resource.id !== "string" || resource.id === "") throw new Error(`${urn}: the state has no Source id`);
      if (!isPlainObject(resource.inputs)) throw new Error(`${urn}: the state has no inputs`);
      const secretPaths: string[][] = [];
      const recorded = revealed(resource.inputs, urn, [], secretPaths) as Record<string, unknown>;
      const shape = SHAPES[resource.type as string]!;
      const inputs = (shape === "native" ? secretsApart(recorded) : recorded) as SourceInputs;
      return { name: resourceName(urn), urn, shape, id: resource.id, inputs, secretPaths };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Every resource name the state uses, of any type: names a new declaration must not take. */
export function resourceNames(exported: unknown): string[] {
  return stateResources(exported)
    .map((resource) => resource.urn)
    .filter((urn): urn is string => typeof urn === "string")
    .map(resourceName);
}

function stateResources(exported: unknown): StateResource[] {
  const deployment = isPlainObject(exported) ? exported.deployment : undefined;
  const resources = isPlainObject(deployment) ? deployment.resources : undefined;
  if (deployment === undefined) throw new Error("the exported stack has no deployment");
  if (resources === undefined) return []; // a stack never updated has no resources
  if (!Array.isArray(resources)) throw new Error("the exported stack's deployment.resources is not a list");
  return resources.filter(isPlainObject);
}

function resourceName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** Native inputs in the core's shape: the deployment's write-only fields (those of its type) apart in `deploymentSecrets`. */
function secretsApart(native: Record<string, unknown>): Record<string, unknown> {
  const { deployment } = native;
  if (!isPlainObject(deployment)) return native;
  const writeOnly = new Set(writeOnlyFieldNames(String(deployment.type)));
  const open = Object.fromEntries(Object.entries(deployment).filter(([key]) => !writeOnly.has(key)));
  const secrets = Object.fromEntries(Object.entries(deployment).filter(([key]) => writeOnly.has(key)));
  return { ...native, deployment: open, deploymentSecrets: secrets };
}

/** The value with every secret envelope replaced by its plaintext; the envelopes' paths are added to `secretPaths`. */
function revealed(value: unknown, urn: string, path: string[], secretPaths: string[][]): unknown {
  if (Array.isArray(value)) return value.map((item, index) => revealed(item, urn, [...path, String(index)], secretPaths));
  if (!isPlainObject(value)) return value;
  if (value[specialSigKey] === specialSecretSig) {
    if (typeof value.plaintext !== "string")
      throw new Error(`${urn}: the state's secrets are encrypted (the stack must be exported with --show-secrets)`);
    secretPaths.push(path);
    return revealed(JSON.parse(value.plaintext), urn, path, secretPaths);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, revealed(item, urn, [...path, key], secretPaths)]));
}
