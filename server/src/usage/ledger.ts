// The usage ledger: every request served by an account's Sources, the one input of the reports.
// Writing to it; reading is usage-queries.ts.
import type { Database } from "../store/database";
import { dateOf, type UtcDay } from "./days";
import { originImageOf, type UsageEvent } from "./event";

export type LedgerOrigin = "import" | "seed";

export type Ledger = ReturnType<typeof createLedger>;

export function createLedger(db: Database) {
  const accountOfSource = db.prepare<[string], string>("SELECT account_id FROM sources WHERE id = ?").pluck();
  const insert = db.prepare(`
    INSERT INTO usage_events (account_id, source_id, day, timestamp_ms, path, origin_image, status, bytes, cache_hit,
                              response_ms, referer, user_agent, render_class, origin_bytes, video_seconds, origin)
    VALUES (@account_id, @source_id, @day, @timestamp_ms, @path, @origin_image, @status, @bytes, @cache_hit,
            @response_ms, @referer, @user_agent, @render_class, @origin_bytes, @video_seconds, @origin)`);
  const deleteSeeded = db.prepare("DELETE FROM usage_events WHERE origin = 'seed' AND source_id = ? AND day = ?");

  function insertAll(events: readonly UsageEvent[], origin: LedgerOrigin): void {
    const accounts = new Map<string, string>();
    events.forEach((event, index) => {
      if (accounts.has(event.sourceId)) return;
      const accountId = accountOfSource.get(event.sourceId);
      if (!accountId) throw new RangeError(`event ${index + 1}: source_id: no Source has the id "${event.sourceId}"`);
      accounts.set(event.sourceId, accountId);
    });
    for (const event of events) {
      insert.run({
        account_id: accounts.get(event.sourceId),
        source_id: event.sourceId,
        day: dateOf(event.timestampMs),
        timestamp_ms: event.timestampMs,
        path: event.path,
        origin_image: originImageOf(event.path),
        status: event.status,
        bytes: event.bytes,
        cache_hit: event.cacheHit ? 1 : 0,
        response_ms: event.responseMs,
        referer: event.referer,
        user_agent: event.userAgent,
        render_class: event.renderClass,
        origin_bytes: event.originBytes,
        video_seconds: event.videoSeconds,
        origin,
      });
    }
  }

  const record = db.transaction((events: readonly UsageEvent[]) => insertAll(events, "import"));
  const replaceSeeded = db.transaction((sourceIds: readonly string[], days: readonly UtcDay[], events: readonly UsageEvent[]) => {
    for (const sourceId of sourceIds) for (const day of days) deleteSeeded.run(sourceId, day);
    insertAll(events, "seed");
  });

  return {
    /** Adds imported events, all or none; every Source must exist. */
    record(events: readonly UsageEvent[]): void {
      record(events);
    },
    /** Replaces the seeded usage of these Sources on these days (imported usage is kept). */
    replaceSeeded(sourceIds: readonly string[], days: readonly UtcDay[], events: readonly UsageEvent[]): void {
      replaceSeeded(sourceIds, days, events);
    },
  };
}
