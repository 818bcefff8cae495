// The one reader of the Sources a stack manages, for drift review and import: each Source resource
// of the state, as its inputs were last recorded (the program's declaration, checked and with the
// API's defaults filled in), its inputs in the provider core's shape: the API's names, renamed once
// here (`coreInputs`, the shells' own conversion); its secret paths in the resource's names, as
// the program wrote them. Both resource shapes are read:
// - the native plugin's `assetdelivery:index:Source` (YAML, Python, Go, and TypeScript on the
//   generated @asset-delivery/pulumi), whose inputs have each write-only value inside
//   `deployment`, where it lives;
// - the dynamic Source (`new Source(...)` of @asset-delivery/provider, TypeScript only), whose
//   write-only values lie apart in `deploymentSecrets`: merged in once here, by the dynamic shell's
//   own merge (`dynamicToCore`).
// The state comes from `pulumi stack export --show-secrets`: secrets arrive decrypted inside
// Pulumi's secret envelopes, opened by the provider's one walker (`openSecretEnvelopes`).
import { DYNAMIC_SECRETS_KEY, isPlainObject } from "@asset-delivery/sdk";
import { coreInputs, dynamicToCore, NATIVE_SOURCE_TYPE, SOURCE_RESOURCE_TYPE } from "@asset-delivery/provider";
import type { SourceInputs } from "@asset-delivery/provider/core";
import { EncryptedSecretError, openSecretEnvelopes } from "@asset-delivery/provider/secret-envelopes";

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
      const shape = SHAPES[resource.type as string]!;
      const recorded = opened(resource.inputs, urn);
      // In the core's names, as the plugin's and the dynamic shell's edges rename them.
      const inputs = coreInputs(shape === "dynamic" ? dynamicToCore(recorded.value) : recorded.value);
      const secretPaths =
        shape === "dynamic" ? recorded.secretPaths.flatMap((path) => inCoreShape(path, recorded.value)) : recorded.secretPaths;
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

/** The inputs with Pulumi's secret envelopes opened, and where they were (as strings: `["deployment", "customDomains", "1"]`). */
function opened(inputs: Record<string, unknown>, urn: string): { value: Record<string, unknown>; secretPaths: string[][] } {
  try {
    const { value, secretPaths } = openSecretEnvelopes(inputs);
    return { value: value as Record<string, unknown>, secretPaths: secretPaths.map((path) => path.map(String)) };
  } catch (error) {
    if (error instanceof EncryptedSecretError)
      throw new Error(`${urn}: the state's secrets are encrypted (the stack must be exported with --show-secrets)`, { cause: error });
    throw error;
  }
}

/** A dynamic Source's secret path as the native resource has it (its names): `deploymentSecrets` (whole or a member) is the write-only fields in `deployment`. */
function inCoreShape(path: string[], dynamic: Record<string, unknown>): string[][] {
  if (path[0] !== DYNAMIC_SECRETS_KEY) return [path];
  if (path.length > 1) return [["deployment", ...path.slice(1)]];
  const secrets = dynamic[DYNAMIC_SECRETS_KEY];
  return isPlainObject(secrets) ? Object.keys(secrets).map((field) => ["deployment", field]) : [];
}
