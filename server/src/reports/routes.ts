// Reports over HTTP (spec 4.3): the list, one report, and the download of its files.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { API_ROUTES, listDocumentSchema, reportListSpec, selectedReportSchema, singleDocumentSchema } from "@asset-delivery/sdk";
import { baseUrlOf } from "../http/base-url";
import { listDocument, singleDocument } from "../http/documents";
import { notFound } from "../http/errors";
import { defineRoute } from "../http/route";
import { reportFileName, reportResource } from "./report-resource";
import type { ReportStore } from "./report-store";

export function defineReportRoutes(app: FastifyInstance, store: ReportStore): void {
  defineRoute(app, {
    route: API_ROUTES.listReports,
    permission: "Analytics",
    list: reportListSpec,
    response: listDocumentSchema(selectedReportSchema),
    status: 200,
    summary: "List the account's reports",
    handler({ request, auth, list }) {
      const { reports, total } = store.list(auth.accountId, list);
      const baseUrl = baseUrlOf(request);
      return listDocument(
        request,
        reports.map((report) => reportResource(report, baseUrl, list.fields)),
        list.page,
        total,
      );
    },
  });

  defineRoute(app, {
    route: API_ROUTES.getReport,
    permission: "Analytics",
    fields: reportListSpec,
    response: singleDocumentSchema(selectedReportSchema),
    status: 200,
    summary: "Retrieve a report",
    handler({ request, auth, params, list }) {
      const report = store.findById(auth.accountId, params.report_id!);
      if (!report) throw notFound("Report", params.report_id!);
      return singleDocument(request, reportResource(report, baseUrlOf(request), list.fields));
    },
  });

  defineRoute(app, {
    route: API_ROUTES.getReportFile,
    permission: "Analytics",
    response: z.instanceof(Buffer),
    mediaType: "application/gzip",
    status: 200,
    summary: "Download one file of a report: gzipped CSV with a header row",
    async handler({ reply, auth, params }) {
      const report = store.findById(auth.accountId, params.report_id!);
      if (!report) throw notFound("Report", params.report_id!);
      const file = report.completed ? store.files(report.id).find((f) => String(f.number) === params.file_number) : undefined;
      if (!file) throw notFound(`File ${params.file_number} of report`, report.id);
      reply.header("content-disposition", `attachment; filename="${reportFileName(report, file.number)}"`);
      return fs.readFile(path.join(app.appOptions.dataDir, file.path));
    },
  });
}
