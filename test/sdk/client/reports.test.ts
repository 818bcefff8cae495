// Reports: listing, gzipped CSV download, split files joined, credit rows typed.
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, CREDIT_ANALYTICS_COLUMNS, ReportFormatError, type Report } from "@asset-delivery/sdk";
import { page, reportResource, single } from "../../support/api-documents";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server holding report files at /files/<name>, gzipped unless the name ends in .csv. */
async function fileServer(files: Record<string, string>) {
  const server = await startTestServer((req, res) => {
    if (req.path === "/api/v1/reports") return sendJson(res, 200, page([reportResource([])], 0, 20));
    if (req.path.startsWith("/api/v1/reports/")) return sendJson(res, 200, single(reportResource([])));
    const content = files[req.path.replace("/files/", "")];
    if (content === undefined) return res.writeHead(404).end();
    const gz = !req.path.endsWith(".csv");
    res.writeHead(200, { "content-type": gz ? "application/gzip" : "text/csv" }).end(gz ? gzipSync(content) : content);
  });
  servers.push(server);
  return server;
}

const reportOf = (server: TestServer, names: string[], type: Report["attributes"]["report_type"] = "credit_analytics_daily") =>
  reportResource(
    names.map((n) => `${server.url}/files/${n}`),
    type,
  );

const HEADER = CREDIT_ANALYTICS_COLUMNS.join(",");
const creditLine = (id: string, name: string, total: string) =>
  ["2026-01-01", id, name, total, ...Array(CREDIT_ANALYTICS_COLUMNS.length - 4).fill("0.5")].join(",");

describe("reports.list and get", () => {
  it("lists with report filters and sorts", async () => {
    const server = await fileServer({});
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    const result = await client.reports.list({ filter: { report_type: "credit_analytics_mtd", completed: true }, sort: ["-period_end"] });
    expect(result.data[0]?.attributes.report_type).toBe("credit_analytics_daily");
    expect(Object.fromEntries(server.requests[0]!.query)).toEqual({
      "filter[report_type]": "credit_analytics_mtd",
      "filter[completed]": "true",
      sort: "-period_end",
    });
    expect((await client.reports.get("rep1")).type).toBe("reports");
  });
});

