// Which reports an account gets (spec 2.4, "Availability"), the daily scheduler, and the reports
// list (spec 4.3): filters, sorts, paging and fields.
import { Writable } from "node:stream";
import { REPORT_TYPES } from "@asset-delivery/sdk";
import { createAccount, createKey, generateReports, seedUsage, setReportTypes } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startTestServer, type TestServer } from "../support/server";
import { minimalDeployment, sleep } from "./fixtures";

const DAY = 86_400_000;
let server: TestServer;
let clock = Date.parse("2024-06-10T08:00:00Z");

const list = (key: string, query = "") => apiRequest(`${server.url}/api/v1/reports${query ? `?${query}` : ""}`, { key });
const keys = (response: { body: any }) => response.body.data.map((r: any) => r.attributes.report_key);

function accountWithKey(name: string, plan: string): string {
  createAccount(server.db, { name, plan });
  return createKey(server.db, { account: name, permissions: ["Analytics"] }).key;
}

beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
});
afterAll(() => server.close());

describe("availability by plan", () => {
  it("free: none; paid: image_analytics; enterprise: all six, minus those switched off", async () => {
    const free = accountWithKey("plan-free", "free");
    const paid = accountWithKey("plan-paid", "paid");
    const enterprise = accountWithKey("plan-enterprise", "enterprise");
    const trimmed = accountWithKey("plan-trimmed", "enterprise");
    const noSourceAnalytics = accountWithKey("plan-no-source-analytics", "enterprise");
    expect(setReportTypes(server.db, { account: "plan-trimmed", disable: ["cdn_logs", "mild_errors"] })).toEqual([
      "credit_analytics_daily",
      "credit_analytics_mtd",
      "image_analytics",
      "source_analytics",
    ]);
    // Credit analytics come with source_analytics (spec 2.4).
    expect(setReportTypes(server.db, { account: "plan-no-source-analytics", disable: ["source_analytics"] })).toEqual([
      "cdn_logs",
      "image_analytics",
      "mild_errors",
    ]);
    generateReports(server.db, { date: "2024-06-09", dataDir: server.app.appOptions.dataDir, now: () => clock });

    const typesOf = async (key: string) => (await list(key)).body.data.map((r: any) => r.attributes.report_type).sort();
    expect(await typesOf(free)).toEqual([]);
    expect(await typesOf(paid)).toEqual(["image_analytics"]);
    expect(await typesOf(enterprise)).toEqual([...REPORT_TYPES].sort()); // every type
    expect(await typesOf(trimmed)).toEqual(["credit_analytics_daily", "credit_analytics_mtd", "image_analytics", "source_analytics"]);
    expect(await typesOf(noSourceAnalytics)).toEqual(["cdn_logs", "image_analytics", "mild_errors"]);

    // Switching a type back on applies from the next generation.
    setReportTypes(server.db, { account: "plan-trimmed", enable: ["cdn_logs"] });
    generateReports(server.db, { date: "2024-06-08", account: "plan-trimmed", dataDir: server.app.appOptions.dataDir, now: () => clock });
    expect(keys(await list(trimmed, "filter[report_type]=cdn_logs"))).toEqual(["cdn_logs_20240608"]);
  });

  it("refuses to switch off image_analytics or an unknown type, naming the rule", () => {
    expect(() => setReportTypes(server.db, { account: "plan-paid", disable: ["image_analytics"] })).toThrow(
      /image_analytics is part of every paid plan/,
    );
    expect(() => setReportTypes(server.db, { account: "plan-paid", disable: ["bogus"] })).toThrow(
      /report type: must be one of cdn_logs, credit_analytics_daily/,
    );
    expect(() => setReportTypes(server.db, { account: "nobody", disable: ["cdn_logs"] })).toThrow(/account "nobody" does not exist/);
  });
});

