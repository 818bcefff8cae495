// credit_analytics_daily and credit_analytics_mtd: credits per Source (spec 2.4), one row per
// Source that has usage in the period. The month-to-date figures are the sum of the daily ones.
import { CREDIT_ANALYTICS_COLUMNS, CREDIT_COLUMNS } from "@asset-delivery/sdk";
import { addCredits, formatCredits, priceDay, totalOf, zeroCredits } from "../../pricing/credits";
import { sourceNameOf, type ReportInput, type Table } from "./table";

/** Both credit types: their period (the day, or the month to date) is in the input. */
export function creditAnalyticsTable(input: ReportInput): Table {
  const usage = input.usage.billableUsage(input.from, input.date);
  const rows = [...usage.keys()].sort().map((sourceId) => {
    const credits = [...usage.get(sourceId)!.values()].map(priceDay).reduce(addCredits, zeroCredits());
    return [
      input.date,
      sourceId,
      sourceNameOf(input, sourceId),
      ...CREDIT_COLUMNS.map((column) => formatCredits(column === "total_credits" ? totalOf(credits) : credits[column])),
    ];
  });
  return { columns: CREDIT_ANALYTICS_COLUMNS, rows };
}
