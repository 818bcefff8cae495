// What every report type's content builder receives and returns.
import type { UtcDay } from "../../usage/days";
import type { TrafficTotals, UsageQueries } from "../../usage/queries";

export interface ReportInput {
  /** The report date: the last day covered. */
  date: UtcDay;
  /** The first day covered: `date` for daily types, the 1st of the month for month-to-date ones. */
  from: UtcDay;
  /** The account's usage ledger. */
  usage: UsageQueries;
  /** Current names of the account's Sources; a Source missing here was deleted (blank name). */
  sourceNames: ReadonlyMap<string, string>;
}

/** A CSV table: the header row and the data rows, every cell already formatted. */
export interface Table {
  columns: readonly string[];
  rows: string[][];
}

export function sourceNameOf(input: ReportInput, sourceId: string): string {
  return input.sourceNames.get(sourceId) ?? "";
}

/** Mean response time with one decimal. */
export function averageMs(totals: TrafficTotals): string {
  return (totals.requests ? totals.responseMs / totals.requests : 0).toFixed(1);
}
