// The client against the project's own server (server/): the Source lifecycle, paging, reports
// with split gzipped files, the spec's rate limits at full speed, creates under injected faults,
// and waiting for a deployment on a server whose clock is skewed from the client's.
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { afterEach, describe, expect, it } from "vitest";
import {
  createClient,
  DeploymentWatch,
  type AssetDeliveryClient,
  type DeploymentState,
  type Source,
  type SourceCreateAttributes,
} from "@asset-delivery/sdk";
import { generateReports, seedUsage } from "@asset-delivery/server";
import { FakeClock } from "../../support/fake-clock";
import { utcDay } from "../../support/utc-day";
import { startTestServer as startApiServer, type TestServer as ApiServer } from "../../support/server";

let server: ApiServer | undefined;
let client: AssetDeliveryClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

let labels = 0;
const label = () => `sdk-${process.pid}-${++labels}`;
const webfolder = (name: string, subdomain = label()): SourceCreateAttributes => ({
  name,
  deployment: { type: "webfolder", service_subdomains: [subdomain], webfolder_base_url: "https://origin.example.com/images/" },
});

describe("against the project's server", () => {
  it("creates, waits for, updates, finds and lists Sources", async () => {
    server = await startApiServer({ deployDelayMs: 100 });
    client = createClient({ baseUrl: server.url, apiKey: server.adminKey });
    const subdomain = label();
    const created = await client.sources.create({
      name: "Photos",
      deployment: {
        type: "webfolder",
        service_subdomains: [subdomain],
        webfolder_base_url: "https://origin.example.com/",
        password: "pw",
        cache_ttl_error: 60,
      },
    });
    expect(created.attributes).toMatchObject({ name: "Photos", enabled: true, deployment_status: "deploying" });
    expect(created.attributes.deployment).toMatchObject({ type: "webfolder", cache_ttl_error: 60, password_set: true });
    expect(created.attributes.deployment).not.toHaveProperty("password");

    const deployed = await client.sources.waitForDeployment(created.id, { intervalMs: 50, timeoutMs: 10_000 });
    expect(deployed.attributes.deployment_status).toBe("deployed");

    const renamed = await client.sources.update(created.id, { name: "Renamed" });
    expect(renamed.attributes.name).toBe("Renamed");
    expect(renamed.attributes.deployment.type === "webfolder" && renamed.attributes.deployment.password_set).toBe(true);

    expect((await client.sources.findBySubdomain(subdomain.toUpperCase()))?.id).toBe(created.id);
    expect(await client.sources.findBySubdomain(`${subdomain}x`)).toBeUndefined();
    const partial = await client.sources.get(created.id, { fields: ["name", "deployment.cache_ttl_error"] });
    expect(partial.attributes).toEqual({ name: "Renamed", deployment: { cache_ttl_error: 60 } });

    for (let i = 0; i < 4; i++) await client.sources.create(webfolder(`More ${i}`));
    const names: string[] = [];
    for await (const source of client.sources.iterate({ sort: ["name"], page: { size: 2 } })) names.push(source.attributes.name);
    expect(names).toEqual(["More 0", "More 1", "More 2", "More 3", "Renamed"]);
    expect(await client.sources.all({ filter: { name: "More" } }, { max: 3 })).toHaveLength(3);
  });

  it("reads the rows of a report split into several gzipped files", async () => {
    server = await startApiServer();
    client = createClient({ baseUrl: server.url, apiKey: server.adminKey });
    const sources = await Promise.all(["Photos", "Archive", "Shop", "Blog"].map((name) => client!.sources.create(webfolder(name))));
    // The server's usage and the report's date from one reading of the clock; nothing else reads one.
    const { now, yesterday } = await utcDay(0);
    seedUsage(server.db, { days: 1, requestsPerDay: 50, now: () => now });
    // The smallest file size limit that holds the header and one row, so the report is split.
    for (let fileSizeLimit = 200; ; fileSizeLimit += 10) {
      try {
        generateReports(server.db, { date: yesterday, dataDir: path.dirname(server.dbPath), fileSizeLimit });
        break;
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
      }
    }

    const [report] = await client.reports.all({ filter: { report_type: "credit_analytics_daily" } }, { max: 1 });
    expect(report).toBeDefined();
    expect(report!.attributes.files.length).toBeGreaterThan(1);
    const rows = await client.reports.creditRows(report!);
    expect(rows.map((r) => r.source_id).sort()).toEqual(sources.map((s) => s.id).sort());
    for (const row of rows) {
      expect(row.timestamp).toBe(yesterday);
      expect(row.total_credits).toBeGreaterThanOrEqual(row.standard_renders_credits);
      expect(row.video_render_cache_credits).toBe(0);
    }
  });

  it("paces itself to the spec's limits: a full-speed caller gets no 429", async () => {
    // Client and server share one virtual clock, so the result does not depend on machine load.
    const clock = new FakeClock(Date.now());
    server = await startApiServer({ rateLimits: "spec", now: () => clock.now() });
    const statuses: (number | undefined)[] = [];
    client = createClient({
      baseUrl: server.url,
      apiKey: server.adminKey,
      retry: false,
      clock,
      onResponse: (i) => statuses.push(i.status),
    });
    for (let i = 0; i < 12; i++) await client.sources.list();
    expect(statuses).toEqual(Array(12).fill(200));
    // A burst of 3 (one token kept spare), then 9 at 250 ms.
    expect(clock.elapsed()).toBe(9 * 250);
  });

  it("without pacing, the same caller meets 429s and the retry layer rides them out", async () => {
    const clock = new FakeClock(Date.now());
    server = await startApiServer({ rateLimits: "spec", now: () => clock.now() });
    const statuses: (number | undefined)[] = [];
    client = createClient({
      baseUrl: server.url,
      apiKey: server.adminKey,
      pacing: false,
      clock,
      onResponse: (i) => statuses.push(i.status),
    });
    const pages = await Promise.all(Array.from({ length: 8 }, () => client!.sources.list()));
    expect(pages).toHaveLength(8);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200)).toHaveLength(8);
  });

  it("creates under injected faults (500s, 429s, dropped connections) without a duplicate", async () => {
    // The seeded choices may miss the creates; the first one's answer is dropped after its commit in any case.
    server = await startApiServer({
      faults: { rate: 0.35, seed: 20260101 },
      dropCommittedAnswer: { method: "POST", path: "/api/v1/sources" },
    });
    client = createClient({ baseUrl: server.url, apiKey: server.adminKey, clock: new FakeClock(), pacing: false });
    const names = Array.from({ length: 25 }, (_, i) => `Faulty ${i}`);
    const outcomes = await Promise.allSettled(names.map((name) => client!.sources.create(webfolder(name))));
    const rows = server.db.prepare("SELECT name, count(*) AS n FROM sources GROUP BY name").all() as { name: string; n: number }[];
    expect(rows.filter((r) => r.n > 1)).toEqual([]);
    outcomes.forEach((outcome, i) => {
      if (outcome.status === "fulfilled") expect(rows.find((r) => r.name === names[i])).toBeDefined();
    });
    expect(outcomes.filter((o) => o.status === "fulfilled").length).toBeGreaterThan(names.length / 2);
    expect(Object.values(server.app.injectedFaults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(server.droppedAfterCommit("POST", "/api/v1/sources"), "creates answered by a dropped connection").toBeGreaterThan(0);
  });
});

