// The list's type filter is answered from an index on the type (migration core-004:
// sources_by_type_name), not by parsing every row's deployment JSON: the index expression and the
// SQL list-sql.ts writes must match.
import { describe, expect, it } from "vitest";
import { parseListQuery, sourceListSpec } from "@asset-delivery/sdk";
import { openMigratedDatabase } from "@asset-delivery/server";
import { listSql } from "@asset-delivery/server/dist/sources/list-sql";

function planOf(raw: Record<string, string>): string[] {
  const parsed = parseListQuery(sourceListSpec, raw);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const { where, params } = listSql(parsed.query);
  const db = openMigratedDatabase(":memory:");
  try {
    const rows = db
      .prepare(`EXPLAIN QUERY PLAN SELECT rowid FROM sources WHERE account_id = @account${where}`)
      .all({ ...params, account: "a", now: 0 });
    return (rows as { detail: string }[]).map((row) => row.detail);
  } finally {
    db.close();
  }
}

describe("list query plans", () => {
  it("a type filter searches the sources_by_type_name index", () => {
    expect(planOf({ "filter[deployment.type]": "webfolder", "filter[name]": "photos" }).join("\n")).toMatch(
      /USING (COVERING )?INDEX sources_by_type_name/,
    );
  });

  it("a list without filters reads the account's Sources by the account index", () => {
    expect(planOf({}).join("\n")).toMatch(/USING (COVERING )?INDEX sources_by_account/);
  });
});

describe("sorted pages", () => {
  it.each([
    [{ sort: "-name" }, "sources_by_name"],
    [{ sort: "name", "filter[name]": "x" }, "sources_by_name"],
    [{ sort: "-name", "filter[deployment.type]": "webfolder", "filter[name]": "bench" }, "sources_by_type_name"],
  ])("%o is read in index order (%s), without sorting", (raw, index) => {
    const parsed = parseListQuery(sourceListSpec, raw);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const { where, orderBy, params } = listSql(parsed.query);
    const db = openMigratedDatabase(":memory:");
    try {
      const plan = (
        db
          .prepare(`EXPLAIN QUERY PLAN SELECT id FROM sources WHERE account_id = @account${where} ORDER BY ${orderBy} LIMIT 20`)
          .all({ ...params, account: "a", now: 0 }) as { detail: string }[]
      )
        .map((row) => row.detail)
        .join("\n");
      expect(plan).toContain(`COVERING INDEX ${index} `);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    } finally {
      db.close();
    }
  });
});
