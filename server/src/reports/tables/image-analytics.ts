// image_analytics: month-to-date metrics per origin image (spec 2.4).
import { originImageOf } from "../usage-event";
import { averageMs, countWhere, groupBy, isClientError, isServerError, sourceNameOf, sumOf, usageOfMonth, type ReportInput, type Table } from "./table";

export const IMAGE_ANALYTICS_COLUMNS = [
  "date",
  "source_id",
  "source_name",
  "origin_image",
  "total_requests",
  "bandwidth_bytes",
  "cache_hits",
  "cache_misses",
  "errors_4xx",
  "errors_5xx",
  "avg_response_ms",
] as const;

export function imageAnalyticsTable(input: ReportInput): Table {
  const groups = groupBy(usageOfMonth(input), (e) => `${e.sourceId}\u0000${originImageOf(e.path)}`);
  const rows = groups.map(([, events]) => {
    const first = events[0]!;
    const hits = countWhere(events, (e) => e.cacheHit);
    return [
      input.date,
      first.sourceId,
      sourceNameOf(input, first.sourceId),
      originImageOf(first.path),
      String(events.length),
      String(sumOf(events, (e) => e.bytes)),
      String(hits),
      String(events.length - hits),
      String(countWhere(events, isClientError)),
      String(countWhere(events, isServerError)),
      averageMs(events),
    ];
  });
  return { columns: IMAGE_ANALYTICS_COLUMNS, rows };
}
