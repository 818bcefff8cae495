// Repeated failed sign-ins are slowed down: after a few failures, each further try must wait twice
// as long as the one before, up to a cap, and a try made too early is refused without checking the
// password. Failures count in several series at once, and a try must be allowed by each:
// - the email from this address: 5 free tries, so a guesser on one address is slowed at once, and
//   never locks the user out from another address;
// - the email from every address together, with more free tries: a guesser spread over many
//   addresses; this one could lock the user out from anywhere, so a browser that signed in as the
//   user before (its device cookie, device-cookie.ts: OWASP's "device cookies") is not held by it,
//   nor by the email-from-this-address series: it has a series of its own instead;
// - the address, across emails: a guesser trying many accounts; an IPv6 client also by its /56
//   and its /48, with more free tries (client-key.ts).
// An attempt is counted before its password is checked, in one synchronous step: guesses sent
// together are counted one after another, so no more of them are checked than the policy lets
// through. Time is an input (the app's clock). Every series lives in a fixed table indexed by an
// HMAC of its key (failure-table.ts): a flood of junk emails or addresses can neither grow the
// server's memory nor push a victim's count out, and each count decays (one failure every 5
// minutes) however often junk touches its cell, so a day of flooding locks nobody out.
import { clientNetworks } from "./client-key";
import { createFailureTable, type FailureTable, type Failures } from "./failure-table";
import { canonicalEmail } from "./users/email";

export interface ThrottlePolicy {
  /** Attempts allowed before any wait. */
  freeFailures: number;
  /** The first wait, doubled at each further attempt. */
  firstWaitMs: number;
  maxWaitMs: number;
  /** A series of attempts is forgotten this long after its last one. */
  forgetAfterMs: number;
  /**
   * Meanwhile it loses one failure per this long: 12 an hour, about twice what the hashing slots'
   * bound (3 checks at once, some 40 a second) lets a flood add to each of a table's cells.
   */
  decayEveryMs: number;
}

/** Per email from one address (or one known browser): 5 free tries, then 1 s, 2 s, 4 s, ... up to 5 minutes. */
export const EMAIL_POLICY: ThrottlePolicy = {
  freeFailures: 5,
  firstWaitMs: 1_000,
  maxWaitMs: 300_000,
  forgetAfterMs: 3_600_000,
  decayEveryMs: 300_000,
};
/** Per email from all addresses together (browsers not known to be the user's): 10 times as many free tries. */
export const EMAIL_EVERYWHERE_POLICY: ThrottlePolicy = { ...EMAIL_POLICY, freeFailures: 50 };
/** Per address: 4 times as many free tries as per email (shared offices). */
export const ADDRESS_POLICY: ThrottlePolicy = { ...EMAIL_POLICY, freeFailures: 20 };
/** Per IPv6 /56 and /48 (256 and 65,536 /64s, often one customer's): twice and 4 times the address's. */
export const WIDER_NETWORK_POLICIES: readonly ThrottlePolicy[] = [
  { ...ADDRESS_POLICY, freeFailures: 40 },
  { ...ADDRESS_POLICY, freeFailures: 80 },
];

/** How long to wait after `count` failures, the last at `lastAt`: 0 when a try is allowed now. */
export function waitMs(policy: ThrottlePolicy, failures: Failures | undefined, now: number): number {
  if (!failures || now - failures.lastAt >= policy.forgetAfterMs || failures.count < policy.freeFailures) return 0;
  const wait = Math.min(policy.maxWaitMs, policy.firstWaitMs * 2 ** (failures.count - policy.freeFailures));
  return Math.max(0, failures.lastAt + wait - now);
}

export type Admission = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Who tries: the email, the client's address (clientAddress), and the browser's device id when its device cookie is valid for this email. */
export interface SignInAttempt {
  email: string;
  address: string;
  device?: string | undefined;
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;

/** `cellsPerRow`: the tables' size (failure-table.ts), smaller in tests that flood every cell. */
export function createSignInThrottle(now: () => number, { cellsPerRow }: { cellsPerRow?: number } = {}) {
  // Every policy forgets and decays alike, so one table per kind of key serves them all.
  const { forgetAfterMs, decayEveryMs } = EMAIL_POLICY;
  const table = () => createFailureTable({ forgetAfterMs, decayEveryMs, cellsPerRow });
  const emailHere = table();
  const emailEverywhere = table();
  const device = table();
  const network = table();
  const networkPolicies = [ADDRESS_POLICY, ...WIDER_NETWORK_POLICIES];

  /** The series this attempt counts in, each with its table, policy and key; the email's own series first. */
  function countedIn(attempt: SignInAttempt) {
    const email = canonicalEmail(attempt.email);
    const networks = clientNetworks(attempt.address);
    const series = (table: FailureTable, policy: ThrottlePolicy, key: string) => ({ table, policy, cells: table.cellsOf(key) });
    const byNetwork = networks.map((key, i) => series(network, networkPolicies[i]!, key));
    if (attempt.device !== undefined) return [series(device, EMAIL_POLICY, `${email}\n${attempt.device}`), ...byNetwork];
    return [
      series(emailHere, EMAIL_POLICY, `${email}\n${networks[0]!}`),
      series(emailEverywhere, EMAIL_EVERYWHERE_POLICY, email),
      ...byNetwork,
    ];
  }

  return {
    /** Counts the attempt, as a failure until `succeeded` says otherwise; refused (and not counted) while any of its series must wait. */
    attempt(attempt: SignInAttempt): Admission {
      const at = now();
      const counted = countedIn(attempt);
      const retryAfterMs = Math.max(...counted.map(({ table, policy, cells }) => waitMs(policy, table.get(cells, at), at)));
      if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
      for (const { table, cells } of counted) table.add(cells, at);
      return { allowed: true };
    },
    /**
     * The attempt's password was right: the email's series from this address (or this browser) is
     * forgotten; the address and the email-everywhere series get the attempt back (their other
     * failures stay: someone may be guessing elsewhere).
     */
    succeeded(attempt: SignInAttempt): void {
      const at = now();
      const [own, ...shared] = countedIn(attempt);
      own!.table.remove(own!.cells, own!.table.get(own!.cells, at)?.count ?? 0, at);
      for (const { table, cells } of shared) table.remove(cells, 1, at);
    },
  };
}
