// The change counter that the server's caches (rendered Sources, list pages, recent
// authentications) check on every request: every write through the connection moves it, no read does.
import { changeCounter, openDatabase } from "@asset-delivery/server";
import { describe, expect, it } from "vitest";

describe("changeCounter", () => {
  it("counts writes by statement and exec, including INSERT ... RETURNING, and never a read", () => {
    const db = openDatabase(":memory:");
    try {
      const changes = changeCounter(db);
      db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
      let seen = changes();

      db.prepare("INSERT INTO t (v) VALUES (?)").run("a");
      expect(changes()).toBeGreaterThan(seen);
      seen = changes();

      const returning = db.prepare("INSERT INTO t (v) VALUES (?) RETURNING id").get("b") as { id: number };
      expect(returning.id).toBe(2);
      expect(changes()).toBeGreaterThan(seen);
      seen = changes();

      db.transaction(() => db.prepare("UPDATE t SET v = ? WHERE id = ?").run("c", 1))();
      expect(changes()).toBeGreaterThan(seen);
      seen = changes();

      expect(db.prepare("SELECT v FROM t ORDER BY id").pluck().all()).toEqual(["c", "b"]);
      expect(db.prepare("SELECT count(*) FROM t").pluck().get()).toBe(2);
      expect(changes()).toBe(seen);
    } finally {
      db.close();
    }
  });

  it("refuses a connection that was not opened by openDatabase (its writes would go uncounted)", async () => {
    const { default: BetterSqlite3 } = await import("better-sqlite3");
    const db = new BetterSqlite3(":memory:");
    try {
      expect(() => changeCounter(db)).toThrow(/openDatabase/);
    } finally {
      db.close();
    }
  });
});
