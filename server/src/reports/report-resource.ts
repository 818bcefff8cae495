// A stored report as the API shows it (spec 2.4), with `files` as absolute download URLs.
import { API_ROUTES, routePath, selectFields, type SelectedReport } from "@asset-delivery/sdk";
import type { StoredReport } from "./report-store";

export function reportFilePath(reportId: string, number: number): string {
  return routePath(API_ROUTES.getReportFile, { report_id: reportId, file_number: String(number) });
}

/** `fields` as parsed from `fields[reports]` (null: all); `account` selects the relationship. */
export function reportResource(report: StoredReport, baseUrl: string, fields: readonly string[] | null): SelectedReport {
  const attributes = {
    completed: report.completed,
    files: Array.from({ length: report.completed ? report.fileCount : 0 }, (_, i) => `${baseUrl}${reportFilePath(report.id, i + 1)}`),
    period_end: report.periodEnd,
    period_start: report.periodStart,
    report_key: report.reportKey,
    report_type: report.reportType,
  };
  return {
    id: report.id,
    type: "reports",
    attributes: selectFields(attributes, fields),
    ...((fields === null || fields.includes("account")) && {
      relationships: { account: { data: { id: report.accountId, type: "accounts" as const } } },
    }),
  };
}

/** Download name: `<report_key>.csv.gz`, or `<report_key>_<n>.csv.gz` for a report split in parts. */
export function reportFileName(report: StoredReport, number: number): string {
  return report.fileCount > 1 ? `${report.reportKey}_${number}.csv.gz` : `${report.reportKey}.csv.gz`;
}
