// getReports / getReport: the account's analytics reports, their file URLs and, on request, rows,
// read with the caller's client (the program-side forms are in program-forms.ts).
import {
  MAX_PAGE_SIZE,
  type AssetDeliveryClient,
  type CreditAnalyticsRow,
  type Report,
  type ReportListQuery,
  type ReportType,
} from "@asset-delivery/sdk";
import { DEFAULT_MAX_RESULTS } from "./sources";

export interface ReportResult {
  id: string;
  reportKey: string;
  reportType: ReportType;
  completed: boolean;
  /** Unix timestamps of the covered period. */
  periodStart: number;
  periodEnd: number;
  /** URLs of the report's files (a large report is split). */
  files: string[];
}

function reportResult(report: Report): ReportResult {
  const a = report.attributes;
  return {
    id: report.id,
    reportKey: a.report_key,
    reportType: a.report_type,
    completed: a.completed,
    periodStart: a.period_start,
    periodEnd: a.period_end,
    files: a.files,
  };
}

export interface GetReportsArgs {
  /** e.g. `{ report_type: "credit_analytics_daily", completed: true }`. */
  filter?: ReportListQuery["filter"];
  /** e.g. `["-period_end"]`. */
  sort?: ReportListQuery["sort"];
  /** Default 1000. */
  max?: number;
}

/** getReports: the account's reports, at most `max`. */
export async function reportsOf(client: AssetDeliveryClient, args: GetReportsArgs = {}): Promise<{ reports: ReportResult[] }> {
  const reports = await client.reports.all(
    { filter: args.filter, sort: args.sort, page: { size: MAX_PAGE_SIZE } },
    { max: args.max ?? DEFAULT_MAX_RESULTS },
  );
  return { reports: reports.map(reportResult) };
}

export interface GetReportArgs {
  id: string;
  /** Download and parse the files: credit-analytics reports give typed credit rows, others rows of text. */
  includeRows?: boolean;
}

export interface ReportWithRows extends ReportResult {
  rows?: CreditAnalyticsRow[] | Record<string, string>[];
}

/** getReport: one report, with its rows when asked. */
export async function reportOf(client: AssetDeliveryClient, args: GetReportArgs): Promise<ReportWithRows> {
  const report = await client.reports.get(args.id);
  if (!args.includeRows) return reportResult(report);
  const credit = report.attributes.report_type.startsWith("credit_analytics_");
  return { ...reportResult(report), rows: credit ? await client.reports.creditRows(report) : await client.reports.rows(report) };
}
