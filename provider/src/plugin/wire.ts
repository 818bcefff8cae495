// Pulumi's property values on the wire (google.protobuf.Struct) and back. The engine marks a secret
// as an envelope (secret-envelopes.ts), and a value not known yet (during a preview) as a fixed
// string; we answer Configure with acceptSecrets, so secrets arrive marked, wherever they are
// nested. Decoding opens the envelopes and remembers where they were (by path); encoding puts them
// back at the paths given. Unknowns stay the engine's string, which the provider core recognises
// (unknowns.ts).
import { isPlainObject } from "@asset-delivery/sdk";
import type * as structPb from "google-protobuf/google/protobuf/struct_pb";
import type { PropertyPath } from "../core/property-path";
import { openSecretEnvelopes, secretEnvelope } from "../secret-envelopes";
import { providerProtos } from "../engine/grpc";

export { UNKNOWN } from "../core/unknowns";
export { describePath, type PropertyPath } from "../core/property-path";

/** Plain property values, and where secrets were. */
export interface Properties {
  values: Record<string, unknown>;
  secrets: PropertyPath[];
}

export function decodeStruct(struct: structPb.Struct | undefined): Properties {
  if (!struct) return { values: {}, secrets: [] };
  const { value, secretPaths } = openSecretEnvelopes(struct.toJavaScript());
  return { values: isPlainObject(value) ? value : {}, secrets: secretPaths };
}

/**
 * The values as a Struct, each path of `secrets` that exists marked secret (a path inside another
 * secret is already covered). Undefined members are left out: the wire has no undefined.
 */
export function encodeStruct(values: Record<string, unknown>, secrets: readonly PropertyPath[] = []): structPb.Struct {
  const marked = markSecrets(withoutUndefinedDeep(values), outermost(secrets));
  return providerProtos().struct.Struct.fromJavaScript(marked as Record<string, structPb.JavaScriptValue>);
}

function withoutUndefinedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : withoutUndefinedDeep(item)));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, inner]) => inner !== undefined)
      .map(([key, inner]) => [key, withoutUndefinedDeep(inner)]),
  );
}

/** The paths with no other path of the list leading to them. */
function outermost(paths: readonly PropertyPath[]): PropertyPath[] {
  return paths.filter((path) => !paths.some((other) => other.length < path.length && other.every((segment, i) => segment === path[i])));
}

function markSecrets(values: unknown, secrets: readonly PropertyPath[]): unknown {
  let marked = values;
  for (const path of secrets) marked = markAt(marked, path);
  return marked;
}

function markAt(value: unknown, path: PropertyPath): unknown {
  if (path.length === 0) return value === undefined ? value : secretEnvelope(value);
  const [head, ...rest] = path;
  if (Array.isArray(value) && typeof head === "number" && head < value.length) {
    return value.map((item: unknown, index) => (index === head ? markAt(item, rest) : item));
  }
  if (isPlainObject(value) && typeof head === "string" && value[head] !== undefined) {
    return { ...value, [head]: markAt(value[head], rest) };
  }
  return value; // not there: nothing to mark
}
