// Every module's migrations, in the order they apply: the core first (other tables refer to accounts).
// Each is known by its id, so a module's place in this list may change once applied.
import { dashboardMigrations } from "./dashboard/migrations";
import { purgeMigrations } from "./purges/migrations";
import { reportMigrations } from "./reports/migrations";
import { coreMigrations } from "./store/core-migrations";
import { usageMigrations } from "./usage/migrations";
import { migrate, openDatabase, type Database, type Migration } from "./store/database";
import { videoMigrations } from "./videos/migrations";

export const allMigrations: readonly Migration[] = [
  ...coreMigrations,
  ...usageMigrations,
  ...reportMigrations,
  ...videoMigrations,
  ...purgeMigrations,
  ...dashboardMigrations,
];

/** Opens the database file and brings its schema up to date: what the CLI's admin commands use. */
export function openMigratedDatabase(file: string): Database {
  const db = openDatabase(file);
  migrate(db, allMigrations);
  return db;
}
