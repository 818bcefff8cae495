// The writes made through one database connection, by any code: SQLite's total_changes(). A cache
// of what is stored compares it with the count it was filled at to know whether anything was
// written since. (Writes by other processes are not counted: each cache says how it handles them.)
import type { Database } from "./database";

export function changeCounter(db: Database): () => number {
  const totalChanges = db.prepare<[], number>("SELECT total_changes()").pluck();
  return () => totalChanges.get()!;
}
