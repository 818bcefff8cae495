// A bound on how fast the dashboard is asked for pages: token buckets per session cookie and per
// client address, refused with 429 and Retry-After. The dashboard's pages read the database
// and files for a person; a script reloading them must not slow the API for every account. Real
// time, not the app's clock (a test's clock held still must not stop the buckets refilling).
// The API's own limits are per account, in server/src/http/rate-limit.ts.
import { LRUCache } from "lru-cache";
import { refilledTokens, type BucketState } from "@asset-delivery/sdk";

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

// Bounded: an attacker cycling through addresses or sessions evicts the oldest, not memory.
const MAX_TRACKED = 50_000;

export type RequestLimit = ReturnType<typeof createRequestLimit>;

export function createRequestLimit(now: () => number = Date.now, rates = { session: SESSION_RATE, address: ADDRESS_RATE }) {
  const buckets = new LRUCache<string, BucketState>({ max: MAX_TRACKED });

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
     * Takes a request from the address's bucket and, when the request carries a session cookie, the
     * session's; the seconds to wait when either is empty (then nothing more is taken), else 0.
     */
    admit(address: string, sessionKey: string | undefined): number {
      const at = now();
      const byAddress = take(`address:${address}`, rates.address, at);
      if (byAddress > 0 || sessionKey === undefined) return byAddress;
      return take(`session:${sessionKey}`, rates.session, at);
    },
  };
}
