// mild_errors: the day's 4xx responses, one row per Source, origin image and status.
import { sourceNameOf, type ReportInput, type Table } from "./table";

export const MILD_ERROR_COLUMNS = [
  "date",
  "source_id",
  "source_name",
  "origin_image",
  "status",
  "requests",
  "first_seen",
  "last_seen",
  "last_referer",
  "last_user_agent",
] as const;

export function mildErrorsTable(input: ReportInput): Table {
  const rows = input.usage
    .clientErrorsOf(input.date)
    .map((group) => [
      input.date,
      group.sourceId,
      sourceNameOf(input, group.sourceId),
      group.originImage,
      String(group.status),
      String(group.requests),
      new Date(group.firstSeenMs).toISOString(),
      new Date(group.lastSeenMs).toISOString(),
      group.lastReferer,
      group.lastUserAgent,
    ]);
  return { columns: MILD_ERROR_COLUMNS, rows };
}
