// Which instants a report for a UTC day covers, and its key.
import type { ReportType } from "@asset-delivery/sdk";
import { endOfDay, firstOfMonth, startOfDay, type UtcDay } from "../usage/days";

/** Report types whose figures accumulate from the 1st of the month (spec 2.4). */
const MONTH_TO_DATE_TYPES: readonly ReportType[] = ["credit_analytics_mtd", "image_analytics", "source_analytics"];

/**
 * The period a report covers, in Unix seconds. It ends at 00:00 UTC after the report date (the
 * instant the day is finalized, exclusive); it starts that day at 00:00 for daily types and on
 * the 1st of the month for month-to-date types.
 */
export function periodOf(type: ReportType, date: UtcDay): { start: number; end: number } {
  return { start: startOfDay(firstDayOf(type, date)) / 1000, end: endOfDay(date) / 1000 };
}

/** The first day a report covers: the date itself, or the 1st of its month for month-to-date types. */
export function firstDayOf(type: ReportType, date: UtcDay): UtcDay {
  return MONTH_TO_DATE_TYPES.includes(type) ? firstOfMonth(date) : date;
}

/** `<report_type>_<yyyymmdd>` (spec 2.4). */
export function reportKeyOf(type: ReportType, date: UtcDay): string {
  return `${type}_${date.replaceAll("-", "")}`;
}
