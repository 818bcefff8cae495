// source_analytics: month-to-date metrics per Source (spec 2.4).
import { averageMs, sourceNameOf, type ReportInput, type Table } from "./table";

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
  const rows = input.usage
    .perSource(input.from, input.date)
    .map((source) => [
      input.date,
      source.sourceId,
      sourceNameOf(input, source.sourceId),
      String(source.requests),
      String(source.originImages),
      String(source.bytes),
      (source.cacheHits / source.requests).toFixed(4),
      averageMs(source),
      String(source.renders),
      String(source.clientErrors),
      String(source.serverErrors),
    ]);
  return { columns: SOURCE_ANALYTICS_COLUMNS, rows };
}
