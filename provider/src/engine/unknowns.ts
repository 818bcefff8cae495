// A value not known yet: the engine's wire string (protocol-values.ts) against the core's own
// (core/unknowns.ts). Each shell maps what the engine hands over to the core's, and what goes back
// to the engine's, at its edge: the plugin as it decodes and encodes (plugin/wire.ts), the dynamic
// resource as it changes shapes (dynamic/shape.ts).
import { isPlainObject } from "@asset-delivery/sdk";
import { UNKNOWN } from "../core";
import { unknownValue } from "./protocol-values";

export { unknownValue };

/** A value not known yet, as the engine sends it. */
export function isEngineUnknown(value: unknown): boolean {
  return value === unknownValue;
}

/** A leaf value, the engine's unknown made the core's (the plugin's decoding walk, engine/envelopes.ts). */
export function coreUnknown(value: unknown): unknown {
  return value === unknownValue ? UNKNOWN : value;
}

/** A copy of `value` in which each of the engine's unknowns is the core's (the dynamic host's values are the host's). */
export function withCoreUnknowns<T>(value: T): T {
  return replaced(value, unknownValue, UNKNOWN) as T;
}

/** A copy of `value` in which each of the core's unknowns is the engine's. */
export function withEngineUnknowns<T>(value: T): T {
  return replaced(value, UNKNOWN, unknownValue) as T;
}

function replaced(value: unknown, from: unknown, to: unknown): unknown {
  if (value === from) return to;
  if (Array.isArray(value)) return value.map((item: unknown) => replaced(item, from, to));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, replaced(inner, from, to)]));
}
