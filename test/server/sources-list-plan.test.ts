// A list's statements, as the Source store runs them, are served by the indexes of migration
// core-004: the type filter is answered from sources_by_type_name, not by parsing every row's
// deployment JSON (the index expression and the SQL list-sql.ts writes must match), and a page
// sorted by name is read in index order. The only sort left is that of the page's own rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseListQuery, sourceListSpec } from "@asset-delivery/sdk";
import { buildApp, openMigratedDatabase, type Database } from "@asset-delivery/server";

let db: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  db = openMigratedDatabase(":memory:");
  app = await buildApp({ db, dataDir: ".", deployDelayMs: 0, rateLimits: "off", secretKey: Buffer.alloc(32, 7) });
});
afterAll(async () => {
  await app.close();
  db.close();
});

function plansOf(raw: Record<string, string>) {
  const parsed = parseListQuery(sourceListSpec, raw);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const { count, page } = app.sourceStore.listPlans("a", parsed.query);
  return { count: count.join("\n"), page: page.join("\n") };
}

describe("list query plans", () => {
  it("a type filter searches the sources_by_type_name index", () => {
    expect(plansOf({ "filter[deployment.type]": "webfolder", "filter[name]": "photos" }).count).toMatch(
      /USING (COVERING )?INDEX sources_by_type_name/,
    );
  });

  it("a list without filters reads the account's Sources by an index on the account", () => {
    expect(plansOf({}).count).toMatch(/USING (COVERING )?INDEX sources_by_(account|name|type_name) \(account_id=\?\)/);
  });
});

describe("sorted pages", () => {
  it.each([
    [{ sort: "-name" }, "sources_by_name"],
    [{ sort: "name", "filter[name]": "x" }, "sources_by_name"],
    [{ sort: "-name", "filter[deployment.type]": "webfolder", "filter[name]": "bench" }, "sources_by_type_name"],
  ])("%o is chosen in index order (%s); only the page's rows are sorted", (raw, index) => {
    const { page } = plansOf(raw);
    expect(page).toContain(`COVERING INDEX ${index} `);
    expect(page.match(/TEMP B-TREE/g)).toHaveLength(1);
  });

  it("a sort no index serves needs a second sort (the check above can fail)", () => {
    expect(plansOf({ sort: "-date_deployed" }).page.match(/TEMP B-TREE/g)).toHaveLength(2);
  });
});
