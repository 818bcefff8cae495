// cdn_logs: one row per request of the day, in the order they were served.
import { sourceNameOf, type ReportInput, type Table } from "./table";

export const CDN_LOG_COLUMNS = [
  "timestamp",
  "source_id",
  "source_name",
  "path",
  "origin_image",
  "status",
  "bytes",
  "cache",
  "response_ms",
  "render_class",
  "referer",
  "user_agent",
] as const;

export function cdnLogsTable(input: ReportInput): Table {
  const rows: string[][] = [];
  for (const r of input.usage.requestsOf(input.date)) {
    rows.push([
      new Date(r.timestampMs).toISOString(),
      r.sourceId,
      sourceNameOf(input, r.sourceId),
      r.path,
      r.originImage,
      String(r.status),
      String(r.bytes),
      r.cacheHit ? "HIT" : "MISS",
      String(r.responseMs),
      r.renderClass,
      r.referer,
      r.userAgent,
    ]);
  }
  return { columns: CDN_LOG_COLUMNS, rows };
}
