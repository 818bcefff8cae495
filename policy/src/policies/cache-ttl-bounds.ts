// source-cache-ttl-bounds: the cache TTL within the stack's bounds. The bounds default to the
// API's own (the sdk's rule for cache_ttl_value), so only a config narrows them.
import { cacheTtlValueSchema } from "@asset-delivery/sdk";
import { sourcePolicy } from "../source-policy";
import { deploymentPath } from "../source-view";

export interface CacheTtlBoundsConfig {
  /** Seconds. */
  min: number;
  /** Seconds. */
  max: number;
}

const API_MIN = cacheTtlValueSchema.minValue ?? 0;
const API_MAX = cacheTtlValueSchema.maxValue ?? Number.MAX_SAFE_INTEGER;
const PATH = deploymentPath("cache_ttl_value");

export const sourceCacheTtlBounds = sourcePolicy<CacheTtlBoundsConfig>({
  name: "source-cache-ttl-bounds",
  description: "cacheTtlValue is within the stack's bounds (config `min` and `max`, in seconds).",
  enforcementLevel: "advisory",
  configSchema: {
    properties: {
      min: { type: "integer", minimum: API_MIN, maximum: API_MAX, default: API_MIN, description: "Shortest cache TTL allowed, seconds." },
      max: { type: "integer", minimum: API_MIN, maximum: API_MAX, default: API_MAX, description: "Longest cache TTL allowed, seconds." },
    },
  },
  check(source, { min, max }) {
    if (min > max) throw new Error(`source-cache-ttl-bounds config: min (${min}) must not be greater than max (${max})`);
    // Not declared means the API's default, which the view gives.
    const ttl = source.field("cache_ttl_value");
    if (typeof ttl !== "number" || (ttl >= min && ttl <= max)) return [];
    return [
      {
        path: PATH,
        problem: ttl < min ? `is below the minimum of ${min} s` : `is above the maximum of ${max} s`,
        fix: `set ${PATH} to between ${min} and ${max} seconds`,
      },
    ];
  },
});
