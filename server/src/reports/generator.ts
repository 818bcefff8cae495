// Generates an account's reports for a day from the usage ledger, writes their files under the
// data directory and purges reports past retention. Generating is idempotent: a completed report
// is kept as it is, an interrupted one is generated again.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPORT_FILE_SIZE_LIMIT, REPORT_RETENTION_DAYS } from "@asset-delivery/sdk";
import type { Account } from "../accounts/account-store";
import type { Database } from "../store/database";
import { makePrivateDir, writePrivateFile } from "../store/private-files";
import { reportTypesFor } from "./availability";
import { endOfDay, type UtcDay } from "../usage/days";
import { firstDayOf, periodOf, reportKeyOf } from "./periods";
import { encodeReportFiles } from "./report-files";
import { createReportStore, type StoredReport, type StoredReportFile } from "./report-store";
import { TABLE_BUILDERS, type ReportInput } from "./tables";
import { createUsageQueries } from "../usage/queries";

export interface ReportGeneratorOptions {
  db: Database;
  /** Report files go to `<dataDir>/reports/<report id>/<n>.csv.gz`. */
  dataDir: string;
  now: () => number;
  /** Most bytes of one gzipped file; larger reports are split. */
  fileSizeLimit?: number;
}

const DAY_SECONDS = 86_400;

export type ReportGenerator = ReturnType<typeof createReportGenerator>;

export function createReportGenerator(options: ReportGeneratorOptions) {
  const { db, dataDir, now } = options;
  const limit = options.fileSizeLimit ?? REPORT_FILE_SIZE_LIMIT;
  const store = createReportStore(db, now);
  const sourceNames = db.prepare<[string], { id: string; name: string }>("SELECT id, name FROM sources WHERE account_id = ?");

  function writeFiles(report: StoredReport, files: readonly Buffer[]): StoredReportFile[] {
    const relativeDir = path.join("reports", report.id);
    const dir = path.join(dataDir, relativeDir);
    fs.rmSync(dir, { recursive: true, force: true });
    makePrivateDir(dir);
    return files.map((bytes, index) => {
      const relative = path.join(relativeDir, `${index + 1}.csv.gz`);
      writePrivateFile(path.join(dataDir, relative), bytes);
      return { number: index + 1, path: relative, bytes: bytes.length };
    });
  }

  /** The types the account's plan includes whose report of the day is not complete. */
  function missingTypes(account: Account, date: UtcDay) {
    return reportTypesFor(account).filter((type) => !store.find(account.id, type, date)?.completed);
  }

  /** The day's reports of the types the account's plan includes; returns every one of them. */
  function generate(account: Account, date: UtcDay): StoredReport[] {
    const types = reportTypesFor(account);
    const missing = missingTypes(account, date);
    const usage = createUsageQueries(db, account.id);
    const names = new Map(sourceNames.all(account.id).map((row) => [row.id, row.name]));
    for (const type of missing) {
      const period = periodOf(type, date);
      const report =
        store.find(account.id, type, date) ??
        store.start({
          accountId: account.id,
          reportType: type,
          reportDate: date,
          reportKey: reportKeyOf(type, date),
          periodStart: period.start,
          periodEnd: period.end,
        });
      const input: ReportInput = { date, from: firstDayOf(type, date), usage, sourceNames: names };
      store.complete(report.id, writeFiles(report, encodeReportFiles(TABLE_BUILDERS[type](input), limit)));
    }
    return types.map((type) => store.find(account.id, type, date)!);
  }

  /** Unix seconds: reports finalized (period ended) at or before this are past retention. */
  function retentionCutoff(): number {
    return Math.floor(now() / 1000) - REPORT_RETENTION_DAYS * DAY_SECONDS;
  }

  /** Deletes reports (and their files) retained for REPORT_RETENTION_DAYS after finalization. */
  function purgeExpired(): number {
    const expired = store.endedBy(retentionCutoff());
    for (const id of expired) {
      store.remove(id);
      fs.rmSync(path.join(dataDir, "reports", id), { recursive: true, force: true });
    }
    return expired.length;
  }

  /** Refuses a day that is not over yet or whose reports would be past retention. */
  function checkReportable(date: UtcDay): void {
    const end = endOfDay(date);
    if (end > now()) throw new RangeError(`date: ${date} is not over yet (UTC); a day's reports are generated once it has ended`);
    if (end / 1000 <= retentionCutoff()) {
      throw new RangeError(`date: ${date} is past the ${REPORT_RETENTION_DAYS}-day retention of reports`);
    }
  }

  return { generate, missingTypes, purgeExpired, checkReportable, store };
}
