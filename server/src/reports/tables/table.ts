// What every report type's content builder receives and returns.
import type { ReportDate } from "../periods";
import type { UsageEvent } from "../usage-event";

export interface ReportInput {
  date: ReportDate;
  /** The ledger of each day from the 1st of the month through `date`, in ledger order. */
  usageByDay: ReadonlyMap<ReportDate, readonly UsageEvent[]>;
  /** Current names of the account's Sources; a Source missing here was deleted (blank name). */
  sourceNames: ReadonlyMap<string, string>;
}

/** A CSV table: the header row and the data rows, every cell already formatted. */
export interface Table {
  columns: readonly string[];
  rows: string[][];
}

export function usageOfDay(input: ReportInput): readonly UsageEvent[] {
  return input.usageByDay.get(input.date) ?? [];
}

export function usageOfMonth(input: ReportInput): UsageEvent[] {
  return [...input.usageByDay.values()].flat();
}

export function sourceNameOf(input: ReportInput, sourceId: string): string {
  return input.sourceNames.get(sourceId) ?? "";
}

/** Groups events by a key, keeping the keys sorted so that row order never depends on input order. */
export function groupBy<T>(items: Iterable<T>, keyOf: (item: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Mean response time with one decimal; empty input gives 0.0. */
export function averageMs(events: readonly UsageEvent[]): string {
  if (events.length === 0) return "0.0";
  return (events.reduce((sum, e) => sum + e.responseMs, 0) / events.length).toFixed(1);
}

export function countWhere(events: readonly UsageEvent[], test: (event: UsageEvent) => boolean): number {
  return events.reduce((n, e) => (test(e) ? n + 1 : n), 0);
}

export function sumOf(events: readonly UsageEvent[], value: (event: UsageEvent) => number): number {
  return events.reduce((sum, e) => sum + value(e), 0);
}

export const isClientError = (e: UsageEvent) => e.status >= 400 && e.status < 500;
export const isServerError = (e: UsageEvent) => e.status >= 500;
