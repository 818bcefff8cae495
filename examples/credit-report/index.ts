// Yesterday's credit report: the `credit_analytics_daily` report of the previous UTC day (the API
// has it by 04:00 UTC), its rows parsed, and the credits per Source as stack outputs. Data-source
// functions run in the program with the same credentials as the resources.
import { getReportOutput, getReportsOutput } from "@asset-delivery/provider";

const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10).replace(/-/g, "");
const reportKey = `credit_analytics_daily_${yesterday}`;

const recent = getReportsOutput({ filter: { report_type: "credit_analytics_daily" }, sort: ["-period_end"], max: 7 });
const reportId = recent.apply(({ reports }) => {
  const report = reports.find((r) => r.reportKey === reportKey);
  if (!report) throw new Error(`${reportKey} is not available (yet): a day's reports appear by 04:00 UTC the next day`);
  return report.id;
});
const report = getReportOutput({ id: reportId, includeRows: true });

const rows = report.apply((r) => r.rows ?? []);

export const key = report.reportKey;
export const files = report.files;
/** Credits per Source (by id; the name may be blank for a deleted or renamed Source). */
export const creditsBySource = rows.apply((all) => Object.fromEntries(all.map((row) => [row.source_id, Number(row.total_credits)])));
export const totalCredits = rows.apply((all) => all.reduce((sum, row) => sum + Number(row.total_credits), 0));
