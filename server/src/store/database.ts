// The one SQLite database of the server: opening it with the settings every module relies on, and
// applying each module's migrations once, in order.
import * as path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { makePrivateDir, preparePrivateDatabase } from "./private-files";

export type Database = BetterSqlite3.Database;

/** One schema change. Each module owns its tables and exports its migrations, oldest first. */
export interface Migration {
  /** Unique across all modules and never reused, e.g. "core-001-accounts". */
  id: string;
  up(db: Database): void;
}

/**
 * Opens (creating if needed) the database file. ":memory:" gives a private in-memory database.
 *
 * - WAL: readers never block the writer, and a crash of the process loses no committed write.
 * - synchronous NORMAL: in WAL mode this keeps the file consistent under any crash; only the last
 *   commits before a power loss or OS crash may roll back. FULL would fsync every commit, which
 *   costs more than a local emulator's data is worth.
 * - foreign_keys ON: SQLite leaves it off by default; our tables rely on it.
 * - busy_timeout: a CLI command (e.g. `keys create`) may write while `serve` runs on the same file.
 * - private: its folder is created 0700, the file and its WAL are 0600 (private-files.ts).
 */
export function openDatabase(file: string): Database {
  if (file !== ":memory:") {
    makePrivateDir(path.dirname(path.resolve(file)));
    preparePrivateDatabase(file);
  }
  const db = new BetterSqlite3(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  return db;
}

/** Applies the migrations not yet recorded in `schema_migrations`, each in its own transaction. */
export function migrate(db: Database, migrations: readonly Migration[]): string[] {
  db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const applied = new Set(db.prepare("SELECT id FROM schema_migrations").pluck().all() as string[]);
  const record = db.prepare("INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)");
  const seen = new Set<string>();
  const ran: string[] = [];
  for (const migration of migrations) {
    if (seen.has(migration.id)) throw new Error(`migration id "${migration.id}" is listed twice`);
    seen.add(migration.id);
    if (applied.has(migration.id)) continue;
    db.transaction(() => {
      migration.up(db);
      record.run(migration.id, Math.floor(Date.now() / 1000));
    }).immediate();
    ran.push(migration.id);
  }
  return ran;
}
