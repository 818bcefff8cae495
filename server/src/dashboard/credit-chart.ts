// "Credits per Source": the daily credits of each Source over the last 90 days, read from the
// account's credit_analytics_daily reports (their files, parsed by the sdk's report reader, as a
// client of the API would), laid out as an SVG line chart rendered on the server. A completed
// report's files never change, so the reading is kept per account and set of reports
// (`createCreditChart`) and done again only when a report is added or the window moves; a report
// that cannot be read (a missing or malformed file) is skipped and named, never the page's failure.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { LRUCache } from "lru-cache";
import { creditRowsOf, parseListQuery, reportListSpec, reportTable } from "@asset-delivery/sdk";
import type { ReportStore, StoredReport } from "../reports";
import { addDays, yesterdayOf, type UtcDay } from "../usage";

export const CHART_DAYS = 90;
/** Lines drawn at most; the other Sources are summed into one more. */
export const MAX_SERIES = 8;
const PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#ca8a04", "#db2777", "#6b7280"];

export interface CreditSeries {
  /** Absent for the sum of the Sources beyond MAX_SERIES. */
  sourceId?: string;
  name: string;
  /** Credits per day, aligned with the chart's days (0 where a report has no row). */
  credits: number[];
  total: number;
}

export interface SkippedReport {
  reportKey: string;
  reason: string;
}

export interface CreditsPerSource {
  days: UtcDay[];
  /** Every Source's series, named as its reports name it. */
  series: CreditSeries[];
  /** Days within the window whose report was read. */
  reportCount: number;
  /** Reports within the window that could not be read, and why. */
  skipped: SkippedReport[];
}

/** The chart's days: the last `CHART_DAYS` report days, ending yesterday. */
export function chartDays(nowMs: number): UtcDay[] {
  const last = yesterdayOf(nowMs);
  return Array.from({ length: CHART_DAYS }, (_, i) => addDays(last, i - CHART_DAYS + 1));
}

/** The account's completed credit_analytics_daily reports of those days. */
export function creditReportsOf(store: ReportStore, accountId: string, days: readonly UtcDay[]): StoredReport[] {
  const parsed = parseListQuery(reportListSpec, {
    "filter[report_type]": "credit_analytics_daily",
    "filter[completed]": "true",
    sort: "-period_end",
    "page[size]": String(CHART_DAYS),
  });
  if (!parsed.ok) throw new Error(`credit report query refused: ${JSON.stringify(parsed.issues)}`);
  const inWindow = new Set(days);
  return store.list(accountId, parsed.query).reports.filter((report) => inWindow.has(report.reportDate));
}

/** Each Source's credits on the chart's days, from the reports' files; unreadable reports skipped. */
export async function creditsPerSource(options: {
  store: ReportStore;
  dataDir: string;
  days: UtcDay[];
  reports: readonly StoredReport[];
}): Promise<CreditsPerSource> {
  const { days } = options;
  const dayIndex = new Map(days.map((day, i) => [day, i]));
  const bySource = new Map<string, CreditSeries>();
  const skipped: SkippedReport[] = [];
  let reportCount = 0;
  for (const report of options.reports) {
    let rows;
    try {
      const files = await Promise.all(
        options.store.files(report.id).map(async (file) => ({
          file: `${report.reportKey} part ${file.number}`,
          bytes: await fs.readFile(path.join(options.dataDir, file.path)),
        })),
      );
      rows = creditRowsOf(report.reportKey, await reportTable(files));
    } catch (error) {
      skipped.push({ reportKey: report.reportKey, reason: unreadable(error) });
      continue;
    }
    reportCount++;
    const index = dayIndex.get(report.reportDate)!;
    for (const row of rows) {
      let series = bySource.get(row.source_id);
      if (!series) {
        series = { sourceId: row.source_id, name: row.source_name || row.source_id, credits: days.map(() => 0), total: 0 };
        bySource.set(row.source_id, series);
      }
      series.credits[index]! += row.total_credits;
      series.total += row.total_credits;
    }
  }
  return { days, series: [...bySource.values()], reportCount, skipped };
}

