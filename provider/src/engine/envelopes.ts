// The walker of Pulumi's secret envelopes (secret-envelopes.ts, which publishes it): a secret is an
// object whose signature key (`specialSigKey`) holds the secret signature (`specialSecretSig`),
// both Pulumi's protocol constants (protocol-values.ts), around the value in one of three forms:
// - `value`: the engine's wire form (a provider's gRPC requests, with acceptSecrets);
// - `plaintext`: an exported state's (`pulumi stack export --show-secrets`), the value as JSON text;
// - `ciphertext`: an exported state's without --show-secrets, which cannot be opened here.
// Each other value (a leaf) goes through `leaf`, so that the plugin maps the engine's unknowns to
// the core's in the same walk (plugin/wire.ts).
import { isPlainObject } from "@asset-delivery/sdk";
import { describePath } from "../core";
import { specialSecretSig, specialSigKey } from "./protocol-values";

export type EnvelopePath = (string | number)[];

/** A secret exported encrypted (`ciphertext`): the stack must be exported with --show-secrets. */
export class EncryptedSecretError extends Error {
  constructor(readonly path: EnvelopePath) {
    super(`${describe(path)}: the secret is encrypted (export the stack with --show-secrets)`);
  }
}

/**
 * The value with every secret envelope opened (a copy), each leaf through `leaf`, and the paths
 * where envelopes were (outermost first, a secret inside a secret included). Another special
 * object (a resource reference, an asset, an output value) is refused, naming its path.
 */
export function openEnvelopes(value: unknown, leaf: (value: unknown) => unknown): { value: unknown; secretPaths: EnvelopePath[] } {
  const secretPaths: EnvelopePath[] = [];
  return { value: open(value, [], secretPaths, leaf), secretPaths };
}

// The walk keeps one path array, extended for the time of each member and copied only where an
// envelope is: the plugin opens four Structs a Source in a refresh (a Read's two, a Diff's two),
// and an array a value, with the copies Object.fromEntries makes, was a share of its CPU and GC.
function open(value: unknown, at: EnvelopePath, secretPaths: EnvelopePath[], leaf: (value: unknown) => unknown): unknown {
  if (Array.isArray(value)) {
    const opened = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) opened[index] = openMember(value[index], at, index, secretPaths, leaf);
    return opened;
  }
  if (!isPlainObject(value)) return leaf(value);
  if (!(specialSigKey in value)) {
    const opened: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const member = openMember(value[key], at, key, secretPaths, leaf);
      // An own member even when named `__proto__`, which an assignment would take as the prototype.
      if (key === "__proto__") Object.defineProperty(opened, key, { value: member, enumerable: true, writable: true, configurable: true });
      else opened[key] = member;
    }
    return opened;
  }
  if (value[specialSigKey] !== specialSecretSig)
    throw new Error(`${describe(at)}: resources, assets and output values are not supported here`);
  secretPaths.push([...at]);
  if ("value" in value) return open(value.value, at, secretPaths, leaf);
  if (typeof value.plaintext === "string") return open(JSON.parse(value.plaintext), at, secretPaths, leaf);
  if ("ciphertext" in value) throw new EncryptedSecretError([...at]);
  throw new Error(`${describe(at)}: a secret with neither value, plaintext nor ciphertext`);
}

/** `open` of the member `key` of the value at `at`, with `at` extended by `key` meanwhile. */
function openMember(
  value: unknown,
  at: EnvelopePath,
  key: string | number,
  secretPaths: EnvelopePath[],
  leaf: (value: unknown) => unknown,
): unknown {
  at.push(key);
  const opened = open(value, at, secretPaths, leaf);
  at.pop();
  return opened;
}

function describe(path: EnvelopePath): string {
  return path.length === 0 ? "(value)" : describePath(path);
}
