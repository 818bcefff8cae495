// source_analytics: month-to-date metrics per Source (spec 2.4).
import { originImageOf } from "../usage-event";
import { averageMs, countWhere, groupBy, isClientError, isServerError, sourceNameOf, sumOf, usageOfMonth, type ReportInput, type Table } from "./table";

export const SOURCE_ANALYTICS_COLUMNS = [
  "date",
  "source_id",
  "source_name",
  "total_requests",
  "total_origin_images",
  "total_bandwidth_bytes",
  "cache_hit_ratio",
  "avg_response_ms",
  "renders",
  "errors_4xx",
  "errors_5xx",
] as const;

export function sourceAnalyticsTable(input: ReportInput): Table {
  const rows = groupBy(usageOfMonth(input), (e) => e.sourceId).map(([sourceId, events]) => [
    input.date,
    sourceId,
    sourceNameOf(input, sourceId),
    String(events.length),
    String(new Set(events.map((e) => originImageOf(e.path))).size),
    String(sumOf(events, (e) => e.bytes)),
    (countWhere(events, (e) => e.cacheHit) / events.length).toFixed(4),
    averageMs(events),
    String(countWhere(events, (e) => !e.cacheHit && e.status < 400 && e.renderClass !== "none")),
    String(countWhere(events, isClientError)),
    String(countWhere(events, isServerError)),
  ]);
  return { columns: SOURCE_ANALYTICS_COLUMNS, rows };
}
