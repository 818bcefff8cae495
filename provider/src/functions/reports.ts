// getReports / getReport: the account's analytics reports, their file URLs and, on request, rows,
// read with the caller's client (the program-side forms are in program-forms.ts).
import type { z } from "zod";
import { MAX_PAGE_SIZE, type AssetDeliveryClient, type CreditAnalyticsRow, type Report } from "@asset-delivery/sdk";
import { camelMembers, type CamelNamed } from "../pulumi-names/rename";
import { DEFAULT_MAX_RESULTS, reportResultSchema } from "./results";
import type { ArgsOf, GET_REPORT, GET_REPORTS } from "./signatures";

const REPORT_RESULT_KEYS = reportResultSchema.keyof().options;

/** A report under the resource's camelCase names (`reportKey`, `periodStart`). */
export type ReportResult = CamelNamed<z.output<typeof reportResultSchema>>;

function reportResult(report: Report): ReportResult {
  return camelMembers({ id: report.id, ...report.attributes }, REPORT_RESULT_KEYS);
}

/** getReports' arguments: the signature's (signatures.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface, so that its name is its type in users' editors and the API report
export interface GetReportsArgs extends ArgsOf<typeof GET_REPORTS.args> {}

/** getReports: the account's reports, at most `max`. */
export async function reportsOf(client: AssetDeliveryClient, args: GetReportsArgs = {}): Promise<{ reports: ReportResult[] }> {
  const reports = await client.reports.all(
    { filter: args.filter, sort: args.sort, page: { size: MAX_PAGE_SIZE } },
    { max: args.max ?? DEFAULT_MAX_RESULTS },
  );
  return { reports: reports.map(reportResult) };
}

/** getReport's arguments: the signature's (signatures.ts). With `includeRows`, credit-analytics reports give typed credit rows, others rows of text. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface, so that its name is its type in users' editors and the API report
export interface GetReportArgs extends ArgsOf<typeof GET_REPORT.args> {}

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
