// Rate limits (spec 8), per account and endpoint class, as token buckets from the sdk's
// RATE_LIMITS table (the client paces itself with the same table). Per account, not per key, as
// on the real service (premium plans raise the limits "for their account"): a second key must not
// buy a second budget. The class is the matched
// route's (declared in the sdk's API_ROUTES), never read from the URL text: `/api/v1/%73ources`
// reaches the create handler, so it counts as a create. Buckets that refill slower than a restart
// takes (the hourly create and update windows) are stored with the data, so restarting the
// emulator never hands a client a fresh budget; the per-second ones stay in memory (a restart
// refills them anyway, and a write on every request would cost every request).
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import {
  intervalName,
  limitsWithHour,
  RATE_LIMITS,
  refilledTokens,
  type BucketState,
  type EndpointClass,
  type RateTable,
} from "@asset-delivery/sdk";
import type { Database } from "../store/database";
import { HttpError, ERROR_TITLES } from "./errors";

export type Bucket = BucketState;

export type Admission = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Where a bucket is kept between requests: undefined means never used (it starts full). */
export interface BucketStore {
  get(accountId: string, endpointClass: EndpointClass): Bucket | undefined;
  set(accountId: string, endpointClass: EndpointClass, bucket: Bucket): void;
}

/** Buckets of this process only. */
export function memoryBuckets(): BucketStore {
  const buckets = new Map<string, Bucket>();
  return {
    get: (accountId, endpointClass) => buckets.get(`${endpointClass}:${accountId}`),
    set: (accountId, endpointClass, bucket) => void buckets.set(`${endpointClass}:${accountId}`, bucket),
  };
}

/** Buckets in the database (table rate_limit_buckets, one row per account and class). */
export function storedBuckets(db: Database): BucketStore {
  const select = db.prepare<[string, string], Bucket>(
    "SELECT tokens, updated_at AS updatedAt FROM rate_limit_buckets WHERE account_id = ? AND endpoint_class = ?",
  );
  const upsert = db.prepare(
    `INSERT INTO rate_limit_buckets (account_id, endpoint_class, tokens, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, endpoint_class) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at`,
  );
  return {
    get: (accountId, endpointClass) => select.get(accountId, endpointClass),
    set: (accountId, endpointClass, bucket) => void upsert.run(accountId, endpointClass, bucket.tokens, bucket.updatedAt),
  };
}

// A bucket that refills within a minute is full again after any restart: kept in memory.
const STORED_FROM_INTERVAL_MS = 60_000;

/** Token buckets keyed by account and endpoint class, each starting full. */
export class TokenBuckets {
  constructor(
    private readonly stored: BucketStore = memoryBuckets(),
    private readonly inMemory: BucketStore = memoryBuckets(),
    /** The limits enforced: the spec's, or with a shorter hour (`serve --rate-limit-hour`). */
    private readonly limits: RateTable = RATE_LIMITS,
  ) {}

  take(accountId: string, endpointClass: EndpointClass, nowMs: number): Admission {
    const rate = this.limits[endpointClass];
    const { limit, intervalMs } = rate;
    const perMs = limit / intervalMs;
    // Where a bucket lives follows the spec's window of its class, whatever the hour is made to last.
    const store = RATE_LIMITS[endpointClass].intervalMs >= STORED_FROM_INTERVAL_MS ? this.stored : this.inMemory;
    const previous = store.get(accountId, endpointClass) ?? { tokens: limit, updatedAt: nowMs };
    const tokens = refilledTokens(previous, nowMs, rate, limit);
    const allowed = tokens >= 1;
    store.set(accountId, endpointClass, { tokens: allowed ? tokens - 1 : tokens, updatedAt: nowMs });
    if (allowed) return { allowed: true };
    // Whole seconds until a token is back, never 0 (a client retrying at once would be refused again).
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)) };
  }
}

/** The limits as an onRequest hook, after the auth hook (which identifies the key's account). */
export const rateLimitsPlugin = fp(
  async function rateLimits(app: FastifyInstance) {
    const { db, now, rateLimitHourMs } = app.appOptions;
    const limits = rateLimitHourMs === undefined ? RATE_LIMITS : limitsWithHour(rateLimitHourMs);
    const buckets = new TokenBuckets(storedBuckets(db), memoryBuckets(), limits);
    app.addHook("onRequest", async (request) => {
      if (!request.auth) return; // routes without a key (the OpenAPI document) are not limited
      // No matched route (a 404): the default class.
      const endpointClass = request.routeOptions.config.endpointClass ?? "default";
      const admission = buckets.take(request.auth.accountId, endpointClass, now());
      if (admission.allowed) return;
      const { limit, intervalMs } = limits[endpointClass];
      throw new HttpError(
        429,
        ERROR_TITLES[429]!,
        `Rate limit exceeded: this account may make ${limit} such requests per ${intervalName(intervalMs)}; retry in ${admission.retryAfterSeconds} s.`,
        {
          headers: { "retry-after": String(admission.retryAfterSeconds) },
          meta: { endpoint_class: endpointClass, limit, interval_ms: intervalMs },
        },
      );
    });
  },
  { name: "rate-limits", dependencies: ["auth"] },
);
