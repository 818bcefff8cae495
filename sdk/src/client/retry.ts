// Retrying (stripe's _shouldRetry as one pure function, and a layer around the paced core).
import type { Clock } from "./clock";
import { ConnectionError, RateLimitError, ServerError, TimeoutError } from "./errors";
import type { HttpMethod } from "../api";
import type { Send } from "./transport";

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** 429s are retried until this much time has passed since the first try. */
  rateLimitDeadlineMs: number;
}

export interface RetryState {
  method: HttpMethod;
  /** Retries so far after server errors and network failures. */
  failures: number;
  /** Retries so far after 429s. */
  rateLimited: number;
  /** Time since the first try. */
  elapsedMs: number;
  /** Wall-clock time, for `Retry-After` dates. */
  nowMs: number;
  /** A number in [0, 1) for jitter. */
  random: number;
}

export type RetryDecision = { retry: false } | { retry: true; kind: "failure" | "rate-limit"; delayMs: number };

/** Whether a failed request may have been applied by the server (so repeating it is not obviously safe). */
export function isAmbiguousFailure(error: unknown): boolean {
  return (
    error instanceof ServerError || error instanceof TimeoutError || (error instanceof ConnectionError && error.phase !== "before-send")
  );
}

// GET reads; PATCH sets the given attributes to given values, so a repeat lands in the same state.
const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(["GET", "PATCH"]);

/**
 * Whether to try again and after how long:
 * - 429, any method: after `Retry-After` (else backoff), while the deadline allows;
 * - a failure before sending, any method: nothing reached the server;
 * - a 5xx, timeout or connection loss after sending: only GET and PATCH (a POST is reconciled by its caller);
 * - anything else: no.
 */
export function shouldRetry(error: unknown, state: RetryState, policy: RetryPolicy): RetryDecision {
  if (error instanceof RateLimitError) {
    const delayMs = parseRetryAfter(error.retryAfter, state.nowMs) ?? backoffDelay(state.rateLimited, state.random, policy);
    return state.elapsedMs + delayMs <= policy.rateLimitDeadlineMs ? { retry: true, kind: "rate-limit", delayMs } : { retry: false };
  }
  if (state.failures >= policy.maxRetries) return { retry: false };
  const safe =
    (error instanceof ConnectionError && error.phase === "before-send") || (isAmbiguousFailure(error) && IDEMPOTENT.has(state.method));
  return safe ? { retry: true, kind: "failure", delayMs: backoffDelay(state.failures, state.random, policy) } : { retry: false };
}

/** What backoff needs of a retry policy. */
export type BackoffPolicy = Pick<RetryPolicy, "maxRetries" | "baseDelayMs" | "maxDelayMs">;

/** Exponential backoff with jitter: between half and all of min(max, base * 2^n). */
export function backoffDelay(retriesSoFar: number, random: number, policy: Pick<RetryPolicy, "baseDelayMs" | "maxDelayMs">): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retriesSoFar);
  return Math.round(ceiling * (0.5 + random / 2));
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date; undefined if absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

export function withRetry(send: Send, policy: RetryPolicy, clock: Clock, random: () => number = Math.random): Send {
  return async (request) => {
    const startedAt = clock.now();
    let failures = 0;
    let rateLimited = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        // The first try sends the caller's request as is (attempt 0); retries carry their number.
        return await send(attempt === 0 ? request : { ...request, attempt });
      } catch (error) {
        const now = clock.now();
        const decision = shouldRetry(
          error,
          { method: request.method, failures, rateLimited, elapsedMs: now - startedAt, nowMs: now, random: random() },
          policy,
        );
        if (!decision.retry) throw error;
        if (decision.kind === "rate-limit") rateLimited++;
        else failures++;
        await clock.sleep(decision.delayMs);
      }
    }
  };
}
