// image_analytics: month-to-date metrics per origin image (spec 2.4).
import { averageMs, sourceNameOf, type ReportInput, type Table } from "./table";

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
  const rows = input.usage
    .perImage(input.from, input.date)
    .map((image) => [
      input.date,
      image.sourceId,
      sourceNameOf(input, image.sourceId),
      image.originImage,
      String(image.requests),
      String(image.bytes),
      String(image.cacheHits),
      String(image.requests - image.cacheHits),
      String(image.clientErrors),
      String(image.serverErrors),
      averageMs(image),
    ]);
  return { columns: IMAGE_ANALYTICS_COLUMNS, rows };
}
