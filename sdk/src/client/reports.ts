// `client.reports` (spec 4.3): the list operations, file download, and the rows of a report.
import { anyHttpUrlSchema, reportListSpec, type CreditAnalyticsRow, type ListQuery, type Report, type SelectedReport } from "../api";
import { checked } from "./checked";
import { Collection } from "./collection";
import { endpoints } from "./endpoints";
import { creditRowsOf, gunzipIfCompressed, reportTable, type CsvTable } from "./report-files";
import { readBytes, type Send } from "./transport";

export type ReportListQuery = ListQuery<typeof reportListSpec>;

export class ReportsResource extends Collection<typeof reportListSpec, Report, SelectedReport> {
  constructor(send: Send) {
    super(send, reportListSpec, {
      list: endpoints.listReports,
      listSelected: endpoints.listSelectedReports,
      get: endpoints.getReport,
      getSelected: endpoints.getSelectedReport,
    });
  }

  /** One report file, gunzipped. The API key is sent only when the file is on the API's own origin. */
  async downloadFile(url: string): Promise<Buffer> {
    const target = checked(anyHttpUrlSchema, url, "downloadFile argument", ["url"]);
    const response = await this.send({ method: "GET", target, endpointClass: "default", accept: "*/*", read: readBytes });
    return gunzipIfCompressed(response.body, fileLabel(url));
  }

  /** Every row of the report, its split files joined, as column name to cell text. */
  async rows(report: Pick<Report, "attributes">): Promise<Record<string, string>[]> {
    return (await this.table(report)).rows;
  }

  /** The rows of a credit-analytics report, with numbers for the credit columns. */
  async creditRows(report: Pick<Report, "attributes">): Promise<CreditAnalyticsRow[]> {
    return creditRowsOf(report.attributes.report_key, await this.table(report));
  }

  private async table(report: Pick<Report, "attributes">): Promise<CsvTable> {
    return reportTable(
      await Promise.all(report.attributes.files.map(async (url) => ({ file: fileLabel(url), bytes: await this.downloadFile(url) }))),
    );
  }
}

/** A file's name for messages: its path, without a query that may hold a signature. */
function fileLabel(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
