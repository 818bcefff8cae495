// createClient's options: their rules, defaults and the resolved form the layers read.
import type { Dispatcher } from "undici";
import { z } from "zod";
import { anyHttpUrlSchema, expected, RATE_LIMITS, type EndpointClass, type RateTable } from "../api";
import { checked } from "./checked";
import { insecureBaseUrlProblem } from "./insecure-http";
import { systemClock, type Clock } from "./clock";
import { withoutUndefined } from "../objects";
import type { PacingWait } from "./pacing";
import type { RequestInfo, ResponseInfo, TransportOptions } from "./transport";

export interface RetryOptions {
  /** Retries after a server error or network failure (429s are bounded by `rateLimitDeadlineMs` instead). Default 3. */
  maxRetries?: number;
  /** First backoff delay; doubles each retry, with jitter. Default 500 ms. */
  baseDelayMs?: number;
  /** Largest backoff delay. Default 8000 ms. */
  maxDelayMs?: number;
}

export interface PacingOptions {
  /** Per endpoint class limits, for plans with higher limits than the spec's table. */
  limits?: Partial<Record<EndpointClass, { limit: number; intervalMs: number }>>;
  /**
   * How long the client may wait for the rate budget, counted from its creation: a request the
   * budget would only allow later fails at once with RateBudgetError, unsent. Default unbounded.
   */
  maxWaitMs?: number;
}

export interface ClientOptions {
  /**
   * Where the API lives, e.g. `https://api.example.com` (paths start with `/api/v1`). `http://` only
   * for a loopback host (the local emulator), unless `allowInsecureHttp`.
   */
  baseUrl: string;
  apiKey: string;
  /** Allow an `http://` base URL on a host other than loopback: the API key then travels in clear text. Default false. */
  allowInsecureHttp?: boolean;
  /** Limit for one request, from sending to the end of the body. Default 30000 ms. */
  timeoutMs?: number;
  /** An undici dispatcher to send through (tests inject faults here). Default: a keep-alive Agent owned by the client. */
  dispatcher?: Dispatcher;
  /** `false` turns retrying off, 429s included. */
  retry?: false | RetryOptions;
  /**
   * `false` turns client-side rate pacing off. Pacing is per client, but the server counts per
   * account: clients sharing an account share its budget, and the 429s they meet are retried.
   */
  pacing?: boolean | PacingOptions;
  /** How long to keep retrying 429 responses before raising RateLimitError. Default 120000 ms. */
  rateLimitDeadlineMs?: number;
  userAgent?: string;
  onRequest?: (info: RequestInfo) => void;
  onResponse?: (info: ResponseInfo) => void;
  /** Called when a request starts waiting for its class's rate budget (what waits, until when, how many). */
  onPacingWait?: (wait: PacingWait) => void;
  /** Time source for pacing, backoff and polling. */
  clock?: Clock;
}

export interface ResolvedOptions extends TransportOptions {
  dispatcher: Dispatcher | undefined;
  retry: Required<RetryOptions> | false;
  pacing: Record<EndpointClass, { limit: number; intervalMs: number }> | false;
  maxWaitMs: number | undefined;
  onPacingWait: ((wait: PacingWait) => void) | undefined;
  rateLimitDeadlineMs: number;
  clock: Clock;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RATE_LIMIT_DEADLINE_MS = 120_000;
export const DEFAULT_RETRY: Required<RetryOptions> = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8_000 };
export const DEFAULT_USER_AGENT = "asset-delivery-sdk/0.1.0";

export const positiveMs = z.int(expected("a whole number of milliseconds")).positive({ error: "must be > 0 milliseconds" });
const nonNegativeMs = z.int(expected("a whole number of milliseconds")).nonnegative({ error: "must be >= 0 milliseconds" });
const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === "function", { error: "must be a function" });
const bucket = z.strictObject({ limit: z.int().positive({ error: "must be a positive integer" }), intervalMs: positiveMs });

const optionsSchema = z
  .strictObject(
    {
      baseUrl: anyHttpUrlSchema,
      apiKey: z
        .string(expected("a string"))
        .regex(/^[\x21-\x7e]+$/, { error: "must be the API key as issued: non-empty, printable ASCII, no spaces" }),
      allowInsecureHttp: z.boolean(expected("true or false")).optional(),
      timeoutMs: positiveMs.optional(),
      dispatcher: z
        .custom<Dispatcher>((value) => typeof (value as Dispatcher | null)?.dispatch === "function", {
          error: "must be an undici Dispatcher",
        })
        .optional(),
      retry: z
        .union(
          [
            z.literal(false),
            z.strictObject({
              maxRetries: z.int().nonnegative({ error: "must be an integer >= 0" }).optional(),
              baseDelayMs: nonNegativeMs.optional(),
              maxDelayMs: nonNegativeMs.optional(),
            }),
          ],
          {
            error: "must be false or { maxRetries, baseDelayMs, maxDelayMs }",
          },
        )
        .optional(),
      pacing: z
        .union(
          [
            z.boolean(),
            z.strictObject({
              limits: z.partialRecord(z.enum(Object.keys(RATE_LIMITS) as [EndpointClass, ...EndpointClass[]]), bucket).optional(),
              maxWaitMs: nonNegativeMs.optional(),
            }),
          ],
          {
            error: "must be true, false or { limits, maxWaitMs }",
          },
        )
        .optional(),
      rateLimitDeadlineMs: nonNegativeMs.optional(),
      userAgent: z
        .string(expected("a string"))
        .regex(/^[\x20-\x7e]+$/, { error: "must be printable ASCII" })
        .optional(),
      onRequest: fn.optional(),
      onResponse: fn.optional(),
      onPacingWait: fn.optional(),
      clock: z
        .custom<Clock>((value) => typeof (value as Clock | null)?.now === "function" && typeof (value as Clock).sleep === "function", {
          error: "must have now() and sleep(ms)",
        })
        .optional(),
    },
    expected("an object of client options"),
  )
  .superRefine((options, ctx) => {
    const problem = insecureBaseUrlProblem(options.baseUrl, options.allowInsecureHttp ?? false);
    if (problem) ctx.addIssue({ code: "custom", path: ["baseUrl"], message: `${problem}; to send it anyway, set allowInsecureHttp: true` });
  });

/** The limits a client paces itself to with these pacing options: the spec's, with a plan's own over them; false for none. */
export function pacingLimits(pacing: boolean | PacingOptions | undefined): RateTable | false {
  if (pacing === false) return false;
  return { ...RATE_LIMITS, ...withoutUndefined((pacing === true ? undefined : pacing?.limits) ?? {}) };
}

/** Checks the options (naming any bad one, never echoing the key) and fills in defaults. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  const o = checked(optionsSchema, options, "client options");
  return {
    baseUrl: new URL(o.baseUrl),
    apiKey: o.apiKey,
    timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    dispatcher: o.dispatcher,
    retry: o.retry === false ? false : { ...DEFAULT_RETRY, ...withoutUndefined(o.retry ?? {}) },
    pacing: pacingLimits(o.pacing),
    maxWaitMs: typeof o.pacing === "object" ? o.pacing.maxWaitMs : undefined,
    onPacingWait: options.onPacingWait,
    rateLimitDeadlineMs: o.rateLimitDeadlineMs ?? DEFAULT_RATE_LIMIT_DEADLINE_MS,
    userAgent: o.userAgent ?? DEFAULT_USER_AGENT,
    onRequest: options.onRequest,
    onResponse: options.onResponse,
    clock: o.clock ?? systemClock,
  };
}
