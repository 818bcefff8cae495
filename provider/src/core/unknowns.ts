// Values not known yet during a preview (outputs of resources still to be created): the core's own
// value for one, which each shell maps its engine's form to at its edge, and back. Validation must
// not blame the user for them.
import { isPlainObject } from "@asset-delivery/sdk";
import { isWithin } from "./property-path";

/** A value not known yet. */
export const UNKNOWN: unique symbol = Symbol("not known yet");

export function isUnknown(value: unknown): value is typeof UNKNOWN {
  return value === UNKNOWN;
}

/** The paths of every unknown value inside `value`. */
export function unknownPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (isUnknown(value)) return [at];
  if (Array.isArray(value)) return value.flatMap((item, index) => unknownPaths(item, [...at, index]));
  if (isPlainObject(value)) return Object.entries(value).flatMap(([key, item]) => unknownPaths(item, [...at, key]));
  return [];
}

export function containsUnknown(value: unknown): boolean {
  return unknownPaths(value).length > 0;
}

/** Whether one path leads into the other (or they are the same). */
export function pathsOverlap(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return isWithin(a, b) || isWithin(b, a);
}
