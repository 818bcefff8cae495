// Reports and their files as stored: creation, completion, lookup, the API's list query (filters,
// sorts and paging in SQL) and removal.
import type { FilterCondition, ParsedListQuery, ReportType } from "@asset-delivery/sdk";
import type { Database } from "../store/database";
import { newId } from "../store/random";
import type { UtcDay } from "../usage/days";

export interface StoredReport {
  id: string;
  accountId: string;
  reportType: ReportType;
  reportDate: UtcDay;
  reportKey: string;
  periodStart: number;
  periodEnd: number;
  completed: boolean;
  /** Number of files; 0 until completed. */
  fileCount: number;
}

export interface StoredReportFile {
  number: number;
  /** Relative to the data directory. */
  path: string;
  bytes: number;
}

interface ReportRow {
  id: string;
  account_id: string;
  report_type: ReportType;
  report_date: string;
  report_key: string;
  period_start: number;
  period_end: number;
  completed: 0 | 1;
  file_count: number;
}

function toReport(row: ReportRow): StoredReport {
  return {
    id: row.id,
    accountId: row.account_id,
    reportType: row.report_type,
    reportDate: row.report_date,
    reportKey: row.report_key,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    completed: row.completed === 1,
    fileCount: row.file_count,
  };
}

const SELECT_REPORT = "SELECT r.*, (SELECT count(*) FROM report_files f WHERE f.report_id = r.id) AS file_count FROM reports r";

// The list's filterable and sortable attributes are columns of the same name (reportListSpec).
const COLUMNS: Readonly<Record<string, string>> = {
  completed: "r.completed",
  report_type: "r.report_type",
  period_end: "r.period_end",
  period_start: "r.period_start",
  report_key: "r.report_key",
};

function condition(filter: FilterCondition, params: unknown[]): string {
  const column = COLUMNS[filter.field];
  if (!column) throw new Error(`no column for the report filter "${filter.field}"`);
  params.push(typeof filter.value === "boolean" ? (filter.value ? 1 : 0) : filter.value);
  return `${column} = ?`;
}

export type ReportStore = ReturnType<typeof createReportStore>;

export function createReportStore(db: Database, now: () => number) {
  const find = db.prepare<[string, string, string], ReportRow>(
    `${SELECT_REPORT} WHERE r.account_id = ? AND r.report_type = ? AND r.report_date = ?`,
  );
  const byId = db.prepare<[string, string], ReportRow>(`${SELECT_REPORT} WHERE r.id = ? AND r.account_id = ?`);
  const insert = db.prepare(`
    INSERT INTO reports (id, account_id, report_type, report_date, report_key, period_start, period_end, completed, created_at)
    VALUES (@id, @accountId, @reportType, @reportDate, @reportKey, @periodStart, @periodEnd, 0, @createdAt)`);
  const filesOf = db.prepare<[string], StoredReportFile>(
    "SELECT number, path, bytes FROM report_files WHERE report_id = ? ORDER BY number",
  );
  const deleteFiles = db.prepare("DELETE FROM report_files WHERE report_id = ?");
  const insertFile = db.prepare("INSERT INTO report_files (report_id, number, path, bytes) VALUES (?, ?, ?, ?)");
  const markCompleted = db.prepare("UPDATE reports SET completed = 1 WHERE id = ?");
  const expired = db.prepare<[number], { id: string }>("SELECT id FROM reports WHERE period_end <= ?");
  const deleteReport = db.prepare("DELETE FROM reports WHERE id = ?");

  const complete = db.transaction((reportId: string, files: readonly StoredReportFile[]) => {
    deleteFiles.run(reportId);
    for (const file of files) insertFile.run(reportId, file.number, file.path, file.bytes);
    markCompleted.run(reportId);
  });

  return {
    find(accountId: string, type: ReportType, date: UtcDay): StoredReport | undefined {
      const row = find.get(accountId, type, date);
      return row && toReport(row);
    },
    findById(accountId: string, id: string): StoredReport | undefined {
      const row = byId.get(id, accountId);
      return row && toReport(row);
    },
    /** Records a report that is being generated (not completed, no files). */
    start(report: Omit<StoredReport, "id" | "completed" | "fileCount">): StoredReport {
      const id = newId();
      insert.run({ ...report, id, createdAt: now() });
      return { ...report, id, completed: false, fileCount: 0 };
    },
    files(reportId: string): StoredReportFile[] {
      return filesOf.all(reportId);
    },
    /** Attaches the written files and marks the report completed, in one transaction. */
    complete(reportId: string, files: readonly StoredReportFile[]): void {
      complete(reportId, files);
    },
    /** Reports whose period ended at or before `cutoff` (Unix seconds). */
    endedBy(cutoff: number): string[] {
      return expired.all(cutoff).map((row) => row.id);
    },
    remove(reportId: string): void {
      deleteReport.run(reportId);
    },
    /** One page of the account's reports and the number of all that match. */
    list(accountId: string, query: ParsedListQuery): { reports: StoredReport[]; total: number } {
      const params: unknown[] = [accountId];
      const where = ["r.account_id = ?", ...query.all.map((filter) => condition(filter, params))];
      if (query.any.length) where.push(`(${query.any.map((filter) => condition(filter, params)).join(" OR ")})`);
      const whereSql = where.join(" AND ");
      const total =
        db
          .prepare<unknown[], number>(`SELECT count(*) FROM reports r WHERE ${whereSql}`)
          .pluck()
          .get(...params) ?? 0;
      const order = query.sort.map(({ field, descending }) => `${COLUMNS[field]} ${descending ? "DESC" : "ASC"}`);
      // Newest first by default; the report key then the id make every order total.
      const orderSql = [...(order.length ? order : ["r.period_end DESC"]), "r.report_key ASC", "r.id ASC"].join(", ");
      const rows = db
        .prepare<unknown[], ReportRow>(`${SELECT_REPORT} WHERE ${whereSql} ORDER BY ${orderSql} LIMIT ? OFFSET ?`)
        .all(...params, query.page.size, query.page.number * query.page.size);
      return { reports: rows.map(toReport), total };
    },
  };
}
