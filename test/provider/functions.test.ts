// The data-source functions against a real server: credentials from the stack config or the
// environment, filters, sorting and paging, report rows, video jobs, and the `...Output` forms.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import { createClient, type AssetDeliveryClient, type DeploymentInput, type Source } from "@asset-delivery/sdk";
import { generateReports, seedUsage } from "@asset-delivery/server";
import { getReport, getReports, getSource, getSourceOutput, getSources, getSourcesOutput, getVideoJob } from "../../provider/src";
import { packageSchema } from "../../provider/src/plugin/schema";
import { startTestServer, TEST_ACCOUNT, type TestServer } from "../support/server";

const NOW = Date.parse("2024-06-10T08:00:00Z");
let server: TestServer;
let client: AssetDeliveryClient;
let images: Server;
const created: Source[] = [];

beforeAll(async () => {
  // The video job's image is served on loopback: allowed only by the development option.
  server = await startTestServer({ now: () => NOW, deployDelayMs: 0, deployLagMs: 0, allowPrivateImageAddresses: true });
  // Pacing off: more creates than the hourly limit, on a server that does not limit.
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  for (let i = 0; i < 105; i++) {
    const deployment: DeploymentInput =
      i % 3 === 0
        ? {
            type: "s3",
            service_subdomains: [`fn-s3-${i}`],
            s3_access_key: "AK",
            s3_bucket: "fn-bucket",
            s3_secret_key: "SK",
            secure_url_enabled: i === 0,
          }
        : { type: "webfolder", service_subdomains: [`fn-web-${i}`], webfolder_base_url: "https://origin.example.com/" };
    created.push(await client.sources.create({ name: `Function source ${String(i).padStart(3, "0")}`, deployment }));
  }
  seedUsage(server.db, { days: 2, account: TEST_ACCOUNT, now: () => NOW });
  for (const date of ["2024-06-08", "2024-06-09"])
    generateReports(server.db, { date, account: TEST_ACCOUNT, dataDir: server.app.appOptions.dataDir, now: () => NOW });
  images = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end("<html>not an image</html>"));
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  // Stubbed, so that afterAll gives back the values they had before (set or not), not none.
  vi.stubEnv("ASSET_DELIVERY_BASE_URL", server.url);
  vi.stubEnv("ASSET_DELIVERY_API_KEY", server.adminKey);
  server.resetRequestCount();
}, 120_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await client.close();
  await server.close();
  images.close();
});

afterEach(() => server.resetRequestCount());

/** An Output's value, outside a deployment. */
const valueOf = <T>(output: pulumi.Output<T>) => new Promise<T>((resolve) => output.apply(resolve));
const isSecret = <T>(output: pulumi.Output<T>) => (output as unknown as { isSecret: Promise<boolean> }).isSecret;

/** A function's result holds what the plugin's schema says of it: no member the schema lacks, every required one. */
function expectSchemaResult(fn: string, result: object) {
  const schema = packageSchema("0.0.0") as { functions: Record<string, { outputs: { properties: object; required: string[] } }> };
  const { properties, required } = schema.functions[`assetdelivery:index:${fn}`]!.outputs;
  expect(Object.keys(properties)).toEqual(expect.arrayContaining(Object.keys(result)));
  expect(Object.keys(result)).toEqual(expect.arrayContaining(required));
}

describe("getSource", () => {
  it("reads one Source by id, in the Source resource's camelCase shape", async () => {
    const source = await getSource({ id: created[1]!.id });
    expect(source).toMatchObject({
      id: created[1]!.id,
      name: "Function source 001",
      enabled: true,
      deploymentStatus: "deployed",
      deployment: { type: "webfolder", serviceSubdomains: ["fn-web-1"], robotsTxt: "origin" },
      passwordSet: false,
    });
    expect(server.requestCount()).toBe(1);
  });

  it("finds a Source by one of its subdomains", async () => {
    expect((await getSource({ subdomain: "fn-s3-3" })).id).toBe(created[3]!.id);
    await expect(getSource({ subdomain: "nobody-here" })).rejects.toThrow(
      'getSource: no Source of this account serves the subdomain "nobody-here"',
    );
    await expect(getSource({})).rejects.toThrow("getSource: pass exactly one of id and subdomain");
  });

  it("is secret in its Output form when the Source has a signing token", async () => {
    const signed = getSourceOutput({ id: created[0]!.id });
    expect((await valueOf(signed)).secureUrlToken).toMatch(/\S/);
    expect(await isSecret(signed)).toBe(true);
    expect(await isSecret(getSourceOutput({ id: pulumi.output(created[1]!.id) }))).toBe(false);
  });

  it("prefers the stack's config to the environment", async () => {
    pulumi.runtime.setConfig("assetdelivery:apiKey", "not-a-valid-key");
    try {
      await expect(getSource({ id: created[1]!.id })).rejects.toThrow(/401/);
    } finally {
      pulumi.runtime.setConfig("assetdelivery:apiKey", "");
    }
  });
});

