// mild_errors: the day's 4xx responses, one row per Source, origin image and status.
import { originImageOf } from "../usage-event";
import { groupBy, isClientError, sourceNameOf, usageOfDay, type ReportInput, type Table } from "./table";

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
  const errors = usageOfDay(input).filter(isClientError);
  const groups = groupBy(errors, (e) => `${e.sourceId}\u0000${originImageOf(e.path)}\u0000${e.status}`);
  const rows = groups.map(([, events]) => {
    const first = events.reduce((a, b) => (b.timestampMs < a.timestampMs ? b : a));
    const last = events.reduce((a, b) => (b.timestampMs >= a.timestampMs ? b : a));
    return [
      input.date,
      first.sourceId,
      sourceNameOf(input, first.sourceId),
      originImageOf(first.path),
      String(first.status),
      String(events.length),
      new Date(first.timestampMs).toISOString(),
      new Date(last.timestampMs).toISOString(),
      last.referer,
      last.userAgent,
    ];
  });
  return { columns: MILD_ERROR_COLUMNS, rows };
}
