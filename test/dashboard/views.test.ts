// The dashboard's Sources and Reports views in a real browser against a real server whose clock
// the test holds: values escaped as text, secrets never rendered, the API's filters and sorts, the
// status going live when a deployment finishes, the pages a user's permissions allow, and the
// "Credits per Source" chart drawn from the credit analytics reports of seeded usage.
import * as path from "node:path";
import { createClient, type Source } from "@asset-delivery/sdk";
import { generateReports, seedUsage } from "@asset-delivery/server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { launchBrowser, type TestBrowser } from "../support/browser.cjs";
import { addUser, signIn } from "../support/dashboard";
import { startTestServer, type TestServer } from "../support/server";
import { minimalDeployment, secretMarker } from "../server/fixtures";

// Long before the real clock: the scheduler generates no report for the accounts the test makes.
const START = Date.parse("2026-03-10T12:00:00Z");
let clock = START;
const DEPLOY_MS = 60_000;
const HOSTILE_NAME = "<img src=x onerror=alert(1)>";

let server: TestServer;
let browser: TestBrowser;
let page: Page;
let dialogs: string[];
const sources: Source[] = [];
const password = secretMarker("password");
const signingKey = "k".repeat(16) + secretMarker("").slice(0, 16);

beforeAll(async () => {
  server = await startTestServer({ now: () => clock, deployLagMs: 0, deployDelayMs: DEPLOY_MS });
  browser = await launchBrowser();
  await addUser(server.db, "admin@example.com", ["Account Admin"]);
  await addUser(server.db, "analyst@example.com", ["Analytics"]);
  const client = createClient({ baseUrl: server.url, apiKey: server.adminKey, retry: false });
  for (const [name, deployment] of [
    [HOSTILE_NAME, minimalDeployment("webproxy")],
    ["catalog images", { ...minimalDeployment("webfolder"), password, username: "origin-user", request_signing_key: signingKey }],
    ["archive", minimalDeployment("s3")],
  ] as const) {
    sources.push(await client.sources.create({ name, deployment } as never));
  }
  clock += DEPLOY_MS; // all three deployed
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

beforeEach(async () => {
  await browser.context.clearCookies();
  page = await browser.context.newPage();
  dialogs = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return () => page.close();
});

const statusCell = (id: string) => page.locator(`tr[data-source-id="${id}"] td[data-status]`);

describe("Sources", () => {
  it("shows a Source named like an HTML tag as text, and runs no script", async () => {
    await signIn(page, server.url, "admin@example.com");
    await page.goto(`${server.url}/dashboard/sources`);
    const link = page.getByRole("link", { name: HOSTILE_NAME, exact: true });
    expect(await link.count()).toBe(1);
    expect(await page.locator("main img").count()).toBe(0);
    await link.click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(HOSTILE_NAME);
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.title()).toBe(`${HOSTILE_NAME} · Asset Delivery dashboard`);
    expect(dialogs).toEqual([]);
  });

  it("shows a Source's deployment with the *_set flags as set or not, and never a secret", async () => {
    await signIn(page, server.url, "admin@example.com");
    const catalog = sources[1]!;
    await page.goto(`${server.url}/dashboard/sources/${catalog.id}`);
    const value = (field: string) =>
      page
        .getByRole("row", { name: field, exact: false })
        .filter({ has: page.getByRole("rowheader", { name: field, exact: true }) })
        .locator("td");
    expect(await value("password_set").textContent()).toBe("set");
    expect(await value("request_signing_key_set").textContent()).toBe("set");
    expect(await value("request_handshake_set").textContent()).toBe("not set");
    expect(await value("username").textContent()).toBe("origin-user");
    const html = await page.content();
    expect(html).not.toContain(password);
    expect(html).not.toContain(signingKey);
  });

  it("filters and sorts with the API's parameters", async () => {
    await signIn(page, server.url, "admin@example.com");
    await page.goto(`${server.url}/dashboard/sources`);
    await page.getByLabel("sort", { exact: true }).selectOption({ label: "name descending" });
    await page.getByRole("button", { name: "Apply" }).click();
    const names = () => page.locator("tr[data-source-id] td:first-child").allTextContents();
    expect(await names()).toEqual(["catalog images", "archive", HOSTILE_NAME]);
    expect(new URL(page.url()).searchParams.get("sort")).toBe("-name");

    await page.getByLabel("deployment.type", { exact: true }).selectOption("s3");
    await page.getByRole("button", { name: "Apply" }).click();
    expect(await names()).toEqual(["archive"]);

    await page.goto(`${server.url}/dashboard/sources?filter[name]=CATALOG`);
    expect(await names()).toEqual(["catalog images"]);
    await page.goto(`${server.url}/dashboard/sources?sort=deployment.type`);
    expect(await page.getByRole("alert").textContent()).toMatch(/sort: "deployment.type": sorting on nested fields is not supported/);
  });

  it("updates the status in the table when a deployment finishes, without a reload", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: server.adminKey, retry: false });
    const fresh = await client.sources.create({ name: "fresh", deployment: minimalDeployment("webproxy") as never });
    sources.push(fresh);
    await signIn(page, server.url, "admin@example.com");
    await page.goto(`${server.url}/dashboard/sources`);
    expect(await statusCell(fresh.id).textContent()).toBe("deploying");
    await page.evaluate("window.marker = 42");

    clock += DEPLOY_MS;
    await expect.poll(() => statusCell(fresh.id).textContent(), { timeout: 15_000 }).toBe("deployed");
    expect(await page.evaluate("window.marker")).toBe(42); // the same document: no reload
  });

  it("keeps Sources from a user without the Sources permission", async () => {
    await signIn(page, server.url, "analyst@example.com");
    expect(new URL(page.url()).pathname).toBe("/dashboard/reports");
    expect(await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link").allTextContents()).toEqual([
      "Reports",
      "Video jobs",
      "API keys",
    ]);
    const response = await page.goto(`${server.url}/dashboard/sources/${sources[0]!.id}`);
    expect(response!.status()).toBe(403);
    expect(await page.getByRole("alert").textContent()).toMatch(/lacks the "Sources" permission/);
    const status = await page.evaluate(async (id) => (await fetch(`/dashboard/sources/status?id=${id}`)).status, sources[0]!.id);
    expect(status).toBe(403);
  });
});

