// The Reports view: the account's reports with the API's filters, sorts and paging, their files to
// download (behind the session, as the API's are behind a key), and the "Credits per Source" chart.
import * as fs from "node:fs";
import * as path from "node:path";
import type { FastifyInstance } from "fastify";
import { REPORT_TYPES, reportListSpec } from "@asset-delivery/sdk";
import { createReportStore, reportFileName } from "../../reports";
import { chartLayout, createCreditChart, seriesToDraw, CHART_DAYS } from "../credit-chart";
import { definePage, PageError } from "../page";
import { renderPage, VIEWS } from "../render";
import { pagingOf, parseListPage } from "./list-page";

export function defineReportPages(app: FastifyInstance): void {
  const access = VIEWS.reports.access;
  const { db, dataDir, now } = app.appOptions;
  const store = createReportStore(db, now);
  const creditChart = createCreditChart({ store, dataDir, now });
  const sourceNames = db.prepare<[string], { id: string; name: string }>("SELECT id, name FROM sources WHERE account_id = ?");

  definePage(app, {
    method: "GET",
    url: "/reports",
    access,
    async handler({ request, reply, user, account }) {
      const list = parseListPage(reportListSpec, request.query);
      const { reports, total } = store.list(account.id, list.query);
      const credits = seriesToDraw(await creditChart.of(account.id), new Map(sourceNames.all(account.id).map((row) => [row.id, row.name])));
      return renderPage(
        reply,
        "reports",
        { title: "Reports", user, active: "reports" },
        {
          reports: reports.map((report) => ({
            ...report,
            files: report.completed
              ? Array.from({ length: report.fileCount }, (_, i) => ({
                  href: `/dashboard/reports/${report.id}/files/${i + 1}`,
                  name: reportFileName(report, i + 1),
                }))
              : [],
          })),
          total,
          ...pagingOf(list, total),
          parameters: list.parameters,
          issues: list.issues,
          types: REPORT_TYPES,
          sorts: reportListSpec.sorts,
          chart: chartLayout(credits),
          chartDays: CHART_DAYS,
          chartReports: credits.reportCount,
          chartSkipped: credits.skipped,
        },
      );
    },
  });

  definePage(app, {
    method: "GET",
    url: "/reports/:id/files/:number",
    access,
    async handler({ request, reply, account }) {
      const { id, number } = request.params as { id: string; number: string };
      const report = store.findById(account.id, id);
      const file = report?.completed ? store.files(report.id).find((f) => String(f.number) === number) : undefined;
      if (!report || !file) throw new PageError(404, "No file of this account's reports is at this address.");
      reply
        .header("content-disposition", `attachment; filename="${reportFileName(report, file.number)}"`)
        .header("cache-control", "private, no-store");
      // Streamed: a file may be up to 64 MB.
      const filePath = path.join(dataDir, file.path);
      const size = await fs.promises.stat(filePath).then(
        (stat) => stat.size,
        () => undefined,
      );
      if (size === undefined) throw new PageError(404, "This report's file is missing on the server.");
      return reply.type("application/gzip").header("content-length", String(size)).send(fs.createReadStream(filePath));
    },
  });
}
