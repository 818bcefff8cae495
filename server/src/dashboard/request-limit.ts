// A bound on how fast the dashboard is asked for pages: token buckets per session and per client
// network (its address; an IPv6 client also by its /56 and /48, client-key.ts), refused with 429
// and Retry-After. The dashboard's pages read the database and files for a person; a script
// reloading them must not slow the API for every account. Real time, not the app's clock (a test's
// clock held still must not stop the buckets refilling). The API's own limits are per account, in
// server/src/http/rate-limit.ts.
import { LRUCache } from "lru-cache";
import { refilledTokens, type BucketState } from "@asset-delivery/sdk";
import { createLimiterKeys } from "./limiter-key";

export interface RequestRate {
  /** Requests allowed at once (the bucket's size). */
  burst: number;
  /** Requests per second allowed after the burst. */
  perSecond: number;
}

/** A person clicks and reloads far below these; a page load is one request plus its assets. */
export const SESSION_RATE: RequestRate = { burst: 20, perSecond: 2 };
/** Several people behind one address (an office), or one visitor's sign-in form. */
export const ADDRESS_RATE: RequestRate = { burst: 120, perSecond: 6 };
/** An IPv6 client's /56 and /48: twice and 4 times the address's. */
export const WIDER_NETWORK_RATES: readonly RequestRate[] = [
  { burst: 240, perSecond: 12 },
  { burst: 480, perSecond: 24 },
];

// Bounded in bytes, since every entry is the same size (a 22-character key, two numbers): an
// attacker cycling through addresses evicts the oldest, not memory. A bucket is forgotten once it
// would have refilled (a forgotten bucket is a full one, so forgetting loses nothing).
const MAX_TRACKED = 50_000;

export type RequestLimit = ReturnType<typeof createRequestLimit>;

export function createRequestLimit(
  // Date.now read at each call, not kept: a test's fake Date holds the buckets still.
  now: () => number = () => Date.now(),
  rates = { session: SESSION_RATE, address: ADDRESS_RATE, widerNetworks: WIDER_NETWORK_RATES },
) {
  const refillMs = (rate: RequestRate) => Math.ceil((rate.burst / rate.perSecond) * 1000);
  const slowest = Math.max(...[rates.session, rates.address, ...rates.widerNetworks].map(refillMs));
  const buckets = new LRUCache<string, BucketState>({ max: MAX_TRACKED, ttl: slowest });
  const keyOf = createLimiterKeys();

  /** Seconds until the bucket has a token again; 0 when one was taken now. */
  function take(key: string, rate: RequestRate, at: number): number {
    const perMs = rate.perSecond / 1000;
    const interval = { limit: rate.perSecond, intervalMs: 1000 };
    const previous = buckets.get(key) ?? { tokens: rate.burst, updatedAt: at };
    const tokens = refilledTokens(previous, at, interval, rate.burst);
    if (tokens >= 1) {
      buckets.set(key, { tokens: tokens - 1, updatedAt: at });
      return 0;
    }
    buckets.set(key, { tokens, updatedAt: at });
    return Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
  }

  return {
    /**
     * Takes a request from the bucket of each of the client's networks (clientNetworks, narrowest
     * first) and, when the request carries a session (its id, once the cookie's signature is checked),
     * the session's; the seconds to wait when one is empty (then nothing more is taken), else 0.
     */
    admit(networks: readonly string[], sessionId: string | undefined): number {
      const at = now();
      const networkRates = [rates.address, ...rates.widerNetworks];
      for (const [i, network] of networks.entries()) {
        const wait = take(keyOf("network", network), networkRates[i] ?? networkRates.at(-1)!, at);
        if (wait > 0) return wait;
      }
      return sessionId === undefined ? 0 : take(keyOf("session", sessionId), rates.session, at);
    },
  };
}
