// source-allowed-types: the deployment types a stack may use (no config: any type).
import { SOURCE_TYPES, type SourceType } from "@asset-delivery/sdk";
import { UNKNOWN } from "../known";
import { sourcePolicy } from "../source-policy";

export interface AllowedTypesConfig {
  /** The deployment types allowed; absent: any type. */
  types?: SourceType[];
}

export const sourceAllowedTypes = sourcePolicy<AllowedTypesConfig>({
  name: "source-allowed-types",
  description: "The deployment type is one the stack allows (config `types`; without it, any type).",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      types: {
        type: "array",
        items: { type: "string", enum: [...SOURCE_TYPES] },
        minItems: 1,
        uniqueItems: true,
        description: "The deployment types allowed. Without it, any type is.",
      },
    },
  },
  check(source, { types }) {
    const type = source.type;
    if (types === undefined || type === UNKNOWN || type === undefined || types.includes(type)) return [];
    return [
      {
        path: "deployment.type",
        problem: `is not a type this stack allows (allowed: ${types.join(", ")})`,
        fix: `use one of ${types.join(", ")}, or add the Source's type to the types of source-allowed-types in the stack's policy config`,
      },
    ];
  },
});
