// The reports resource (spec 2.4, 4.3): its tables, HTTP routes and the daily generation in the
// server process, from the usage ledger (usage/) priced by pricing/.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createGenerationProcess } from "./generation-process";
import { createReportGenerator } from "./generator";
import { defineReportRoutes } from "./routes";
import { startReportScheduler, type ReportScheduler } from "./scheduler";

export { reportMigrations } from "./migrations";
export { createReportGenerator, type ReportGenerator } from "./generator";
export { createReportStore, type ReportStore, type StoredReport } from "./report-store";
export { reportFileName } from "./report-resource";
export { reportTypesFor, parseOptionalReportType, OPTIONAL_REPORT_TYPES } from "./availability";
export { periodOf, reportKeyOf } from "./periods";
export { generateReports, setReportTypes, type GenerateReportsInput } from "./admin";

/**
 * Routes, plus the scheduler from the moment the app is ready until it closes. Generation runs in
 * a low-priority child process, so requests keep their latency while a busy account's day is generated; the
 * server starts answering at once, before yesterday's catch-up is done.
 */
export const reportsPlugin = fp(
  async function reports(app: FastifyInstance) {
    const { db, dataDir, now, reportFileSizeLimit } = app.appOptions;
    const generator = createReportGenerator({ db, dataDir, now, fileSizeLimit: reportFileSizeLimit });
    defineReportRoutes(app, generator.store);
    const worker = createGenerationProcess({ db, dataDir, fileSizeLimit: reportFileSizeLimit, now, generator });

    let scheduler: ReportScheduler | undefined;
    app.addHook("onReady", async () => {
      scheduler = startReportScheduler({
        generator: { generate: worker.generate, purgeExpired: generator.purgeExpired },
        accounts: app.accounts,
        now,
        log: app.log,
      });
    });
    app.addHook("onClose", async () => {
      const stopping = scheduler?.stop();
      await worker.close(); // abandons a job in progress, which ends the run
      await stopping;
    });
  },
  { name: "reports", dependencies: ["accounts", "auth", "route-registry"] },
);