describe("the scheduler", () => {
  /**
   * Starts the server on `dbPath` with a log of its own and resolves, once the startup run has
   * ended, with the number of reports it generated (its "daily reports up to date" line).
   */
  async function startAndAwaitStartupRun(dbPath: string): Promise<number> {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...chunk.toString().split("\n").filter(Boolean));
        done();
      },
    });
    server = await startTestServer({ dbPath, now: () => clock, logger: { level: "info", stream } });
    // Generation runs in a child process: the server answers before it is done.
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(25)) {
      const entries = lines.map((line) => JSON.parse(line) as { msg?: string; reports?: number });
      const run = entries.find((entry) => entry.msg === "daily reports up to date");
      if (run) return run.reports!;
      if (entries.some((entry) => entry.msg?.startsWith("daily report generation failed")))
        throw new Error(`the startup run failed; the log:\n${lines.join("\n")}`);
    }
    throw new Error(`the startup run did not end within 20 s; the log:\n${lines.join("\n")}`);
  }

  it("generates yesterday's reports at startup for accounts that existed by then, once", { timeout: 60_000 }, async () => {
    // Accounts get the real clock as creation time; a server clock two days ahead makes them
    // older than "yesterday".
    const { dbPath } = server;
    const key = server.accountKey(["Analytics"], "scheduled");
    await server.close({ keepData: true });
    clock = Date.now() + 2 * DAY;
    const yesterday = new Date(clock - DAY).toISOString().slice(0, 10).replaceAll("-", "");
    expect(await startAndAwaitStartupRun(dbPath)).toBeGreaterThanOrEqual(REPORT_TYPES.length);
    const first = keys(await list(key, "page[size]=100")).sort();
    expect(first).toEqual(REPORT_TYPES.map((t) => `${t}_${yesterday}`).sort());

    // A restart runs again, and finds nothing left to generate.
    await server.close({ keepData: true });
    expect(await startAndAwaitStartupRun(dbPath)).toBe(0);
    expect(keys(await list(key, "page[size]=100")).sort()).toEqual(first);
  });
});

describe("the midnight timer", () => {
  it("generates the day that just ended when 00:00 UTC comes", { timeout: 60_000 }, async () => {
    // The clock stands two seconds before midnight (after the accounts' real creation time) until
    // the account exists, then runs at real speed.
    const beforeMidnight = Date.parse("2030-01-01T23:59:58.000Z");
    let startedAt: number | undefined;
    const midnight = await startTestServer({
      now: () => (startedAt === undefined ? beforeMidnight : beforeMidnight + Date.now() - startedAt),
    });
    try {
      const key = midnight.accountKey(["Analytics"], "midnight");
      const cdnLogs = async () => keys(await apiRequest(`${midnight.url}/api/v1/reports?filter[report_type]=cdn_logs`, { key }));
      expect(await cdnLogs()).not.toContain("cdn_logs_20300101"); // the day is not over yet
      startedAt = Date.now();
      const deadline = Date.now() + 30_000; // generous: a loaded CI machine delays the timers
      while (!(await cdnLogs()).includes("cdn_logs_20300101") && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await cdnLogs()).toContain("cdn_logs_20300101");
    } finally {
      await midnight.close();
    }
  });
});