describe("Reports", () => {
  beforeAll(() => {
    const seeded = seedUsage(server.db, { account: "test", days: 5, now: () => clock, requestsPerDay: 50 });
    for (const date of seeded.days)
      generateReports(server.db, { date, account: "test", dataDir: path.dirname(server.dbPath), now: () => clock });
  });

  it("charts the credits per Source of the seeded usage, one series per Source", async () => {
    await signIn(page, server.url, "analyst@example.com");
    await page.goto(`${server.url}/dashboard/reports`);
    const chart = page.getByRole("img", { name: "Credits per Source" });
    expect(await page.getByRole("heading", { name: "Credits per Source" }).count()).toBe(1);
    const series = chart.locator("polyline[data-series]");
    expect((await series.evaluateAll((lines) => lines.map((line) => line.getAttribute("data-source-id")))).sort()).toEqual(
      sources.map((source) => source.id).sort(),
    );
    // Each line has a point per day of the 90, and rises above zero on the seeded days.
    for (const points of await series.evaluateAll((lines) => lines.map((line) => line.getAttribute("points")!))) {
      const ys = points.split(" ").map((point: string) => Number(point.split(",")[1]));
      expect(ys).toHaveLength(90);
      expect(new Set(ys.slice(-5)).size).toBeGreaterThan(1);
      expect(new Set(ys.slice(0, 80)).size).toBe(1); // nothing before the seeded days
    }
    expect(await page.getByRole("list", { name: "Legend" }).textContent()).toContain(HOSTILE_NAME);
    expect(dialogs).toEqual([]);
  });

  it("lists the reports with the API's filters and downloads their files", async () => {
    await signIn(page, server.url, "analyst@example.com");
    await page.goto(`${server.url}/dashboard/reports?filter[report_type]=credit_analytics_daily`);
    const rows = page.getByRole("table", { name: "Reports" }).locator("tbody tr");
    expect(await rows.count()).toBe(5);
    const [download] = await Promise.all([page.waitForEvent("download"), rows.first().getByRole("link").click()]);
    expect(download.suggestedFilename()).toBe("credit_analytics_daily_20260309.csv.gz");
  });
});
