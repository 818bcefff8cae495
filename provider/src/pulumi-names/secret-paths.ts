// Where a Source's values may hold secrets, in the resource's names, from the sdk's field table's
// `secret` mark (as the plugin's schema marks them): what the native plugin marks secret on the
// wire, wherever the values came from.
import { camelCase, SECRET_DEPLOYMENT_FIELDS, SECRET_SOURCE_ATTRIBUTES } from "@asset-delivery/sdk";
import type { PropertyPath } from "../core";

/** The resource's names of the Source's secret attributes: `secureUrlToken`. */
export const SECRET_ATTRIBUTE_NAMES: readonly string[] = SECRET_SOURCE_ATTRIBUTES.map(camelCase);

/**
 * Where the resource's inputs or state may hold secrets, from the sdk's field table's `secret`
 * mark (as the schema marks them): every secret deployment field (of any type, so that a type not
 * known yet loses none) and every secret attribute (the secure-URL token). Paths absent from a
 * value mark nothing.
 */
export const SECRET_PATHS: readonly PropertyPath[] = [
  ...[...SECRET_DEPLOYMENT_FIELDS].map((field) => ["deployment", camelCase(field)]),
  ...SECRET_ATTRIBUTE_NAMES.map((name) => [name]),
];