describe("the list", () => {
  let key: string;
  beforeAll(async () => {
    clock = Date.parse("2024-06-10T08:00:00Z");
    key = accountWithKey("lister", "enterprise");
    const admin = createKey(server.db, { account: "lister", permissions: ["Sources"] }).key;
    const created = await apiRequest(`${server.url}/api/v1/sources`, {
      method: "POST",
      key: admin,
      body: { data: { type: "sources", attributes: { name: "seeded", deployment: minimalDeployment("webproxy") } } },
    });
    expect(created.status).toBe(201);
    seedUsage(server.db, { days: 2, account: "lister", requestsPerDay: 50, now: () => clock });
    for (const date of ["2024-06-08", "2024-06-09"])
      generateReports(server.db, { date, account: "lister", dataDir: server.app.appOptions.dataDir, now: () => clock });
    // One report left incomplete, as after an interrupted generation.
    server.db
      .prepare(
        "UPDATE reports SET completed = 0 WHERE report_key = 'mild_errors_20240608' AND account_id = (SELECT id FROM accounts WHERE name = 'lister')",
      )
      .run();
  });

  it("pages with the spec's pagination object, newest first by default", async () => {
    const page = await list(key, "page[size]=5&page[number]=2");
    expect(page.status).toBe(200);
    expect(page.body.meta.pagination).toEqual({
      currentPage: 2,
      hasNextPage: false,
      hasPreviousPage: true,
      nextPage: 2,
      pageSize: 5,
      previousPage: 1,
      totalPages: 3,
      totalRecords: 12,
    });
    expect(page.body.data).toHaveLength(2);
    const all = await list(key);
    expect(all.body.meta.pagination.pageSize).toBe(20);
    expect(all.body.data.map((r: any) => r.attributes.period_end)).toEqual(
      [...all.body.data.map((r: any) => r.attributes.period_end)].sort((a, b) => b - a),
    );
  });

  it("filters by report_type and completed, with or: alternatives", async () => {
    expect(keys(await list(key, "filter[report_type]=cdn_logs")).sort()).toEqual(["cdn_logs_20240608", "cdn_logs_20240609"]);
    expect(keys(await list(key, "filter[completed]=false"))).toEqual(["mild_errors_20240608"]);
    expect((await list(key, "filter[completed]=true")).body.meta.pagination.totalRecords).toBe(11);
    expect(keys(await list(key, "filter[report_type]=mild_errors&filter[completed]=true"))).toEqual(["mild_errors_20240609"]);
    expect(keys(await list(key, "filter[or:report_type]=cdn_logs&filter[or:completed]=false&sort=report_key"))).toEqual([
      "cdn_logs_20240608",
      "cdn_logs_20240609",
      "mild_errors_20240608",
    ]);
    expect((await list(key, "filter[unknown]=x")).body.meta.pagination.totalRecords).toBe(12);
  });

  it("sorts by each sortable field, ascending or descending, in order", async () => {
    const byKey = keys(await list(key, "sort=report_key"));
    expect(byKey).toEqual([...byKey].sort());
    expect(keys(await list(key, "sort=-report_key"))).toEqual([...byKey].reverse());
    const mixed = (await list(key, "sort=-period_start,report_type")).body.data.map((r: any) => [
      r.attributes.period_start,
      r.attributes.report_type,
    ]);
    const expected = [...mixed].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : 1));
    expect(mixed).toEqual(expected);
    const types = (await list(key, "sort=report_type,period_end")).body.data.map((r: any) => r.attributes.report_type);
    expect(types).toEqual([...types].sort());
  });

  it("returns only the requested fields, in lists and single reports", async () => {
    const page = await list(key, "fields[reports]=report_key,completed&page[size]=1");
    expect(Object.keys(page.body.data[0].attributes).sort()).toEqual(["completed", "report_key"]);
    expect(page.body.data[0].relationships).toBeUndefined();
    const id = page.body.data[0].id;
    const single = await apiRequest(`${server.url}/api/v1/reports/${id}?fields[reports]=files,account`, { key });
    expect(Object.keys(single.body.data.attributes)).toEqual(["files"]);
    expect(single.body.data.relationships.account.data.type).toBe("accounts");
    const whole = await apiRequest(`${server.url}/api/v1/reports/${id}`, { key });
    expect(Object.keys(whole.body.data.attributes).sort()).toEqual([
      "completed",
      "files",
      "period_end",
      "period_start",
      "report_key",
      "report_type",
    ]);
  });

  it.each([
    ["sort=name", "sort", /"name" is not sortable/],
    ["sort=deployment.type", "sort", /nested fields/],
    ["page[size]=0", "page[size]", /from 1 to 100/],
    ["page[number]=-1", "page[number]", /zero-indexed/],
    ["page[number]=99999999999999999999", "page[number]", /from 0 to 1000000/],
    ["filter[report_type]=weekly", "filter[report_type]", /must be one of cdn_logs/],
    ["filter[completed]=yes", "filter[completed]", /true or false/],
  ])("answers 400 for %s, naming the parameter", async (query, parameter, detail) => {
    const response = await list(key, query);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source).toEqual({ parameter });
    expect(response.body.errors[0].detail).toMatch(detail);
  });

  it("shows an account only its own reports", async () => {
    const other = accountWithKey("lister-neighbour", "enterprise");
    expect((await list(other)).body.data).toEqual([]);
    const mine = (await list(key, "page[size]=1")).body.data[0].id;
    expect((await apiRequest(`${server.url}/api/v1/reports/${mine}`, { key: other })).status).toBe(404);
  });
});