/** Why a report could not be read, without the server's paths. */
function unreadable(error: unknown): string {
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return "a file of it is missing";
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*'?\/[^\s']*'?/g, "").slice(0, 200) || "it could not be read";
}

export type CreditChart = ReturnType<typeof createCreditChart>;

/** The chart's data per account, read again only when its set of reports (or the window) changes. */
export function createCreditChart(options: { store: ReportStore; dataDir: string; now: () => number }) {
  // One reading per account at a time: requests arriving together share it.
  const readings = new LRUCache<string, { key: string; credits: Promise<CreditsPerSource> }>({ max: 1_000 });
  return {
    of(accountId: string): Promise<CreditsPerSource> {
      const days = chartDays(options.now());
      const reports = creditReportsOf(options.store, accountId, days);
      const key = [days[0], ...reports.map((report) => report.id)].join(",");
      const kept = readings.get(accountId);
      if (kept?.key === key) return kept.credits;
      const credits = creditsPerSource({ store: options.store, dataDir: options.dataDir, days, reports });
      readings.set(accountId, { key, credits });
      credits.catch(() => readings.delete(accountId));
      return credits;
    },
  };
}

/** The series to draw: each Source under its current name, the `MAX_SERIES` largest and the rest summed. */
export function seriesToDraw(data: CreditsPerSource, sourceNames: ReadonlyMap<string, string>): CreditsPerSource {
  const named = data.series.map((series) => ({ ...series, name: sourceNames.get(series.sourceId!) ?? series.name }));
  return { ...data, series: largestSeries(named, MAX_SERIES) };
}
/** The `max` Sources of most credits, largest first, and the others summed into one more series. */
export function largestSeries(series: readonly CreditSeries[], max: number): CreditSeries[] {
  const ranked = [...series].sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
  const rest = ranked.slice(max);
  if (rest.length === 0) return ranked;
  const days = rest[0]!.credits.length;
  return [
    ...ranked.slice(0, max),
    {
      name: `${rest.length} other Sources`,
      credits: Array.from({ length: days }, (_, i) => rest.reduce((sum, other) => sum + other.credits[i]!, 0)),
      total: rest.reduce((sum, other) => sum + other.total, 0),
    },
  ];
}

/** A round axis maximum at or above `value`: 1, 2 or 5 times a power of ten. */
export function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value)!;
}

const WIDTH = 760;
const HEIGHT = 300;
const MARGIN = { top: 16, right: 16, bottom: 36, left: 64 };

/** Coordinates of the chart, for the template: each value is a number or plain text it escapes. */
export function chartLayout(data: Pick<CreditsPerSource, "days" | "series">) {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const max = niceCeiling(Math.max(0, ...data.series.flatMap((series) => series.credits)));
  const x = (i: number) => MARGIN.left + (data.days.length <= 1 ? 0 : (i / (data.days.length - 1)) * plotWidth);
  const y = (value: number) => MARGIN.top + plotHeight - (value / max) * plotHeight;
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    width: WIDTH,
    height: HEIGHT,
    plot: { left: MARGIN.left, right: WIDTH - MARGIN.right, top: MARGIN.top, bottom: MARGIN.top + plotHeight },
    yTicks: [0, 0.2, 0.4, 0.6, 0.8, 1].map((share) => ({ y: round(y(share * max)), label: formatCredits(share * max) })),
    xTicks: data.days.flatMap((day, i) => (i % 15 === 0 || i === data.days.length - 1 ? [{ x: round(x(i)), label: day.slice(5) }] : [])),
    series: data.series.map((series, i) => ({
      sourceId: series.sourceId ?? "",
      name: series.name,
      color: PALETTE[i % PALETTE.length]!,
      total: formatCredits(series.total),
      points: series.credits.map((value, day) => `${round(x(day))},${round(y(value))}`).join(" "),
    })),
  };
}

export function formatCredits(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString("en-US") : String(Math.round(value * 100) / 100);
}
