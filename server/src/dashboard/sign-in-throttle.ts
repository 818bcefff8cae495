// Repeated failed sign-ins are slowed down: after a few failures, each further try must wait twice
// as long as the one before, up to a cap, and a try made too early is refused without checking the
// password. Failures count in several series at once, and a try must be allowed by each:
// - the email from this address: 5 free tries, so a guesser on one address is slowed at once, and
//   never locks the user out from another address;
// - the email from every address together, with more free tries: a guesser spread over many
//   addresses; this one could lock the user out from anywhere, so a browser that signed in as the
//   user before (its device cookie, device-cookie.ts: OWASP's "device cookies") is not held by it,
//   nor by the email-from-this-address series: it has a series of its own instead;
// - the address, across emails: a guesser trying many accounts.
// An attempt is counted before its password is checked, in one synchronous step: guesses sent
// together are counted one after another, so no more of them are checked than the policy lets
// through. Time is an input (the app's clock).
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

/** Per email from one address (or one known browser): 5 free tries, then 1 s, 2 s, 4 s, ... up to 5 minutes. */
export const EMAIL_POLICY: ThrottlePolicy = { freeFailures: 5, firstWaitMs: 1_000, maxWaitMs: 300_000, forgetAfterMs: 3_600_000 };
/** Per email from all addresses together (browsers not known to be the user's): 10 times as many free tries. */
export const EMAIL_EVERYWHERE_POLICY: ThrottlePolicy = { ...EMAIL_POLICY, freeFailures: 50 };
/** Per address: 4 times as many free tries as per email (shared offices). */
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

/** Emails compare case-insensitively, without surrounding spaces. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

// Bounded: an attacker cycling through emails or addresses evicts the oldest entries, not memory.
const MAX_TRACKED = 50_000;

export type Admission = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Who tries: the email, the client's address (clientKey), and the browser's device id when its device cookie is valid for this email. */
export interface SignInAttempt {
  email: string;
  address: string;
  device?: string | undefined;
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;

export function createSignInThrottle(now: () => number) {
  const series = (policy: ThrottlePolicy) => ({ policy, failures: new LRUCache<string, Failures>({ max: MAX_TRACKED }) });
  const emailHere = series(EMAIL_POLICY);
  const emailEverywhere = series(EMAIL_EVERYWHERE_POLICY);
  const device = series(EMAIL_POLICY);
  const address = series(ADDRESS_POLICY);

  /** The series this attempt counts in, each with its key. */
  function countedIn(attempt: SignInAttempt) {
    const email = emailKey(attempt.email);
    const byAddress = { ...address, key: attempt.address };
    if (attempt.device !== undefined) return [{ ...device, key: `${email}\n${attempt.device}` }, byAddress];
    return [{ ...emailHere, key: `${email}\n${attempt.address}` }, { ...emailEverywhere, key: email }, byAddress];
  }

  return {
    /** Counts the attempt, as a failure until `succeeded` says otherwise; refused (and not counted) while any of its series must wait. */
    attempt(attempt: SignInAttempt): Admission {
      const at = now();
      const counted = countedIn(attempt);
      const retryAfterMs = Math.max(...counted.map(({ policy, failures, key }) => waitMs(policy, failures.get(key), at)));
      if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
      for (const { policy, failures, key } of counted) {
        const previous = failures.get(key);
        const stale = !previous || at - previous.lastAt >= policy.forgetAfterMs;
        failures.set(key, { count: stale ? 1 : previous.count + 1, lastAt: at });
      }
      return { allowed: true };
    },
    /**
     * The attempt's password was right: the email's series from this address (or this browser) is
     * forgotten; the address and the email-everywhere series get the attempt back (their other
     * failures stay: someone may be guessing elsewhere).
     */
    succeeded(attempt: SignInAttempt): void {
      const [own, ...shared] = countedIn(attempt);
      own!.failures.delete(own!.key);
      for (const { failures, key } of shared) {
        const previous = failures.get(key);
        if (previous) failures.set(key, { ...previous, count: Math.max(0, previous.count - 1) });
      }
    },
  };
}
