// Client-side rate pacing (Octokit's throttling, as a layer around the request core): one token
// bucket per endpoint class, so a caller at full speed waits here instead of receiving 429s.
import { refilledTokens, type EndpointClass } from "../api";
import type { Clock } from "./clock";
import type { Send } from "./transport";

export type RateLimitTable = Record<EndpointClass, { limit: number; intervalMs: number }>;

/**
 * A token bucket that hands out reservations: each request takes a token now and is told how long
 * to wait for it, so concurrent callers queue in order without polling.
 *
 * It holds one token less than the server's bucket (at least one): the server counts arrivals, and
 * that spare token absorbs network jitter that would otherwise make a request arrive a moment early.
 */
export class TokenBucket {
  private readonly rate: { limit: number; intervalMs: number };
  private readonly capacity: number;
  private readonly msPerToken: number;
  private tokens: number;
  private updatedAt: number;

  constructor(limit: number, intervalMs: number, now: number) {
    this.rate = { limit, intervalMs };
    this.capacity = Math.max(1, limit - 1);
    this.msPerToken = intervalMs / limit;
    this.tokens = this.capacity;
    this.updatedAt = now;
  }

  /** Takes a token; returns how many milliseconds to wait before using it. */
  reserve(now: number): number {
    this.tokens = refilledTokens({ tokens: this.tokens, updatedAt: this.updatedAt }, now, this.rate, this.capacity);
    this.updatedAt = Math.max(now, this.updatedAt);
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil(-this.tokens * this.msPerToken);
  }
}

export function withPacing(send: Send, limits: RateLimitTable, clock: Clock): Send {
  const buckets = new Map<EndpointClass, TokenBucket>();
  const bucketFor = (endpointClass: EndpointClass): TokenBucket => {
    let bucket = buckets.get(endpointClass);
    if (!bucket) {
      const { limit, intervalMs } = limits[endpointClass];
      bucket = new TokenBucket(limit, intervalMs, clock.now());
      buckets.set(endpointClass, bucket);
    }
    return bucket;
  };
  return async (request) => {
    const wait = bucketFor(request.endpointClass).reserve(clock.now());
    if (wait > 0) await clock.sleep(wait);
    return send(request);
  };
}
