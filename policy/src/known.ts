// Values as the policy engine hands them over, copied into plain data once. During a preview a
// value computed from another resource is not known yet: @pulumi/policy's properties throw its
// UnknownValueError when such a member is read. Reading member by member here turns each of those
// into UNKNOWN, so that a rule can skip that value alone (the Source's other values are still
// checked) instead of the whole policy being skipped for the resource.
import { UnknownValueError } from "@pulumi/policy";

/** A value the engine does not know yet (during a preview). */
export const UNKNOWN: unique symbol = Symbol("unknown during preview");
export type Unknown = typeof UNKNOWN;

/** A value, or UNKNOWN while the engine does not know it. */
export type Known<T> = T | Unknown;

/** Plain data copied from a resource's properties: JSON values, with UNKNOWN where a value is not known. */
export type Value = null | boolean | number | string | Unknown | readonly Value[] | { readonly [key: string]: Value };

/** The member `key` of a property object: UNKNOWN if the engine does not know it, undefined if absent. */
export function memberOf(object: unknown, key: string | number): Value | undefined {
  let member: unknown;
  try {
    member = (object as Record<string | number, unknown>)[key];
  } catch (error) {
    if (error instanceof UnknownValueError) return UNKNOWN;
    throw error;
  }
  return member === undefined ? undefined : plainValue(member);
}

/** A property value as plain data, each member read once (see memberOf). */
export function plainValue(value: unknown): Value {
  if (value === null || typeof value === "boolean" || typeof value === "number" || typeof value === "string") return value;
  if (Array.isArray(value)) return Array.from({ length: value.length }, (_, index) => memberOf(value, index) ?? null);
  if (typeof value === "object") {
    const members: Record<string, Value> = {};
    for (const key of Object.keys(value)) {
      const member = memberOf(value, key);
      if (member !== undefined) members[key] = member;
    }
    return members;
  }
  // Assets and archives have no place in a Source.
  throw new Error(`unexpected ${typeof value} in a resource's properties`);
}

/** Whether a value, or anything inside it, is not known yet. */
export function containsUnknown(value: Value | undefined): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** A plain object (not a list, not UNKNOWN). */
export function isRecord(value: Value | undefined): value is { readonly [key: string]: Value } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