// Waiting for a deployment against a server whose clock is an hour ahead of the client's, or an
// hour behind it (the server's `now` option), with the real service's deploy lag. The rule this
// replaced compared `date_deployed` with the client's clock taken before the change: ahead, it
// trusted a read of the deployment before the change; behind, it never settled. DeploymentWatch
// judges the server's reads against each other only.
const HOUR_MS = 3_600_000;
const LAG_MS = 400;
const DELAY_MS = 300;

/** The rule this replaced: `deployed`, dated no earlier than the second of the client's clock before the change. */
const clockRule = ({ attributes: a }: DeploymentState, changedAt: number) =>
  a.deployment_status === "deployed" && a.date_deployed !== null && a.date_deployed >= Math.floor(changedAt / 1000);

async function deployedSource(on: AssetDeliveryClient): Promise<Source> {
  const created = await on.sources.create(webfolder("Skewed"));
  return on.sources.waitForDeployment(created.id, { deployedBefore: null, written: created, intervalMs: 50 });
}

const changeTtl = (on: AssetDeliveryClient, source: Source, seconds: number) =>
  on.sources.update(source.id, { deployment: { ...source.attributes.deployment, cache_ttl_error: seconds } });

describe.each([
  { clocks: "the server's clock an hour ahead of the client's", skewMs: HOUR_MS },
  { clocks: "the server's clock an hour behind the client's", skewMs: -HOUR_MS },
])("with $clocks", ({ skewMs }) => {
  it("the clock-based rule is fooled; DeploymentWatch settles on the change's own deployment", async () => {
    server = await startApiServer({ now: () => Date.now() + skewMs, deployLagMs: LAG_MS, deployDelayMs: DELAY_MS });
    const skewed = (client = createClient({ baseUrl: server.url, apiKey: server.adminKey }));
    const before = await deployedSource(skewed);
    const deployedBefore = before.attributes.date_deployed;
    expect(deployedBefore).not.toBeNull();

    const changedAt = Date.now();
    const sentAt = performance.now();
    const reads: DeploymentState[] = [await changeTtl(skewed, before, 60)];
    const watch = new DeploymentWatch(deployedBefore);
    while (!watch.settledBy(reads.at(-1)!)) {
      expect(performance.now() - sentAt, "settles within a few deployments' time").toBeLessThan(10_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
      reads.push(await skewed.sources.get(before.id));
    }
    const settledAfterMs = performance.now() - sentAt;
    const settled = reads.at(-1)!;

    // The change's own deployment: later than the one before, no earlier than the lag and the deployment took.
    expect(settled.attributes.deployment_status).toBe("deployed");
    expect(settled.attributes.date_deployed).toBeGreaterThan(deployedBefore!);
    expect(settledAfterMs).toBeGreaterThanOrEqual(LAG_MS + DELAY_MS - 5);
    // The reads before it: the deployment before the change (during the lag), then deploying.
    expect(reads[0]!.attributes).toMatchObject({ deployment_status: "deployed", date_deployed: deployedBefore });
    expect(reads.some((r) => r.attributes.deployment_status === "deploying")).toBe(true);

    if (skewMs > 0) {
      // Ahead: the first read, still the deployment before the change, passed the old rule.
      expect(clockRule(reads[0]!, changedAt)).toBe(true);
    } else {
      // Behind: no read ever passed it, the change's own deployment included: it would have waited until its timeout.
      expect(reads.filter((r) => clockRule(r, changedAt))).toEqual([]);
    }
  });

  it("waitForDeployment returns the change's deployment, after the server's deploy lag", async () => {
    server = await startApiServer({ now: () => Date.now() + skewMs, deployLagMs: LAG_MS, deployDelayMs: DELAY_MS });
    const skewed = (client = createClient({ baseUrl: server.url, apiKey: server.adminKey }));
    const before = await deployedSource(skewed);
    const sentAt = performance.now();
    const written = await changeTtl(skewed, before, 120);
    const done = await skewed.sources.waitForDeployment(before.id, {
      deployedBefore: before.attributes.date_deployed,
      written,
      intervalMs: 50,
      timeoutMs: 10_000,
    });
    expect(performance.now() - sentAt).toBeGreaterThanOrEqual(LAG_MS + DELAY_MS - 5);
    expect(done.attributes).toMatchObject({ deployment_status: "deployed", deployment: { cache_ttl_error: 120 } });
    expect(done.attributes.date_deployed).toBeGreaterThan(before.attributes.date_deployed!);
  });
});
