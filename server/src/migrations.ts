// Every module's migrations, in the order they apply: the core first (other tables refer to accounts).
import { coreMigrations } from "./store/core-migrations";
import { migrate, openDatabase, type Database, type Migration } from "./store/database";

export const allMigrations: readonly Migration[] = [
  ...coreMigrations,
  // Reports and videos append their modules' migrations here.
];

/** Opens the database file and brings its schema up to date: what the CLI's admin commands use. */
export function openMigratedDatabase(file: string): Database {
  const db = openDatabase(file);
  migrate(db, allMigrations);
  return db;
}
