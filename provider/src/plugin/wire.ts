// Pulumi's property values on the wire (google.protobuf.Struct) and back. The engine marks a secret
// as an object with a signature key and a `value`, and a value not known yet (during a preview) as
// a fixed string; we answer Configure with acceptSecrets, so secrets arrive marked, wherever they
// are nested. Decoding takes the marks off and remembers where they were (by path); encoding puts
// them back at the paths given. Unknowns stay the engine's string, which the provider core already
// recognises (unknowns.ts).
import { isPlainObject } from "@asset-delivery/sdk";
import type * as structPb from "google-protobuf/google/protobuf/struct_pb";
import { describePath, type PropertyPath } from "../core/property-path";
import { protos } from "./grpc";

/** The key whose value says what a special object is, and the value that says "secret". */
const SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";
/** An unknown value: the same string as @pulumi/pulumi's runtime `unknownValue`. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export { describePath, type PropertyPath } from "../core/property-path";

/** Plain property values, and where secrets were. */
export interface Properties {
  values: Record<string, unknown>;
  secrets: PropertyPath[];
}

export function decodeStruct(struct: structPb.Struct | undefined): Properties {
  const secrets: PropertyPath[] = [];
  const values = struct ? unmark(struct.toJavaScript(), [], secrets) : {};
  return { values: isPlainObject(values) ? values : {}, secrets };
}

function unmark(value: unknown, at: (string | number)[], secrets: PropertyPath[]): unknown {
  if (Array.isArray(value)) return value.map((item, index) => unmark(item, [...at, index], secrets));
  if (!isPlainObject(value)) return value;
  if (value[SIGNATURE_KEY] === SECRET_SIGNATURE) {
    secrets.push(at);
    return unmark(value.value, at, secrets);
  }
  if (SIGNATURE_KEY in value) throw new Error(`${describePath(at)}: resources, assets and output values are not supported here`);
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, unmark(inner, [...at, key], secrets)]));
}

/**
 * The values as a Struct, each path of `secrets` that exists marked secret (a path inside another
 * secret is already covered). Undefined members are left out: the wire has no undefined.
 */
export function encodeStruct(values: Record<string, unknown>, secrets: readonly PropertyPath[] = []): structPb.Struct {
  const marked = markSecrets(withoutUndefinedDeep(values), outermost(secrets));
  return protos.struct.Struct.fromJavaScript(marked as Record<string, structPb.JavaScriptValue>);
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
  if (path.length === 0) return value === undefined ? value : { [SIGNATURE_KEY]: SECRET_SIGNATURE, value };
  const [head, ...rest] = path;
  if (Array.isArray(value) && typeof head === "number" && head < value.length) {
    return value.map((item: unknown, index) => (index === head ? markAt(item, rest) : item));
  }
  if (isPlainObject(value) && typeof head === "string" && value[head] !== undefined) {
    return { ...value, [head]: markAt(value[head], rest) };
  }
  return value; // not there: nothing to mark
}
