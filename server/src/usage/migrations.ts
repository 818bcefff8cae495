// Tables of the reports module: the usage ledger the figures come from, and the generated reports
// with their files (stored under the data directory).
import type { Migration } from "../store/database";
import { originImageOf } from "./usage-event";

export const reportMigrations: Migration[] = [
  {
    id: "reports-001-usage-ledger",
    up(db) {
      db.exec(`
        CREATE TABLE usage_events (
          id            INTEGER PRIMARY KEY,
          account_id    TEXT NOT NULL REFERENCES accounts (id),
          source_id     TEXT NOT NULL,
          -- UTC day of timestamp_ms, YYYY-MM-DD: reports read the ledger a day at a time.
          day           TEXT NOT NULL,
          timestamp_ms  INTEGER NOT NULL,
          path          TEXT NOT NULL,
          status        INTEGER NOT NULL,
          bytes         INTEGER NOT NULL,
          cache_hit     INTEGER NOT NULL CHECK (cache_hit IN (0, 1)),
          response_ms   REAL NOT NULL,
          referer       TEXT NOT NULL,
          user_agent    TEXT NOT NULL,
          render_class  TEXT NOT NULL,
          origin_bytes  INTEGER NOT NULL,
          video_seconds REAL NOT NULL,
          -- 'import' (usage import) or 'seed' (usage seed, which replaces only its own rows).
          origin        TEXT NOT NULL CHECK (origin IN ('import', 'seed'))
        );
        CREATE INDEX usage_events_by_account_day ON usage_events (account_id, day, timestamp_ms);
      `);
    },
  },
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
  {
    // Reports group by origin image in SQL: the path without its query, computed once on insert.
    id: "reports-003-usage-origin-image",
    up(db) {
      db.exec("ALTER TABLE usage_events ADD COLUMN origin_image TEXT NOT NULL DEFAULT ''");
      const update = db.prepare("UPDATE usage_events SET origin_image = ? WHERE id = ?");
      for (const row of db.prepare<[], { id: number; path: string }>("SELECT id, path FROM usage_events").all())
        update.run(originImageOf(row.path), row.id);
    },
  },
];
