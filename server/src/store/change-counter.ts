// The writes made through one database connection, by any code. A cache of what is stored compares
// the count with the one it was filled at to know whether anything was written since. (Writes by
// other processes are not counted: each cache says how it handles them.)
//
// Counted in JavaScript rather than asked of SQLite (`SELECT total_changes()`): caches check it on
// every request, and a statement there cost more than the rest of a cached GET's own work.
import type BetterSqlite3 from "better-sqlite3";

type Connection = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement<unknown[], unknown>;

const writeCounts = new WeakMap<Connection, { writes: number }>();
const RUN_METHODS = ["run", "get", "all", "iterate"] as const;

/**
 * Makes `db` count every run of a statement that may write (SQLite's own verdict: not read-only,
 * so `INSERT ... RETURNING` too) and every `exec`. A count that is too high only empties a cache.
 */
export function countWrites(db: Connection): void {
  const counter = { writes: 0 };
  writeCounts.set(db, counter);
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const statement = prepare(source) as Statement;
    if (statement.readonly) return statement;
    for (const method of RUN_METHODS) {
      const original = statement[method].bind(statement) as (...params: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = (...params: unknown[]) => {
        counter.writes++;
        return original(...params);
      };
    }
    return statement;
  }) as Connection["prepare"];
  const exec = db.exec.bind(db);
  db.exec = (source: string) => {
    counter.writes++;
    return exec(source);
  };
}

/** The number of writes made through `db` so far (opened by openDatabase, which counts them). */
export function changeCounter(db: Connection): () => number {
  const counter = writeCounts.get(db);
  if (!counter) throw new Error("this database connection does not count its writes: open it with openDatabase");
  return () => counter.writes;
}
