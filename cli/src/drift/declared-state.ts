// The Sources a stack manages, as its state last recorded them: each Source resource's inputs
// (the program's declaration, checked and with the API's defaults filled in) and its id. The
// state comes from `pulumi stack export --show-secrets`, so secrets arrive decrypted inside
// Pulumi's secret envelopes, which are unwrapped here.
import { isPlainObject } from "@asset-delivery/sdk";
import { SOURCE_RESOURCE_TYPE } from "@asset-delivery/provider";
import type { SourceInputs } from "@asset-delivery/provider/core";

export { SOURCE_RESOURCE_TYPE };

// Pulumi marks a secret value with this key and value (sdk/go/common/resource/sig).
const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export interface DeclaredSource {
  /** The resource's Pulumi name: the last part of its URN. */
  name: string;
  id: string;
  inputs: SourceInputs;
  /** Where the inputs held secrets (e.g. `["deployment", "s3AccessKey"]` from a secret config value): never printed. */
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

/** The managed Sources of an exported deployment (`{ version, deployment: { resources } }`), by Pulumi name. */
export function declaredSources(exported: unknown): DeclaredSource[] {
  const deployment = isPlainObject(exported) ? exported.deployment : undefined;
  const resources = isPlainObject(deployment) ? deployment.resources : undefined;
  if (deployment === undefined) throw new Error("the exported stack has no deployment");
  if (resources === undefined) return []; // a stack never updated has no resources
  if (!Array.isArray(resources)) throw new Error("the exported stack's deployment.resources is not a list");
  return (resources as StateResource[])
    .filter((resource) => resource.type === SOURCE_RESOURCE_TYPE && resource.delete !== true)
    .map((resource) => {
      const urn = String(resource.urn);
      if (typeof resource.id !== "string" || resource.id === "") throw new Error(`${urn}: the state has no Source id`);
      if (!isPlainObject(resource.inputs)) throw new Error(`${urn}: the state has no inputs`);
      const secretPaths: string[][] = [];
      const inputs = revealed(resource.inputs, urn, [], secretPaths) as SourceInputs;
      return { name: urn.slice(urn.lastIndexOf("::") + 2), id: resource.id, inputs, secretPaths };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The value with every secret envelope replaced by its plaintext; the envelopes' paths are added to `secretPaths`. */
function revealed(value: unknown, urn: string, path: string[], secretPaths: string[][]): unknown {
  if (Array.isArray(value)) return value.map((item, index) => revealed(item, urn, [...path, String(index)], secretPaths));
  if (!isPlainObject(value)) return value;
  if (value[SECRET_SIG_KEY] === SECRET_SIG) {
    if (typeof value.plaintext !== "string")
      throw new Error(`${urn}: the state's secrets are encrypted (the stack must be exported with --show-secrets)`);
    secretPaths.push(path);
    return revealed(JSON.parse(value.plaintext), urn, path, secretPaths);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, revealed(item, urn, [...path, key], secretPaths)]));
}
