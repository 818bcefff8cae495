// Pulumi's property values on the wire (google.protobuf.Struct) and back. The engine marks a secret
// as an envelope (secret-envelopes.ts), and a value not known yet (during a preview) as a fixed
// string; we answer Configure with acceptSecrets, so secrets arrive marked, wherever they are
// nested. Decoding opens the envelopes and remembers where they were (by path); encoding puts them
// back at the paths given. A value not known yet is the engine's string on the wire and the core's
// own value (core/unknowns.ts) inside: mapped here both ways (engine/unknowns.ts).
import { isPlainObject } from "@asset-delivery/sdk";
import type * as structPb from "google-protobuf/google/protobuf/struct_pb";
import { isWithin, type PropertyPath, UNKNOWN } from "../core";
import { secretEnvelope } from "../secret-envelopes";
import { openEnvelopes } from "../engine/envelopes";
import { providerProtos } from "../engine/grpc";
import { coreUnknown, unknownValue } from "../engine/unknowns";

export { UNKNOWN };
export type { PropertyPath };

/** Plain property values, and where secrets were. */
export interface Properties {
  values: Record<string, unknown>;
  secrets: PropertyPath[];
}

export function decodeStruct(struct: structPb.Struct | undefined): Properties {
  if (!struct) return { values: {}, secrets: [] };
  // One walk: the envelopes opened, the engine's unknowns made the core's.
  const { value, secretPaths } = openEnvelopes(struct.toJavaScript(), coreUnknown);
  return { values: isPlainObject(value) ? value : {}, secrets: secretPaths };
}

/**
 * The values as a Struct, each path of `secrets` that exists marked secret (a path inside another
 * secret is already covered). Undefined members are left out: the wire has no undefined.
 */
export function encodeStruct(values: Record<string, unknown>, secrets: readonly PropertyPath[] = []): structPb.Struct {
  const marked = markSecrets(wireValues(values), outermost(secrets));
  return providerProtos().struct.Struct.fromJavaScript(marked as Record<string, structPb.JavaScriptValue>);
}

/** A copy with undefined members left out and the core's unknowns written as the engine's. */
function wireValues(value: unknown): unknown {
  if (value === UNKNOWN) return unknownValue;
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : wireValues(item)));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, inner]) => inner !== undefined)
      .map(([key, inner]) => [key, wireValues(inner)]),
  );
}

/** The paths with no other path of the list leading to them. */
function outermost(paths: readonly PropertyPath[]): PropertyPath[] {
  return paths.filter((path) => !paths.some((other) => other.length < path.length && isWithin(path, other)));
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
