// The usage ledger's input (usage import: JSON lines), the deterministic sample (usage seed), and
// the calendar arithmetic of report periods and of the daily schedule.
import { importUsage, seedUsage, generateReports } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gunzipSync } from "node:zlib";
import * as fs from "node:fs";
import * as path from "node:path";
import { apiRequest, startTestServer, type TestServer } from "../support/server";
import { minimalDeployment } from "./fixtures";

let server: TestServer;
let sourceId: string;
const clock = Date.parse("2024-04-02T10:00:00Z");

beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
  const created = await apiRequest(`${server.url}/api/v1/sources`, {
    method: "POST",
    key: server.adminKey,
    body: { data: { type: "sources", attributes: { name: "usage", deployment: minimalDeployment("webproxy") } } },
  });
  sourceId = created.body.data.id;
});
afterAll(() => server.close());

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({
    timestamp: "2024-04-01T10:00:00Z",
    source_id: sourceId,
    path: "/x.jpg",
    status: 200,
    bytes: 10,
    cache_hit: false,
    response_ms: 5,
    ...fields,
  });

describe("usage import", () => {
  it("accepts ISO 8601 or Unix-second timestamps and skips blank lines", () => {
    expect(importUsage(server.db, [line({}), "", line({ timestamp: Date.parse("2024-04-01T11:00:00Z") / 1000 })].join("\n"))).toBe(2);
  });

  it.each([
    [{ status: 700 }, "line 1: status: must be an HTTP status code from 100 to 599"],
    [{ bytes: -1 }, "line 1: bytes: must be the number of bytes delivered, >= 0"],
    [{ cache_hit: "yes" }, "line 1: cache_hit: must be true or false"],
    [{ path: "x.jpg" }, "line 1: path: must be the requested path, starting with /"],
    [{ render_class: "fancy" }, "line 1: render_class: must be one of none, standard"],
    [{ timestamp: "yesterday" }, "line 1: timestamp: must be an ISO 8601 date-time"],
    [{ source_id: undefined }, "line 1: source_id: is required"],
    [{ colour: "red" }, "line 1: colour: is not a field of this object"],
  ])("refuses %j, naming the line, the field and the rule", (fields, message) => {
    expect(() => importUsage(server.db, line(fields))).toThrow(message);
  });

  it("refuses events of an unknown Source and imports nothing of a bad file", () => {
    const before = server.db.prepare("SELECT count(*) FROM usage_events").pluck().get();
    expect(() => importUsage(server.db, [line({}), line({ source_id: "A".repeat(24) })].join("\n"))).toThrow(
      /event 2: source_id: no Source has the id "AAAA/,
    );
    expect(() => importUsage(server.db, [line({}), "{not json"].join("\n"))).toThrow(/line 2: /);
    expect(server.db.prepare("SELECT count(*) FROM usage_events").pluck().get()).toBe(before);
  });
});

describe("usage seed", () => {
  it("is deterministic: reseeding replaces its own events with the same ones, and keeps imported usage", () => {
    const events = () =>
      server.db
        .prepare("SELECT day, timestamp_ms, path, status, bytes, cache_hit, referer, user_agent, origin FROM usage_events ORDER BY id")
        .all();
    const first = seedUsage(server.db, { days: 3, requestsPerDay: 200, now: () => clock });
    expect(first.days).toEqual(["2024-03-30", "2024-03-31", "2024-04-01"]);
    const snapshot = events();
    expect(seedUsage(server.db, { days: 3, requestsPerDay: 200, now: () => clock }).events).toBe(first.events);
    const again = events() as any[];
    expect(again.filter((e) => e.origin === "seed").map(({ origin, ...e }) => e)).toEqual(
      (snapshot as any[]).filter((e) => e.origin === "seed").map(({ origin, ...e }) => e),
    );
    expect(again.filter((e) => e.origin === "import")).toHaveLength(2);
  });

  it("looks like traffic: a diurnal curve, a few hot images, some 4xx", () => {
    const day = server.db.prepare("SELECT * FROM usage_events WHERE origin = 'seed' AND day = '2024-03-31'").all() as any[];
    expect(day.length).toBeGreaterThan(150);
    const hour = (e: any) => new Date(e.timestamp_ms).getUTCHours();
    const afternoon = day.filter((e) => hour(e) >= 12 && hour(e) < 17).length;
    const night = day.filter((e) => hour(e) >= 0 && hour(e) < 5).length;
    expect(afternoon).toBeGreaterThan(2 * night);
    const perImage = new Map<string, number>();
    for (const e of day) perImage.set(e.path.split("?")[0], (perImage.get(e.path.split("?")[0]) ?? 0) + 1);
    const top3 = [...perImage.values()]
      .sort((a, b) => b - a)
      .slice(0, 3)
      .reduce((a, b) => a + b, 0);
    expect(top3 / day.length).toBeGreaterThan(0.3);
    const clientErrors = day.filter((e) => e.status >= 400 && e.status < 500).length;
    expect(clientErrors).toBeGreaterThan(0);
    expect(clientErrors / day.length).toBeLessThan(0.15);
  });

  it("gives byte-identical report files for the same ledger", () => {
    const dataDir = server.app.appOptions.dataDir;
    const { reports } = generateReports(server.db, { date: "2024-03-31", account: "test", dataDir, now: () => clock })[0]!;
    const files = (id: string) =>
      server.db.prepare("SELECT path FROM report_files WHERE report_id = ? ORDER BY number").pluck().all(id) as string[];
    const read = () => reports.map((r) => files(r.id).map((f) => fs.readFileSync(path.join(dataDir, f))));
    const first = read();
    server.db.prepare("UPDATE reports SET completed = 0").run();
    generateReports(server.db, { date: "2024-03-31", account: "test", dataDir, now: () => clock });
    expect(read()).toEqual(first);
    // The gzip header carries no time or name (RFC 1952 MTIME = 0, no FNAME flag).
    const gzip = first[0]![0]!;
    expect(gzip.readUInt32LE(4)).toBe(0);
    expect(gzip[3]! & 0x08).toBe(0);
    expect(gunzipSync(gzip).toString().startsWith("timestamp,source_id,source_name,")).toBe(true);
  });

  it("refuses a bad number of days and an account without Sources", () => {
    expect(() => seedUsage(server.db, { days: 0, now: () => clock })).toThrow("days: must be an integer from 1 to 366");
    server.accountKey(["Analytics"], "empty");
    expect(() => seedUsage(server.db, { days: 1, account: "empty", now: () => clock })).toThrow(/no Sources to seed/);
  });
});
