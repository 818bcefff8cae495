// Small facts about plain JSON-like values, used by every part that handles them.

/** A JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An intersection or mapped type shown as one plain object type (in editors and errors). */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The members `keys` of an object; absent (undefined) ones are left out. */
export function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (value[key] !== undefined) picked[key] = value[key];
  return picked;
}

/** The object without its `undefined` members: JSON and Pulumi's wire format have no `undefined`. */
export function withoutUndefined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
