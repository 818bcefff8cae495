// Calendar arithmetic of reports: which instants a report for a UTC day covers.
import type { ReportType } from "@asset-delivery/sdk";

const DAY_MS = 86_400_000;

/** Report types whose figures accumulate from the 1st of the month (spec 2.4). */
const MONTH_TO_DATE_TYPES: readonly ReportType[] = ["credit_analytics_mtd", "image_analytics", "source_analytics"];

/** A UTC calendar day as `YYYY-MM-DD`. */
export type ReportDate = string;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses `YYYY-MM-DD`, refusing impossible dates such as 2024-02-30. */
export function parseReportDate(text: string): ReportDate {
  const match = DATE_PATTERN.exec(text);
  if (!match || dateOf(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) !== text) {
    throw new RangeError(`date: must be a calendar date written YYYY-MM-DD (got "${text}")`);
  }
  return text;
}

export function dateOf(ms: number): ReportDate {
  return new Date(ms).toISOString().slice(0, 10);
}

/** 00:00 UTC of the day, in ms. */
export function startOfDay(date: ReportDate): number {
  return Date.parse(`${date}T00:00:00.000Z`);
}

export function addDays(date: ReportDate, days: number): ReportDate {
  return dateOf(startOfDay(date) + days * DAY_MS);
}

export function firstOfMonth(date: ReportDate): ReportDate {
  return `${date.slice(0, 7)}-01`;
}

/** The day before the one `nowMs` falls in: the last day that is complete. */
export function yesterdayOf(nowMs: number): ReportDate {
  return addDays(dateOf(nowMs), -1);
}

/** The instant `date` ends: 00:00 UTC of the next day, in milliseconds. */
export function endOfDay(date: ReportDate): number {
  return startOfDay(addDays(date, 1));
}

/**
 * The period a report covers, in Unix seconds. It ends at 00:00 UTC after the report date (the
 * instant the day is finalized, exclusive); it starts that day at 00:00 for daily types and on
 * the 1st of the month for month-to-date types.
 */
export function periodOf(type: ReportType, date: ReportDate): { start: number; end: number } {
  return { start: startOfDay(firstDayOf(type, date)) / 1000, end: endOfDay(date) / 1000 };
}

/** The first day a report covers: the date itself, or the 1st of its month for month-to-date types. */
export function firstDayOf(type: ReportType, date: ReportDate): ReportDate {
  return MONTH_TO_DATE_TYPES.includes(type) ? firstOfMonth(date) : date;
}

/** `<report_type>_<yyyymmdd>` (spec 2.4). */
export function reportKeyOf(type: ReportType, date: ReportDate): string {
  return `${type}_${date.replaceAll("-", "")}`;
}
