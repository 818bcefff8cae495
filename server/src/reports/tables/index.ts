// The content of each report type.
import type { ReportType } from "@asset-delivery/sdk";
import { cdnLogsTable } from "./cdn-logs";
import { creditAnalyticsTable } from "./credit-analytics";
import { imageAnalyticsTable } from "./image-analytics";
import { mildErrorsTable } from "./mild-errors";
import { sourceAnalyticsTable } from "./source-analytics";
import type { ReportInput, Table } from "./table";

export type { ReportInput, Table } from "./table";

export const TABLE_BUILDERS: Record<ReportType, (input: ReportInput) => Table> = {
  cdn_logs: cdnLogsTable,
  credit_analytics_daily: creditAnalyticsTable,
  credit_analytics_mtd: creditAnalyticsTable,
  image_analytics: imageAnalyticsTable,
  mild_errors: mildErrorsTable,
  source_analytics: sourceAnalyticsTable,
};
