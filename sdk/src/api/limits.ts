// Rate limits (spec section 8), shared by the server (which enforces them per account) and the
// client (which paces itself so that a caller at full speed never sees a 429). Which class a
// request counts against is a property of its route, declared once in `API_ROUTES` (routes.ts).

/**
 * Each endpoint class is a token bucket: up to `limit` requests at once, refilled continuously
 * at `limit` per `intervalMs`.
 */
export const RATE_LIMITS = {
  default: { limit: 4, intervalMs: 1_000 },
  createSource: { limit: 60, intervalMs: 3_600_000 },
  updateSource: { limit: 60, intervalMs: 3_600_000 },
  purgeAsset: { limit: 10, intervalMs: 1_000 },
} as const;

export type EndpointClass = keyof typeof RATE_LIMITS;

/** A token bucket's state: its tokens (fractional) as of `updatedAt` (milliseconds). */
export interface BucketState {
  tokens: number;
  updatedAt: number;
}

/**
 * The bucket's tokens at `now`, refilled continuously at `limit` per `intervalMs` and never above
 * `capacity`: the one refill rule of the server's limits and the client's pacing.
 */
export function refilledTokens(bucket: BucketState, now: number, rate: { limit: number; intervalMs: number }, capacity: number): number {
  return Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.updatedAt) * (rate.limit / rate.intervalMs));
}
