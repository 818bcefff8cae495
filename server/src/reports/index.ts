// The reports module: its tables, HTTP routes and the daily generation in the server process.
import type { FastifyInstance } from "fastify";
import { createReportGenerator } from "./generator";
import { defineReportRoutes } from "./routes";
import { startReportScheduler } from "./scheduler";

export { reportMigrations } from "./migrations";
export { createReportGenerator, type ReportGenerator } from "./generator";
export { createLedger, type Ledger } from "./ledger";
export { parseUsageLines, usageEventSchema, RENDER_CLASSES, type UsageEvent, type UsageEventInput } from "./usage-event";
export { sampleUsage } from "./seed";
export { reportTypesFor, parseOptionalReportType, OPTIONAL_REPORT_TYPES } from "./availability";
export { parseReportDate, addDays, yesterdayOf, dateOf, type ReportDate } from "./periods";
export { PRICES } from "./pricing";
export { generateReports, importUsage, seedUsage, setReportTypes, type GenerateReportsInput, type SeedUsageInput } from "./admin";

/** Routes, plus the scheduler from the moment the app is ready until it closes. */
export function registerReports(app: FastifyInstance): void {
  const { db, dataDir, now, reportFileSizeLimit } = app.appOptions;
  const generator = createReportGenerator({ db, dataDir, now, fileSizeLimit: reportFileSizeLimit });
  defineReportRoutes(app, generator.store);

  let scheduler: ReturnType<typeof startReportScheduler> | undefined;
  app.addHook("onReady", async () => {
    scheduler = startReportScheduler({ generator, accounts: app.accounts, now, log: app.log });
  });
  app.addHook("onClose", async () => scheduler?.stop());
}
