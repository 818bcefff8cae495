// Time as the client's waiting logic sees it (pacing, backoff, polling). Injectable so tests can
// run hours of rate-limit waiting in milliseconds. Request timeouts use real timers.

export interface Clock {
  /** Milliseconds since the epoch (compared with HTTP dates in `Retry-After`). */
  now(): number;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};
