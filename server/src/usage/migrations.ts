// The usage ledger's table: every request served by an account's Sources. The ids keep their
// "reports-" prefix: they were applied under it, and a database knows its migrations by id.
import type { Migration } from "../store/database";
import { originImageOf } from "./event";

export const usageMigrations: Migration[] = [
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
