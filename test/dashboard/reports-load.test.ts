// The dashboard under load, against a real server: a flood of page loads from one signed-in user
// meets 429 with Retry-After while the API stays as fast for another account (p99 within twice
// its idle p99), since the credits chart is read once per account and set of reports, not per
// load; and a missing or malformed report leaves the page answering 200, naming the report.
import * as fs from "node:fs";
import * as path from "node:path";
import { generateReports, seedUsage } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, PASSWORD } from "../support/dashboard";
import { openPage, signInOverHttp } from "../support/dashboard-http";
import { startTestServer, type TestServer } from "../support/server";
import { minimalDeployment } from "../server/fixtures";
import { createClient } from "@asset-delivery/sdk";
import { spawn } from "node:child_process";

// Loops of GETs with the session's cookie until its standard input closes; prints what it got.
const FLOOD_SCRIPT = `
let flooding = true;
process.stdin.on("end", () => (flooding = false)).resume();
const statuses = [], retryAfters = [];
const tab = async () => {
  while (flooding) {
    const response = await fetch(process.env.FLOOD_URL, { headers: { cookie: process.env.FLOOD_COOKIE } });
    await response.arrayBuffer();
    statuses.push(response.status);
    if (response.status === 429) retryAfters.push(response.headers.get("retry-after") ?? "");
  }
};
Promise.all(Array.from({ length: Number(process.env.FLOOD_TABS) }, tab)).then(() => process.stdout.write(JSON.stringify({ statuses, retryAfters })));
`;

let server: TestServer;
const DAYS = 30;

/** Seeds usage for the account's Sources and generates its reports for each day. */
async function accountWithReports(account: string, email: string): Promise<string[]> {
  await addUser(server.db, email, ["Analytics"], account);
  const client = createClient({ baseUrl: server.url, apiKey: server.accountKey(["Sources"], account), retry: false, pacing: false });
  for (let i = 0; i < 4; i++) await client.sources.create({ name: `${account} ${i}`, deployment: minimalDeployment("webproxy") as never });
  await client.close();
  const seeded = seedUsage(server.db, { account, days: DAYS, requestsPerDay: 200 });
  for (const date of seeded.days) generateReports(server.db, { date, account, dataDir: path.dirname(server.dbPath) });
  return seeded.days;
}

function creditReportFiles(account: string): { reportKey: string; path: string }[] {
  return server.db
    .prepare(
      `SELECT r.report_key AS reportKey, f.path AS path FROM reports r JOIN report_files f ON f.report_id = r.id JOIN accounts a ON a.id = r.account_id
       WHERE a.name = ? AND r.report_type = 'credit_analytics_daily' ORDER BY r.report_key`,
    )
    .all(account) as { reportKey: string; path: string }[];
}

beforeAll(async () => {
  server = await startTestServer();
  await accountWithReports("flooded", "reader@example.com");
  await accountWithReports("damaged", "damaged@example.com");
}, 120_000);
afterAll(() => server?.close());

describe("reports page", () => {
  it("answers 200 with a missing and a malformed report, naming both", async () => {
    const [missing, malformed] = creditReportFiles("damaged");
    fs.rmSync(path.join(path.dirname(server.dbPath), missing!.path));
    fs.writeFileSync(path.join(path.dirname(server.dbPath), malformed!.path), "not a gzip file, nor a CSV\u0000\u0001");
    const session = await signInOverHttp(server.url, "damaged@example.com", PASSWORD);
    const { response, html } = await openPage(server.url, session, "/dashboard/reports");
    expect(response.status).toBe(200);
    expect(html).toContain(`${missing!.reportKey}: a file of it is missing`);
    expect(html).toContain(malformed!.reportKey);
    expect(html).toMatch(new RegExp(`from ${DAYS - 2} credit_analytics_daily reports`));
    expect(html).not.toContain(path.dirname(server.dbPath)); // no server path in the page
  });
});

function p99(durations: number[]): number {
  const sorted = [...durations].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.99) - 1]!;
}

/** Durations of `count` API reads, one after another, with another account's key. */
async function apiLatencies(apiKey: string, count: number): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/v1/sources?page[size]=5`, { headers: { authorization: `Bearer ${apiKey}` } });
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    durations.push(performance.now() - started);
  }
  return durations;
}

describe("a flood of dashboard requests", () => {
  it("meets 429 with Retry-After, while the API's p99 for another account stays within twice its idle p99", async () => {
    const otherKey = server.accountKey(["Sources"], "bystander");
    const session = await signInOverHttp(server.url, "reader@example.com", PASSWORD);
    await apiLatencies(otherKey, 50); // warm up
    // 1,000 reads a phase: the page loads the limits let through (2 a second) may each delay one read,
    // fewer than the 1% that p99 leaves out; the flood beyond them must delay none.
    const idle = p99(await apiLatencies(otherKey, 1000));

    // One signed-in user reloading the Reports page from 2 tabs as fast as the server answers, from
    // another process (so the flood's own client work does not slow this one's measurement).
    const flood = spawn(process.execPath, ["-e", FLOOD_SCRIPT], {
      env: { ...process.env, FLOOD_URL: `${server.url}/dashboard/reports`, FLOOD_COOKIE: session.cookie, FLOOD_TABS: "2" },
      stdio: ["pipe", "pipe", "inherit"],
    });
    let output = "";
    flood.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const ended = new Promise<void>((resolve) => flood.on("close", () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 500)); // the flood under way
    const loaded = p99(await apiLatencies(otherKey, 1000));
    flood.stdin.end(); // stop
    await ended;
    const { statuses, retryAfters } = JSON.parse(output) as { statuses: number[]; retryAfters: string[] };

    const refused = statuses.filter((status) => status === 429).length;
    console.log(
      `dashboard requests ${statuses.length}, 429: ${refused}; API p99 idle ${idle.toFixed(2)} ms, under flood ${loaded.toFixed(2)} ms`,
    );
    expect(refused).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(retryAfters.every((value) => Number(value) >= 1)).toBe(true);
    expect(loaded).toBeLessThanOrEqual(2 * idle);
  }, 120_000);
});
