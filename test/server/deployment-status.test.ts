// The deployment-status rule is written twice, in SQL (reads and lists) and in TypeScript (the
// answer of a create or an update, and the date of a replaced deployment): both run here on the same
// rows and must agree. Then, over HTTP with the server's clock held still, a create's and a PATCH's
// answers are byte for byte what a GET returns at that instant, through every state of a deployment.
import { SOURCE_TYPES } from "@asset-delivery/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DATE_DEPLOYED_SQL,
  DEPLOYMENT_STATUS_SQL,
  dateDeployedAt,
  deploymentStatusAt,
  type DeploymentTimes,
} from "../../server/src/sources/deployment-status";
import { openMigratedDatabase } from "../../server/src/migrations";
import type { Database } from "../../server/src/store/database";
import { startTestServer, type TestServer } from "../support/server";
import { minimalDeployment, sourceClient, type SourceClient } from "./fixtures";

describe("the rule in SQL and in TypeScript", () => {
  let db: Database;
  beforeAll(() => {
    // The sources table's own column types (their INTEGER affinity makes `/ 1000` an integer division).
    db = openMigratedDatabase(":memory:");
    db.exec("CREATE TEMP TABLE times AS SELECT enabled, deploy_starts_at, deploy_ready_at, previous_deployed_at FROM sources WHERE 0");
  });
  afterAll(() => db.close());

  function inSql(times: DeploymentTimes, now: number): { status: string; date: number | null } {
    db.exec("DELETE FROM times");
    db.prepare("INSERT INTO times VALUES (?, ?, ?, ?)").run(
      times.enabled ? 1 : 0,
      times.deployStartsAt,
      times.deployReadyAt,
      times.previousDeployedAt,
    );
    return db
      .prepare<[{ now: number }], { status: string; date: number | null }>(
        `SELECT ${DEPLOYMENT_STATUS_SQL} AS status, ${DATE_DEPLOYED_SQL} AS date FROM times`,
      )
      .get({ now })!;
  }

  // A deployment starting at 10:00:00.400 and completing 1.5 s later, seen before, at and after each
  // instant; the previous deployment none, long before, or in the very second this one completes.
  const start = Date.UTC(2026, 0, 1, 10) + 400;
  const ready = start + 1500;
  const readySecond = Math.floor(ready / 1000);
  const cases: [DeploymentTimes, number][] = [];
  for (const enabled of [true, false]) {
    for (const previousDeployedAt of [null, readySecond - 3600, readySecond, readySecond + 1]) {
      for (const now of [start - 1, start, start + 1, ready - 1, ready, ready + 1, ready + 3_600_000]) {
        cases.push([{ enabled, deployStartsAt: start, deployReadyAt: ready, previousDeployedAt }, now]);
      }
    }
  }

  it.each(cases)("%o at %d", (times, now) => {
    expect(inSql(times, now)).toEqual({ status: deploymentStatusAt(times, now), date: dateDeployedAt(times, now) });
  });

  it("covers every status and both dates", () => {
    const seen = cases.map(
      ([times, now]) => `${deploymentStatusAt(times, now)} ${dateDeployedAt(times, now) === null ? "undated" : "dated"}`,
    );
    expect(new Set(seen)).toEqual(
      new Set(["deploying undated", "deploying dated", "deployed dated", "disabled undated", "disabled dated"]),
    );
  });
});

describe("a create's and a PATCH's answer is what a GET returns at that instant", () => {
  const LAG_MS = 1000;
  const DELAY_MS = 2000;
  let clock = Date.UTC(2026, 0, 1, 10) + 250;
  let server: TestServer;
  let sources: SourceClient;
  beforeAll(async () => {
    server = await startTestServer({ now: () => clock, deployLagMs: LAG_MS, deployDelayMs: DELAY_MS });
    sources = sourceClient(server, server.adminKey);
  });
  afterAll(() => server.close());

  async function expectSameAsGet(write: Promise<{ status: number; text: string; body: any }>, status: number): Promise<string> {
    const written = await write;
    expect(written.status, written.text).toBe(status);
    const read = await sources.get(written.body.data.id);
    expect(written.text).toBe(read.text);
    return written.body.data.id;
  }

  it.each(SOURCE_TYPES)("creates a %s Source", async (type) => {
    await expectSameAsGet(sources.create({ name: `A ${type}`, deployment: minimalDeployment(type) }), 201);
  });

  it("through every state of its deployments", async () => {
    const deployment = { ...minimalDeployment("s3"), default_params: { w: 100, auto: "format", q: 75 }, secure_url_enabled: true };
    const id = await expectSameAsGet(sources.create({ name: "Photos", deployment }), 201);
    const states: string[] = [];
    const patch = async (attributes: Record<string, unknown>, advanceMs: number) => {
      clock += advanceMs;
      await expectSameAsGet(sources.patch(id, attributes), 200);
      const { attributes: read } = (await sources.get(id)).body.data;
      states.push(`${read.deployment_status} ${read.date_deployed === null ? "undated" : "dated"}`);
    };
    await patch({ name: "Photos, renamed while deploying" }, 100);
    await patch({ deployment: { ...deployment, default_params: { w: 200 } } }, LAG_MS + DELAY_MS);
    await patch({ name: "Photos, renamed during the lag" }, 10);
    await patch({ enabled: false }, LAG_MS + DELAY_MS);
    await patch({ enabled: true }, 5);
    await patch({ deployment: { ...deployment, secure_url_enabled: false } }, LAG_MS + DELAY_MS);
    const withoutSecret = Object.fromEntries(Object.entries(deployment).filter(([name]) => name !== "s3_secret_key"));
    await patch({ deployment: { ...withoutSecret, annotation: "The stored secret kept" } }, LAG_MS + 1);
    await patch({ name: "Photos, renamed while deploying, again" }, LAG_MS + 1);
    await patch({ name: "Photos, deployed" }, DELAY_MS);
    expect(states).toEqual([
      "deploying undated",
      "deployed dated", // the deployment before, during the lag
      "deployed dated",
      "disabled dated",
      "deployed dated",
      "deployed dated",
      "deployed dated", // a new deployment restarts the lag
      "deploying dated", // the lag is over, the deployment is running
      "deployed dated",
    ]);
  });
});
