// `asset-delivery usage` and `asset-delivery reports` against the database a server uses: the
// reports they generate are then listed and downloaded over HTTP. A few runs are child processes,
// as a user runs them (exit codes included); the rest call the same entry point in this process,
// which is much faster than starting Node for each.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { gunzipSync } from "node:zlib";
import { createAccount, createKey, openMigratedDatabase, startServer } from "@asset-delivery/server";
import { main } from "../../cli/src/main";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { utcDay } from "../support/utc-day";

const BIN = path.resolve(__dirname, "..", "..", "cli", "bin", "asset-delivery.js");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-cli-reports-"));
const db = path.join(dir, "cli.db");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `asset-delivery ARGS` as a child process. */
function cliProcess(...args: string[]): CliResult {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", env: { ...process.env, ASSET_DELIVERY_DB: db } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `asset-delivery ARGS --db <db>` through the CLI's main(), its output captured. */
async function cli(...args: string[]): Promise<CliResult> {
  const result = { code: null as number | null, stdout: "", stderr: "" };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back on the same streams below
  const write = { out: process.stdout.write, err: process.stderr.write };
  process.stdout.write = (chunk: string) => ((result.stdout += chunk), true);
  process.stderr.write = (chunk: string) => ((result.stderr += chunk), true);
  try {
    result.code = await main([...args, "--db", db]);
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
  return result;
}

/** Runs the server in this process on the same database file while `use` talks to it. */
async function withServer<T>(use: (url: string) => Promise<T>): Promise<T> {
  const server = await startServer({ dbPath: db, port: 0, rateLimits: "off" });
  try {
    return await use(server.url);
  } finally {
    await server.close();
  }
}

// The CLI seeds usage up to its own yesterday: the same day as this one for the whole file.
let yesterday: string;
let key: string;
let sourceId: string;

beforeAll(async () => {
  ({ yesterday } = await utcDay(60_000));
  const admin = openMigratedDatabase(db);
  createAccount(admin, { name: "acme", plan: "enterprise" });
  key = createKey(admin, { account: "acme", permissions: ["Account Admin"] }).key;
  admin.close();
  sourceId = await withServer(async (url) => {
    const response = await fetch(`${url}/api/v1/sources`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/vnd.api+json" },
      body: JSON.stringify({
        data: {
          type: "sources",
          attributes: { name: "cli", deployment: { type: "webproxy", service_subdomains: [`cli-${process.pid}`] } },
        },
      }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as any).data.id;
  });
}, 180_000);

describe("asset-delivery usage", async () => {
  it("seeds a sample and imports JSON lines, refusing a bad line by number and field", async () => {
    const seeded = await cli("usage", "seed", "--days", "2", "--account", "acme", "--requests-per-day", "30");
    expect(seeded.code).toBe(0);
    expect(seeded.stdout).toMatch(/^Seeded \d+ usage events for 1 Sources, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}/);

    const file = path.join(dir, "usage.jsonl");
    const event = {
      timestamp: `${yesterday}T12:00:00Z`,
      source_id: sourceId,
      path: "/imported.jpg",
      status: 200,
      bytes: 1234,
      cache_hit: false,
      response_ms: 12,
    };
    fs.writeFileSync(file, `${JSON.stringify(event)}\n${JSON.stringify({ ...event, path: "/second.jpg" })}\n`);
    const imported = await cli("usage", "import", file);
    expect(imported).toMatchObject({ code: 0, stdout: "Imported 2 usage events\n" });

    fs.writeFileSync(file, `${JSON.stringify(event)}\n${JSON.stringify({ ...event, bytes: -5 })}\n`);
    const refused = await cli("usage", "import", file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("line 2: bytes: must be the number of bytes delivered, >= 0");
  });

  it("answers a usage error with exit code 2 and the usage", async () => {
    const missing = cliProcess("usage", "seed");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("usage seed needs --days N");
    expect(missing.stderr).toContain("asset-delivery usage import FILE");
  });
});

describe("asset-delivery reports", async () => {
  it("switches report types per account", async () => {
    const trimmed = await cli("reports", "types", "--account", "acme", "--disable", "mild_errors");
    expect(trimmed.stdout).toBe(
      "acme receives: cdn_logs, credit_analytics_daily, credit_analytics_mtd, image_analytics, source_analytics\n",
    );
    const refused = await cli("reports", "types", "--account", "acme", "--enable", "mild_errors", "--disable", "image_analytics");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("image_analytics is part of every paid plan");
  });

  it("generates a day's reports that the server then lists and serves", async () => {
    // Its own usage and report types, whatever ran before.
    const file = path.join(dir, "reported.jsonl");
    const event = { timestamp: `${yesterday}T13:00:00Z`, source_id: sourceId, path: "/reported.jpg", status: 200, bytes: 99 };
    const line = (extra: object) => JSON.stringify({ ...event, cache_hit: true, response_ms: 3, ...extra });
    fs.writeFileSync(file, `${line({})}\n${line({ path: "/reported-too.jpg", status: 404 })}\n`);
    expect(await cli("usage", "import", file)).toMatchObject({ code: 0, stdout: "Imported 2 usage events\n" });
    expect((await cli("reports", "types", "--account", "acme", "--enable", "mild_errors")).stdout).toContain(
      "image_analytics, mild_errors, source_analytics",
    );
    const generated = cliProcess("reports", "generate", "--date", yesterday);
    expect(generated.code).toBe(0);
    const compact = yesterday.replaceAll("-", "");
    for (const type of ["cdn_logs", "credit_analytics_daily", "mild_errors"]) expect(generated.stdout).toContain(`${type}_${compact}`);
    // Again: nothing new, the same reports.
    expect((await cli("reports", "generate", "--date", yesterday, "--account", "acme")).stdout).toBe(generated.stdout);

    await withServer(async (url) => {
      const list = (await (
        await fetch(`${url}/api/v1/reports?filter[report_type]=cdn_logs`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as any;
      expect(list.data).toHaveLength(1);
      const file = await fetch(list.data[0].attributes.files[0], { headers: { authorization: `Bearer ${key}` } });
      const csv = gunzipSync(Buffer.from(await file.arrayBuffer())).toString();
      expect(csv).toContain(`,${sourceId},cli,/reported.jpg,`);
      expect(csv).toContain(`,${sourceId},cli,/reported-too.jpg,/reported-too.jpg,404,`);
    });
  });

  it("refuses bad dates with the rule, and missing arguments with the usage", async () => {
    const future = cliProcess("reports", "generate", "--date", "2999-01-01");
    expect(future.code).toBe(1);
    expect(future.stderr).toContain("date: 2999-01-01 is not over yet");
    const missing = await cli("reports", "generate");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("reports generate needs --date YYYY-MM-DD");
  });
});
