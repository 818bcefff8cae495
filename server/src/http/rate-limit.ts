// Rate limits (spec 8), per API key and endpoint class, as token buckets from the sdk's
// RATE_LIMITS table (the client paces itself with the same table). The class is the matched
// route's (declared in the sdk's API_ROUTES), never read from the URL text: `/api/v1/%73ources`
// reaches the create handler, so it counts as a create. Kept in memory: a restart
// refills every bucket.
import type { FastifyInstance } from "fastify";
import { RATE_LIMITS, type EndpointClass } from "@asset-delivery/sdk";
import { ApiError, ERROR_TITLES } from "./errors";

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export type Admission = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Token buckets keyed by caller and endpoint class, each starting full. */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  take(caller: string, endpointClass: EndpointClass, nowMs: number): Admission {
    const { limit, intervalMs } = RATE_LIMITS[endpointClass];
    const perMs = limit / intervalMs;
    const key = `${endpointClass}:${caller}`;
    const bucket = this.buckets.get(key) ?? { tokens: limit, updatedAt: nowMs };
    bucket.tokens = Math.min(limit, bucket.tokens + Math.max(0, nowMs - bucket.updatedAt) * perMs);
    bucket.updatedAt = nowMs;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    // Whole seconds until a token is back, never 0 (a client retrying at once would be refused again).
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) };
  }
}

function intervalName(intervalMs: number): string {
  const units: [number, string][] = [[3_600_000, "hour"], [60_000, "minute"], [1_000, "second"]];
  const [size, name] = units.find(([unit]) => intervalMs % unit === 0) ?? [1, "millisecond"];
  return intervalMs === size ? name : `${intervalMs / size} ${name}s`;
}

/** Adds the limit as an onRequest hook; register it after the auth hook, which identifies the key. */
export function registerRateLimits(app: FastifyInstance, now: () => number): void {
  const buckets = new TokenBuckets();
  app.addHook("onRequest", async (request) => {
    if (!request.auth) return; // routes without a key (the OpenAPI document) are not limited
    // No matched route (a 404): the default class.
    const endpointClass = request.routeOptions.config.endpointClass ?? "default";
    const admission = buckets.take(request.auth.keyId, endpointClass, now());
    if (admission.allowed) return;
    const { limit, intervalMs } = RATE_LIMITS[endpointClass];
    throw new ApiError(
      429,
      ERROR_TITLES[429]!,
      `Rate limit exceeded: this API key may make ${limit} such requests per ${intervalName(intervalMs)}; retry in ${admission.retryAfterSeconds} s.`,
      { headers: { "retry-after": String(admission.retryAfterSeconds) }, meta: { endpoint_class: endpointClass, limit, interval_ms: intervalMs } },
    );
  });
}
