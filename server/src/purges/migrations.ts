// Purges as recorded: each accepted purge with the Source it hit, kept for PURGE_RECORD_DAYS.
import type { Migration } from "../store/database";

export const purgeMigrations: Migration[] = [
  {
    id: "purges-001-purges",
    up(db) {
      db.exec(`
        CREATE TABLE purges (
          id         TEXT PRIMARY KEY,
          account_id TEXT NOT NULL REFERENCES accounts (id),
          -- The Source whose hostname the URL is on; for a sub-image, the Source that uses it.
          source_id  TEXT NOT NULL REFERENCES sources (id),
          -- Scheme, host and path: the query is not part of what is purged.
          url        TEXT NOT NULL,
          sub_image  INTEGER NOT NULL CHECK (sub_image IN (0, 1)),
          key_id     TEXT NOT NULL REFERENCES api_keys (id),
          -- Milliseconds.
          created_at INTEGER NOT NULL
        );
        CREATE INDEX purges_by_url ON purges (account_id, url, created_at);
        CREATE INDEX purges_by_source ON purges (source_id, created_at);
        CREATE INDEX purges_by_time ON purges (created_at);
      `);
    },
  },
];
