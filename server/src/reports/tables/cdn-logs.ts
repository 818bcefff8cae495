// cdn_logs: one row per request of the day, in the order they were served.
import { originImageOf } from "../usage-event";
import { sourceNameOf, usageOfDay, type ReportInput, type Table } from "./table";

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
  const rows = usageOfDay(input).map((e) => [
    new Date(e.timestampMs).toISOString(),
    e.sourceId,
    sourceNameOf(input, e.sourceId),
    e.path,
    originImageOf(e.path),
    String(e.status),
    String(e.bytes),
    e.cacheHit ? "HIT" : "MISS",
    String(e.responseMs),
    e.renderClass,
    e.referer,
    e.userAgent,
  ]);
  return { columns: CDN_LOG_COLUMNS, rows };
}
