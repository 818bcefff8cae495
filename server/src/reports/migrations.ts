// The generated reports and their files (stored under the data directory).
import type { Migration } from "../store/database";

export const reportMigrations: Migration[] = [
  {
    id: "reports-002-reports",
    up(db) {
      db.exec(`
        CREATE TABLE reports (
          id           TEXT PRIMARY KEY,
          account_id   TEXT NOT NULL REFERENCES accounts (id),
          report_type  TEXT NOT NULL,
          report_date  TEXT NOT NULL,
          report_key   TEXT NOT NULL,
          period_start INTEGER NOT NULL,
          period_end   INTEGER NOT NULL,
          completed    INTEGER NOT NULL DEFAULT 0 CHECK (completed IN (0, 1)),
          created_at   INTEGER NOT NULL,
          UNIQUE (account_id, report_type, report_date)
        );
        CREATE INDEX reports_by_account_period ON reports (account_id, period_end);
        CREATE TABLE report_files (
          report_id TEXT NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
          number    INTEGER NOT NULL CHECK (number >= 1),
          -- Relative to the data directory.
          path      TEXT NOT NULL,
          bytes     INTEGER NOT NULL,
          PRIMARY KEY (report_id, number)
        ) WITHOUT ROWID;
      `);
    },
  },
];
