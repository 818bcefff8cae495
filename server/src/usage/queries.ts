// Reading the usage ledger for reports: the day's requests one by one, and everything else as
// aggregates computed by SQLite, so that a month of traffic is never loaded into memory.
import type { Database } from "../store/database";
import type { UtcDay } from "./days";
import type { RenderClass } from "./event";

/** One request of the day, as cdn_logs lists it. */
export interface RequestRow {
  timestampMs: number;
  sourceId: string;
  path: string;
  originImage: string;
  status: number;
  bytes: number;
  cacheHit: boolean;
  responseMs: number;
  renderClass: RenderClass;
  referer: string;
  userAgent: string;
}

/** What a Source's credits for one day are priced from. */
export interface BillableUsage {
  /** Renders billed (cache misses answered below 400), per render class. */
  renders: Partial<Record<RenderClass, number>>;
  /** Seconds of video billed, per render class. */
  videoSeconds: Partial<Record<RenderClass, number>>;
  cacheHits: number;
  /** Billed cache misses: each fetched its image from the origin. */
  originFetches: number;
  deliveredBytes: number;
  /** Sum over the distinct origin images requested that day of their size. */
  storedBytes: number;
}

/** Traffic totals of a group of requests (an origin image, a Source). */
export interface TrafficTotals {
  requests: number;
  bytes: number;
  cacheHits: number;
  clientErrors: number;
  serverErrors: number;
  /** Sum of response times; divided by `requests` for the mean. */
  responseMs: number;
  /** Cache misses answered below 400 with a render. */
  renders: number;
  originImages: number;
}

export interface ClientErrorGroup {
  sourceId: string;
  originImage: string;
  status: number;
  requests: number;
  firstSeenMs: number;
  lastSeenMs: number;
  lastReferer: string;
  lastUserAgent: string;
}

// The SQL behind TrafficTotals, shared by the per-image and per-Source queries.
const TOTALS = `
  count(*) AS requests, total(bytes) AS bytes, total(cache_hit) AS cacheHits,
  total(status BETWEEN 400 AND 499) AS clientErrors, total(status >= 500) AS serverErrors,
  total(response_ms) AS responseMs, total(cache_hit = 0 AND status < 400 AND render_class <> 'none') AS renders,
  count(DISTINCT origin_image) AS originImages`;

const BILLABLE = "cache_hit = 0 AND status < 400";

export type UsageQueries = ReturnType<typeof createUsageQueries>;

/** The queries of one account's ledger. */
export function createUsageQueries(db: Database, accountId: string) {
  const requests = db.prepare<[string, string], Omit<RequestRow, "cacheHit"> & { cacheHit: 0 | 1 }>(`
    SELECT timestamp_ms AS timestampMs, source_id AS sourceId, path, origin_image AS originImage, status, bytes,
           cache_hit AS cacheHit, response_ms AS responseMs, render_class AS renderClass, referer, user_agent AS userAgent
    FROM usage_events WHERE account_id = ? AND day = ? ORDER BY timestamp_ms, id`);
  const billable = db.prepare<
    [string, string, string],
    { sourceId: string; day: string; renderClass: RenderClass; renders: number; videoSeconds: number; cacheHits: number; bytes: number }
  >(`
    SELECT source_id AS sourceId, day, render_class AS renderClass, total(${BILLABLE}) AS renders,
           total(CASE WHEN ${BILLABLE} THEN video_seconds ELSE 0 END) AS videoSeconds, total(cache_hit) AS cacheHits, total(bytes) AS bytes
    FROM usage_events WHERE account_id = ? AND day BETWEEN ? AND ? GROUP BY source_id, day, render_class`);
  const stored = db.prepare<[string, string, string], { sourceId: string; day: string; bytes: number }>(`
    SELECT sourceId, day, total(size) AS bytes FROM (
      SELECT source_id AS sourceId, day, max(origin_bytes) AS size FROM usage_events
      WHERE account_id = ? AND day BETWEEN ? AND ? AND origin_bytes > 0 GROUP BY source_id, day, origin_image)
    GROUP BY sourceId, day`);
  const perImage = db.prepare<[string, string, string], TrafficTotals & { sourceId: string; originImage: string }>(`
    SELECT source_id AS sourceId, origin_image AS originImage, ${TOTALS}
    FROM usage_events WHERE account_id = ? AND day BETWEEN ? AND ? GROUP BY source_id, origin_image ORDER BY source_id, origin_image`);
  const perSource = db.prepare<[string, string, string], TrafficTotals & { sourceId: string }>(`
    SELECT source_id AS sourceId, ${TOTALS}
    FROM usage_events WHERE account_id = ? AND day BETWEEN ? AND ? GROUP BY source_id ORDER BY source_id`);
  // With a single max(), SQLite takes the other bare columns from the row holding the maximum.
  const clientErrors = db.prepare<[string, string], ClientErrorGroup>(`
    SELECT source_id AS sourceId, origin_image AS originImage, status, count(*) AS requests, min(timestamp_ms) AS firstSeenMs,
           max(timestamp_ms) AS lastSeenMs, referer AS lastReferer, user_agent AS lastUserAgent
    FROM usage_events WHERE account_id = ? AND day = ? AND status BETWEEN 400 AND 499
    GROUP BY source_id, origin_image, status ORDER BY source_id, origin_image, status`);

  return {
    /** The day's requests in the order they were served. */
    *requestsOf(day: UtcDay): Generator<RequestRow> {
      for (const row of requests.iterate(accountId, day)) yield { ...row, cacheHit: row.cacheHit === 1 };
    },
    /** Billable usage per Source and day, days `from` through `to`. */
    billableUsage(from: UtcDay, to: UtcDay): Map<string, Map<UtcDay, BillableUsage>> {
      const usage = new Map<string, Map<UtcDay, BillableUsage>>();
      const entry = (sourceId: string, day: string): BillableUsage => {
        const days = usage.get(sourceId) ?? usage.set(sourceId, new Map()).get(sourceId)!;
        return (
          days.get(day) ??
          days.set(day, { renders: {}, videoSeconds: {}, cacheHits: 0, originFetches: 0, deliveredBytes: 0, storedBytes: 0 }).get(day)!
        );
      };
      for (const row of billable.all(accountId, from, to)) {
        const day = entry(row.sourceId, row.day);
        day.renders[row.renderClass] = row.renders;
        day.videoSeconds[row.renderClass] = row.videoSeconds;
        day.cacheHits += row.cacheHits;
        day.originFetches += row.renders;
        day.deliveredBytes += row.bytes;
      }
      for (const row of stored.all(accountId, from, to)) entry(row.sourceId, row.day).storedBytes = row.bytes;
      return usage;
    },
    perImage: (from: UtcDay, to: UtcDay) => perImage.all(accountId, from, to),
    perSource: (from: UtcDay, to: UtcDay) => perSource.all(accountId, from, to),
    clientErrorsOf: (day: UtcDay) => clientErrors.all(accountId, day),
  };
}
