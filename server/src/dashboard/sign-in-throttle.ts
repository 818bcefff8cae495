// Repeated failed sign-ins are slowed down: after a few attempts for one email (or from one
// address), each further try must wait twice as long as the one before, up to a cap, and a try
// made too early is refused without checking the password. An attempt is counted before its
// password is checked, in one synchronous step: guesses sent together are counted one after
// another, so no more of them are checked than the policy lets through. Time is an input (the
// app's clock).
import { LRUCache } from "lru-cache";

export interface ThrottlePolicy {
  /** Attempts allowed before any wait. */
  freeFailures: number;
  /** The first wait, doubled at each further attempt. */
  firstWaitMs: number;
  maxWaitMs: number;
  /** A series of attempts is forgotten this long after its last one. */
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

export type Admission = { allowed: true } | { allowed: false; retryAfterMs: number };

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;

export function createSignInThrottle(now: () => number) {
  const byEmail = new LRUCache<string, Failures>({ max: MAX_TRACKED });
  const byAddress = new LRUCache<string, Failures>({ max: MAX_TRACKED });
  const emailKey = (email: string) => email.trim().toLowerCase();
  const series = [
    [byEmail, EMAIL_POLICY],
    [byAddress, ADDRESS_POLICY],
  ] as const;

  return {
    /**
     * Counts an attempt at this email from this address, as a failure until `succeeded` says
     * otherwise; refused (and not counted) while either must wait.
     */
    attempt(email: string, address: string): Admission {
      const at = now();
      const keys = [emailKey(email), address] as const;
      const retryAfterMs = Math.max(...series.map(([cache, policy], i) => waitMs(policy, cache.get(keys[i]!), at)));
      if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
      series.forEach(([cache, policy], i) => {
        const previous = cache.get(keys[i]!);
        const stale = !previous || at - previous.lastAt >= policy.forgetAfterMs;
        cache.set(keys[i]!, { count: stale ? 1 : previous.count + 1, lastAt: at });
      });
      return { allowed: true };
    },
    /**
     * The attempt's password was right: the email's series is forgotten, and the address gets the
     * attempt back (its other failures stay: it may be guessing other emails).
     */
    succeeded(email: string, address: string): void {
      byEmail.delete(emailKey(email));
      const previous = byAddress.get(address);
      if (previous) byAddress.set(address, { ...previous, count: Math.max(0, previous.count - 1) });
    },
  };
}
