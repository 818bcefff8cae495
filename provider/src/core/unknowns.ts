// Values not known yet during a preview (outputs of resources still to be created) reach the
// provider as a sentinel string. Validation must not blame the user for them.
import { unknownValue } from "./protocol-values";
import { isPlainObject } from "@asset-delivery/sdk";

/** A value not known yet, as the engine sends it (Pulumi's protocol constant: protocol-values.ts). */
export const UNKNOWN = unknownValue;

export function isUnknown(value: unknown): boolean {
  return value === unknownValue;
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
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) if (a[i] !== b[i]) return false;
  return true;
}
