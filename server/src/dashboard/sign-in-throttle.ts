// Repeated failed sign-ins are slowed down: after a few failures for one email (or from one
// address), each further try must wait twice as long as the one before, up to a cap, and a try
// made too early is refused without checking the password. Time is an input (the app's clock).
import { LRUCache } from "lru-cache";

export interface ThrottlePolicy {
  /** Failures allowed before any wait. */
  freeFailures: number;
  /** The first wait, doubled at each further failure. */
  firstWaitMs: number;
  maxWaitMs: number;
  /** A series of failures is forgotten this long after its last failure. */
  forgetAfterMs: number;
}

/** Per email: 5 free tries, then 1 s, 2 s, 4 s, ... up to 5 minutes. Per address: 4 times as many free tries (shared offices). */
export const EMAIL_POLICY: ThrottlePolicy = { freeFailures: 5, firstWaitMs: 1_000, maxWaitMs: 300_000, forgetAfterMs: 3_600_000 };
export const ADDRESS_POLICY: ThrottlePolicy = { ...EMAIL_POLICY, freeFailures: 20 };

interface Failures {
  count: number;
  lastAt: number;
}

/** How long to wait after `count` failures, the last at `lastAt`: 0 when a try is allowed now. */
export function waitMs(policy: ThrottlePolicy, failures: Failures | undefined, now: number): number {
  if (!failures || now - failures.lastAt >= policy.forgetAfterMs || failures.count < policy.freeFailures) return 0;
  const wait = Math.min(policy.maxWaitMs, policy.firstWaitMs * 2 ** (failures.count - policy.freeFailures));
  return Math.max(0, failures.lastAt + wait - now);
}

// Bounded: an attacker cycling through emails or addresses evicts the oldest entries, not memory.
const MAX_TRACKED = 50_000;

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;

export function createSignInThrottle(now: () => number) {
  const byEmail = new LRUCache<string, Failures>({ max: MAX_TRACKED });
  const byAddress = new LRUCache<string, Failures>({ max: MAX_TRACKED });
  const emailKey = (email: string) => email.trim().toLowerCase();

  return {
    /** Milliseconds before this email may be tried from this address; 0: now. */
    retryAfterMs(email: string, address: string): number {
      const at = now();
      return Math.max(waitMs(EMAIL_POLICY, byEmail.get(emailKey(email)), at), waitMs(ADDRESS_POLICY, byAddress.get(address), at));
    },
    failed(email: string, address: string): void {
      const at = now();
      for (const [cache, key, policy] of [
        [byEmail, emailKey(email), EMAIL_POLICY],
        [byAddress, address, ADDRESS_POLICY],
      ] as const) {
        const previous = cache.get(key);
        const stale = !previous || at - previous.lastAt >= policy.forgetAfterMs;
        cache.set(key, { count: stale ? 1 : previous.count + 1, lastAt: at });
      }
    },
    /** A success forgets the email's failures (the address's stay: it may be guessing others). */
    succeeded(email: string): void {
      byEmail.delete(emailKey(email));
    },
  };
}