describe("getSources", () => {
  it("pages through every match, 100 a request", async () => {
    const { sources } = await getSources({ filter: { name: "Function source" }, sort: ["name"] });
    expect(sources.map((s) => s.id)).toEqual(created.map((s) => s.id));
    expect(server.requestCount("GET")).toBe(2);
  });

  it("applies filters, or-conditions, sorting and a cap", async () => {
    const { sources } = await getSources({ filter: { "deployment.type": "s3" }, sort: ["-name"], max: 5 });
    expect(sources.map((s) => s.name)).toEqual([
      "Function source 102",
      "Function source 099",
      "Function source 096",
      "Function source 093",
      "Function source 090",
    ]);
    const either = await getSources({ or: { "deployment.service_subdomains": "fn-web-1", name: "source 002" }, sort: ["name"], max: 3 });
    expect(either.sources.map((s) => s.name)).toEqual(["Function source 001", "Function source 002", "Function source 010"]);
  });

  it("rejects a bad query by naming the parameter", async () => {
    await expect(getSources({ sort: ["deployment.type" as never] })).rejects.toThrow(/sort/);
  });

  it("is secret in its Output form when any Source has a signing token", async () => {
    expect(await isSecret(getSourcesOutput({ filter: { "deployment.type": "s3" } }))).toBe(true);
  });
});

describe("getReports and getReport", () => {
  it("lists the reports with their file URLs", async () => {
    const { reports } = await getReports({ filter: { report_type: "credit_analytics_daily" }, sort: ["-period_end"] });
    expect(reports.map((r) => r.reportKey)).toEqual(["credit_analytics_daily_20240609", "credit_analytics_daily_20240608"]);
    expect(reports[0]).toMatchObject({ reportType: "credit_analytics_daily", completed: true, files: [expect.stringMatching(/^http/)] });
  });

  it("parses a credit report's rows on request, with numbers for the credits", async () => {
    const { reports } = await getReports({ filter: { report_type: "credit_analytics_daily" }, sort: ["-period_end"], max: 1 });
    const plain = await getReport({ id: reports[0]!.id });
    expect(plain).not.toHaveProperty("rows");
    expectSchemaResult("getReport", plain);
    const report = await getReport({ id: reports[0]!.id, includeRows: true });
    expectSchemaResult("getReport", report);
    expect(report.rows!.length).toBeGreaterThan(0);
    expect(report.rows![0]).toMatchObject({ timestamp: "2024-06-09", source_id: expect.any(String), total_credits: expect.any(Number) });
  });

  it("gives other reports' rows as text", async () => {
    const { reports } = await getReports({ filter: { report_type: "source_analytics" }, max: 1 });
    const report = await getReport({ id: reports[0]!.id, includeRows: true });
    expect(Object.values(report.rows![0]!).every((cell) => typeof cell === "string")).toBe(true);
  });
});

describe("getVideoJob", () => {
  it("reads a job's status in both vocabularies' terms", async () => {
    const { port } = images.address() as AddressInfo;
    const job = await client.videos.create({ url: `http://127.0.0.1:${port}/page.html`, prompt: "a slow pan", model: "veo2", duration: 2 });
    const read = await getVideoJob({ id: job.id });
    expect(read).toMatchObject({ id: job.id, createdAt: expect.any(Number) });
    expect(["waiting", "ready", "errored"]).toContain(read.phase);
    expect(read).not.toHaveProperty("resultUrl", undefined);
    expectSchemaResult("getVideoJob", read);
  });
});
