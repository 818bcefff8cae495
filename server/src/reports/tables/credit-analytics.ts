// credit_analytics_daily and credit_analytics_mtd: credits per Source (spec 2.4), one row per
// Source that has usage in the period. The month-to-date figures are the sum of the daily ones.
import { CREDIT_ANALYTICS_COLUMNS, CREDIT_COLUMNS } from "@asset-delivery/sdk";
import { addCredits, formatCredits, priceDay, totalOf, zeroCredits, type CreditAmounts, type CreditCategory } from "../pricing";
import { groupBy, sourceNameOf, type ReportInput, type Table } from "./table";

function creditsPerSource(input: ReportInput, days: readonly string[]): [string, CreditAmounts][] {
  const totals = new Map<string, CreditAmounts>();
  for (const day of days) {
    for (const [sourceId, events] of groupBy(input.usageByDay.get(day) ?? [], (e) => e.sourceId)) {
      totals.set(sourceId, addCredits(totals.get(sourceId) ?? zeroCredits(), priceDay(events)));
    }
  }
  return [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
}

function creditTable(input: ReportInput, days: readonly string[]): Table {
  const rows = creditsPerSource(input, days).map(([sourceId, credits]) => [
    input.date,
    sourceId,
    sourceNameOf(input, sourceId),
    ...CREDIT_COLUMNS.map((column) => formatCredits(column === "total_credits" ? totalOf(credits) : credits[column as CreditCategory])),
  ]);
  return { columns: CREDIT_ANALYTICS_COLUMNS, rows };
}

export function creditAnalyticsDailyTable(input: ReportInput): Table {
  return creditTable(input, [input.date]);
}

export function creditAnalyticsMtdTable(input: ReportInput): Table {
  return creditTable(input, [...input.usageByDay.keys()]);
}
