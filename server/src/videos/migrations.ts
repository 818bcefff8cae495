// The video job queue. A job in `preparing` is waiting or being rendered; `attempts` counts the
// renders started, so a job whose render was interrupted twice is given up rather than retried forever.
import type { Migration } from "../store/database";

export const videoMigrations: Migration[] = [
  {
    id: "videos-001-jobs",
    up(db) {
      db.exec(`
        CREATE TABLE video_jobs (
          id            TEXT PRIMARY KEY,
          account_id    TEXT NOT NULL REFERENCES accounts (id),
          url           TEXT NOT NULL,
          prompt        TEXT NOT NULL,
          model         TEXT NOT NULL,
          duration      INTEGER NOT NULL,
          status        TEXT NOT NULL CHECK (status IN ('preparing', 'ready', 'errored')),
          attempts      INTEGER NOT NULL DEFAULT 0,
          error_code    INTEGER,
          error_message TEXT,
          -- Relative to the data directory; set when ready.
          video_path    TEXT,
          created_at    INTEGER NOT NULL,
          updated_at    INTEGER
        );
        CREATE INDEX video_jobs_queue ON video_jobs (status, created_at);
      `);
    },
  },
];
