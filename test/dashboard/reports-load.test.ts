// The dashboard under load, against a real server: a flood of page loads from one signed-in user
// meets 429 with Retry-After while another account's API reads all answer; and a missing or
// malformed report leaves the page answering 200, naming the report. How fast the API stays under
// the flood (its p99 against its idle p99) is measured by bench/dashboard-flood.ts, side by side.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD } from "../support/dashboard";
import { openPage, signInOverHttp } from "../support/dashboard-http";
import { startTestServer, type TestServer } from "../support/server";
import { accountWithReports, apiReads, floodPage } from "../support/dashboard-flood";

let server: TestServer;
const DAYS = 30;

/** The account's credit_analytics_daily reports and their files, newest first (the page's order). */
function creditReportFiles(account: string): { reportKey: string; path: string }[] {
  return server.db
    .prepare(
      `SELECT r.report_key AS reportKey, f.path AS path FROM reports r JOIN report_files f ON f.report_id = r.id JOIN accounts a ON a.id = r.account_id
       WHERE a.name = ? AND r.report_type = 'credit_analytics_daily' ORDER BY r.period_end DESC, r.report_key`,
    )
    .all(account) as { reportKey: string; path: string }[];
}

/** The reports the page says were left out of the chart, each `KEY: reason`. */
function leftOut(html: string): string[] {
  const alert = /Left out of the chart, as they could not be read:<\/p><ul>([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? "";
  return [...alert.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) => match[1]!.trim());
}

/** The report keys of the page's list. */
function listed(html: string): string[] {
  return [...html.matchAll(/<td>([^<]*credit_analytics_daily[^<]*)<\/td>/g)].map((match) => match[1]!);
}

beforeAll(async () => {
  server = await startTestServer();
  await accountWithReports(server, "flooded", { email: "reader@example.com", password: PASSWORD }, DAYS);
  await accountWithReports(server, "damaged", { email: "damaged@example.com", password: PASSWORD }, DAYS);
}, 120_000);
afterAll(() => server?.close());

describe("reports page", () => {
  it("answers 200 with a missing and a malformed report, naming both", async () => {
    // The two newest: both on the list's first page, which the user sees beside the chart.
    const [missing, malformed] = creditReportFiles("damaged");
    fs.rmSync(path.join(path.dirname(server.dbPath), missing!.path));
    fs.writeFileSync(path.join(path.dirname(server.dbPath), malformed!.path), "not a gzip file, nor a CSV\u0000\u0001");
    const session = await signInOverHttp(server.url, "damaged@example.com", PASSWORD);
    const { response, html } = await openPage(server.url, session, "/dashboard/reports?filter%5Breport_type%5D=credit_analytics_daily");
    expect(response.status).toBe(200);
    expect(listed(html)).toEqual(expect.arrayContaining([missing!.reportKey, malformed!.reportKey]));
    expect(leftOut(html)).toEqual([
      `${missing!.reportKey}: a file of it is missing`,
      // The bytes are no gzip, so they are read as a CSV whose header lacks the columns.
      expect.stringMatching(
        new RegExp(`^${malformed!.reportKey}: report ${malformed!.reportKey}: lacks the credit columns timestamp, source_id,`),
      ),
    ]);
    expect(html).toMatch(new RegExp(`from ${DAYS - 2} credit_analytics_daily reports`));
    expect(html).not.toContain(path.dirname(server.dbPath)); // no server path in the page
  });
});

describe("a flood of dashboard requests", () => {
  it("meets 429 with Retry-After, while every API read of another account answers", async () => {
    const otherKey = server.accountKey(["Sources"], "bystander");
    const session = await signInOverHttp(server.url, "reader@example.com", PASSWORD);
    const flood = floodPage(`${server.url}/dashboard/reports`, session.cookie, 2);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the flood under way
    const reads = await apiReads(server.url, otherKey, 300);
    const { statuses, retryAfters } = await flood.stop();

    const refused = statuses.filter((status) => status === 429).length;
    expect(refused).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(retryAfters).toHaveLength(refused);
    expect(retryAfters.every((value) => Number(value) >= 1)).toBe(true);
    expect(reads.statuses.every((status) => status === 200)).toBe(true);
  }, 120_000);
});