describe("reports.downloadFile", () => {
  it("downloads and gunzips a file with the API key on the API's origin", async () => {
    const server = await fileServer({ "a.csv.gz": "x,y\n1,2\n" });
    const client = createClient({ baseUrl: server.url, apiKey: "key123" });
    const bytes = await client.reports.downloadFile(`${server.url}/files/a.csv.gz`);
    expect(bytes.toString()).toBe("x,y\n1,2\n");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer key123");
  });

  it("does not send the API key to another origin", async () => {
    const api = await fileServer({});
    const files = await fileServer({ "a.csv.gz": "x\n1\n" });
    const client = createClient({ baseUrl: api.url, apiKey: "key123" });
    await client.reports.downloadFile(`${files.url}/files/a.csv.gz?signature=abc`);
    expect(files.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("names the file when it is not valid gzip", async () => {
    const server = await startTestServer((_, res) => res.writeHead(200).end(Buffer.from([0x1f, 0x8b, 1, 2, 3])));
    servers.push(server);
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    await expect(client.reports.downloadFile(`${server.url}/files/broken.csv.gz`)).rejects.toThrow(
      /^report file \/files\/broken.csv.gz: is not valid gzip/,
    );
  });

  it("refuses a gzip bomb once 64 MB are decompressed, naming the file and the limit", async () => {
    // 200 KB on the wire, 200 MB of CSV once decompressed.
    const bomb = gzipSync(Buffer.concat([Buffer.from("x\n"), Buffer.alloc(200 * 1024 * 1024, "1\n")]));
    expect(bomb.length).toBeLessThan(300 * 1024);
    const server = await startTestServer((_, res) => res.writeHead(200, { "content-type": "application/gzip" }).end(bomb));
    servers.push(server);
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    const error = await client.reports.downloadFile(`${server.url}/files/bomb.csv.gz`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportFormatError);
    expect((error as Error).message).toBe(
      "report file /files/bomb.csv.gz: is larger than 64 MB decompressed; the API limits report files to 64 MB",
    );
  });
});

describe("reports.rows", () => {
  it("joins split files, each with its header, with RFC 4180 quoting", async () => {
    const server = await fileServer({
      "part1.csv.gz": 'source_id,source_name\r\ns1,"Photos, main"\r\ns2,"Say ""hi"""\r\n',
      "part2.csv.gz": 'source_id,source_name\ns3,"two\nlines"\n',
    });
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    const rows = await client.reports.rows(reportOf(server, ["part1.csv.gz", "part2.csv.gz"]));
    expect(rows).toEqual([
      { source_id: "s1", source_name: "Photos, main" },
      { source_id: "s2", source_name: 'Say "hi"' },
      { source_id: "s3", source_name: "two\nlines" },
    ]);
  });

  it("refuses split files whose headers differ", async () => {
    const server = await fileServer({ "p1.csv.gz": "a,b\n1,2\n", "p2.csv.gz": "a,c\n3,4\n" });
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    const error = await client.reports.rows(reportOf(server, ["p1.csv.gz", "p2.csv.gz"])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportFormatError);
    expect((error as Error).message).toBe("report file /files/p2.csv.gz: header (a,c) differs from the first file's (a,b)");
  });

  it("refuses a file without a header or with a ragged row", async () => {
    const server = await fileServer({ "empty.csv.gz": "", "ragged.csv.gz": "a,b\n1,2,3\n" });
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    await expect(client.reports.rows(reportOf(server, ["empty.csv.gz"]))).rejects.toThrow(
      "report file /files/empty.csv.gz: has no header row",
    );
    await expect(client.reports.rows(reportOf(server, ["ragged.csv.gz"]))).rejects.toThrow(
      /report file \/files\/ragged.csv.gz: is not valid CSV/,
    );
  });

  it("accepts a file that was served already decoded", async () => {
    const server = await fileServer({ "plain.csv": "a\n1\n" });
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    expect(await client.reports.rows(reportOf(server, ["plain.csv"]))).toEqual([{ a: "1" }]);
  });

  it("returns no rows for a report without files", async () => {
    const server = await fileServer({});
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    expect(await client.reports.rows(reportOf(server, []))).toEqual([]);
  });
});

describe("reports.creditRows", () => {
  it("types the credit columns as numbers, keeping a blank source name", async () => {
    const server = await fileServer({
      "c1.csv.gz": `${HEADER}\n${creditLine("s1", "Photos", "12.5")}\n`,
      "c2.csv.gz": `${HEADER}\n${creditLine("s2", "", "3")}\n`,
    });
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    const rows = await client.reports.creditRows(reportOf(server, ["c1.csv.gz", "c2.csv.gz"]));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      timestamp: "2026-01-01",
      source_id: "s1",
      source_name: "Photos",
      total_credits: 12.5,
      storage_credits: 0.5,
    });
    expect(rows[1]).toMatchObject({ source_name: "", total_credits: 3 });
  });

  it("names a missing column and a bad cell", async () => {
    const server = await fileServer({
      "short.csv.gz": "timestamp,source_id,source_name\n2026-01-01,s1,x\n",
      "bad.csv.gz": `${HEADER}\n${creditLine("s1", "x", "lots")}\n`,
    });
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    await expect(client.reports.creditRows(reportOf(server, ["short.csv.gz"]))).rejects.toThrow(
      /lacks the credit columns total_credits, standard_renders_credits/,
    );
    await expect(client.reports.creditRows(reportOf(server, ["bad.csv.gz"]))).rejects.toThrow(
      "report credit_analytics_daily_20260101: row 1: total_credits:",
    );
  });
});
