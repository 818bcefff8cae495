// A team's stacks on one shared PostgreSQL backend (docs/teams.md): the root project's `dev` and
// `prod` stacks with `PULUMI_BACKEND_URL=postgres://…` (the password in `PGPASSWORD`, as a
// pipeline's secret), on a private PostgreSQL cluster started for this file
// (test/support/postgres.ts) and the real server. Each pipeline runs the real CLI in a checkout
// of its own (a copy of the project, its Pulumi.<stack>.yaml as committed), as CI runners do; the
// CLI is run and killed as the interrupted-runs tests do (test/faults/interrupted-runs-suite.ts).
// dev and prod are two accounts of the server, as a team's environments would be.
//
// One file, one cluster, one server, one pair of stacks: each test goes on from the stacks the
// one before left.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, parseDocument } from "yaml";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { SOURCE_RESOURCE_TYPE } from "../../provider/src/dynamic/serialized-provider";
import type { DriftReport } from "../../cli/src/drift";
import { startCountingProxy, type CountingProxy } from "../support/counting-proxy";
import { startPostgres, type PostgresCluster } from "../support/postgres";
import { programStack, type ProgramStack } from "../support/program-stack";
import { pulumiWorkDir, repoRoot } from "../support/pulumi";
import { startTestServer, type TestServer } from "../support/server";
import {
  DYNAMIC_PROVIDER,
  expectNothingLeft,
  killWhen,
  pulumi,
  sourcesInState,
  startPulumi,
  succeeds,
  type KilledStack,
} from "../faults/interrupted-runs-suite";

const STEP_TIMEOUT = 240_000;
const PROJECT = "asset-delivery";
const ROOT_FILES = ["Pulumi.yaml", "index.ts", "tsconfig.json", "Pulumi.dev.yaml", "Pulumi.prod.yaml"];
const BIN = path.join(repoRoot(), "cli", "bin", "asset-delivery.js");
const PROD_S3_SECRET = "prod-s3-secret-key";
/** A secrets provider per stack: each stack its own passphrase. */
const PASSPHRASES = { dev: "passphrase-of-the-dev-pipelines", prod: "passphrase-of-the-prod-pipelines" };
/** What the diy backend says to a command on a stack that another run holds. */
const LOCKED =
  /the stack is currently locked by 1 lock\(s\)\. Either wait for the other process\(es\) to end or delete the lock file with `pulumi cancel`\./;

type Declared = Record<string, { name: string; deployment: Record<string, unknown> } & Record<string, unknown>>;

/** A pipeline: a checkout of the root project with one stack selected, its CLI run as a CI job runs it. */
interface Pipeline extends KilledStack {
  program: ProgramStack;
  /** The stack's declared Sources, as its Pulumi.<stack>.yaml has them now. */
  sources(): Declared;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The stack's configuration file in a checkout: its Sources are edited there, as a pull request would. */
const configFile = (workDir: string, stack: string) => path.join(workDir, `Pulumi.${stack}.yaml`);
const SOURCES_KEY = `${PROJECT}:sources`;

function pipelineOf(program: ProgramStack, name: string): Pipeline {
  const file = configFile(program.workDir, name);
  const sources = () => (parse(fs.readFileSync(file, "utf8")) as { config: Record<string, Declared> }).config[SOURCES_KEY]!;
  return {
    program,
    name,
    workDir: program.workDir,
    env: program.env,
    project: PROJECT,
    sourceType: SOURCE_RESOURCE_TYPE,
    provider: DYNAMIC_PROVIDER,
    sources,
    async declare(declared) {
      const document = parseDocument(fs.readFileSync(file, "utf8"));
      document.setIn(["config", SOURCES_KEY], declared);
      fs.writeFileSync(file, document.toString());
    },
    remove: () => program.remove(),
  };
}

describe("stacks on a shared PostgreSQL backend", () => {
  let postgres: PostgresCluster;
  let server: TestServer;
  let dev: Pipeline;
  let prod: Pipeline;
  let devClient: AssetDeliveryClient;
  let devKey: string;
  let prodKey: string;
  /** dev's (prod's) creates are held after they commit, until released: a create that landed and is not answered yet. */
  let holdDevCreates = false;
  let holdProdCreates = false;
  const held: (() => void)[] = [];
  /** Whose run sent each create held now ("dev", "prod"). */
  const heldFrom: string[] = [];
  const release = () => {
    heldFrom.length = 0;
    for (const resume of held.splice(0)) resume();
  };

  /** The lock files in the backend's table, one per run that holds a stack (keys start with the URL's path, the database's name). */
  const locks = () => postgres.query("SELECT key FROM pulumi_state WHERE key LIKE '%/.pulumi/locks/%' ORDER BY key");
  const rows = () =>
    server.db.prepare(`SELECT id, name, json_extract(deployment, '$.service_subdomains[0]') AS subdomain FROM sources`).all() as {
      id: string;
      name: string;
      subdomain: string;
    }[];
  const writes = () => ({
    POST: server.requestCount("POST", "/api/v1/sources"),
    PATCH: server.requestCount("PATCH", /^\/api\/v1\/sources\//),
  });

  /** One Source on the server per declared one, as declared; the stack's state (read from the backend) holds exactly their ids; a preview changes nothing. */
  async function expectConverged(pipeline: Pipeline): Promise<void> {
    const declared = pipeline.sources();
    const subdomains = new Map(
      Object.values(declared).map((source) => [(source.deployment.serviceSubdomains as string[])[0]!, source.name]),
    );
    const onServer = rows().filter((row) => subdomains.has(row.subdomain));
    expect(onServer.map((row) => [row.subdomain, row.name]).sort()).toEqual([...subdomains].sort());
    expect((await sourcesInState(pipeline)).sort()).toEqual(onServer.map((row) => row.id).sort());
    await succeeds(pipeline, "preview", "--expect-no-changes");
  }

  beforeAll(async () => {
    postgres = await startPostgres();
    server = await startTestServer({
      deployDelayMs: 0,
      configure(app) {
        app.addHook("onSend", async (request, _reply, payload) => {
          const fromDev = request.headers.authorization === `Bearer ${devKey}`;
          const fromProd = request.headers.authorization === `Bearer ${prodKey}`;
          const creates = request.method === "POST" && request.url.startsWith("/api/v1/sources");
          if (creates && ((holdDevCreates && fromDev) || (holdProdCreates && fromProd))) {
            heldFrom.push(fromDev ? "dev" : "prod");
            await new Promise<void>((resolve) => held.push(resolve));
          }
          return payload;
        });
      },
    });
    devKey = server.adminKey;
    devClient = createClient({ baseUrl: server.url, apiKey: devKey });
    // Every pipeline's Pulumi environment: the shared backend, and the password of its role.
    const backend = { PULUMI_BACKEND_URL: postgres.backendUrl, ...postgres.env };
    dev = pipelineOf(
      await programStack(repoRoot(), "dev", { baseUrl: server.url, apiKey: devKey }, ROOT_FILES, {
        ...backend,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASES.dev,
      }),
      "dev",
    );
    prodKey = server.accountKey(["Account Admin"], "prod");
    prod = pipelineOf(
      await programStack(repoRoot(), "prod", { baseUrl: server.url, apiKey: prodKey }, ROOT_FILES, {
        ...backend,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASES.prod,
      }),
      "prod",
    );
    await prod.program.stack.setConfig("sourceSecrets.assets.s3SecretKey", { value: PROD_S3_SECRET, secret: true }, true);
  }, STEP_TIMEOUT);

  afterAll(async () => {
    release();
    await dev?.remove();
    await prod?.remove();
    await devClient?.close();
    await server?.close();
    postgres?.stop();
  }, STEP_TIMEOUT);

  it(
    "dev and prod run up side by side and converge; a second up of dev meanwhile is refused by the lock, sending nothing",
    async () => {
      // The second dev pipeline: another checkout of the same commit, whose API address counts what it would send.
      const proxy: CountingProxy = await startCountingProxy(server.url);
      const secondDir = pulumiWorkDir("second-dev-");
      fs.cpSync(dev.workDir, secondDir, { recursive: true });
      const second: Pipeline = { ...dev, workDir: secondDir };
      try {
        await succeeds(second, "config", "set", "assetdelivery:baseUrl", proxy.url);
        server.resetRequestCount();
        holdDevCreates = true;
        holdProdCreates = true;
        const devRun = startPulumi(dev, ["up", "--yes", "--skip-preview"]);
        const prodRun = startPulumi(prod, ["up", "--yes", "--skip-preview"]);
        // A create of each has landed, unanswered: both ups are running at once, each holding its stack.
        await until(() => heldFrom.includes("dev") && heldFrom.includes("prod"), "a create of dev's run and one of prod's, at once");
        const database = new URL(postgres.backendUrl).pathname.slice(1);
        for (const stack of ["dev", "prod"])
          expect(
            locks().filter((key) => key.includes(`/${stack}/`)),
            `${stack}'s lock, while both runs are under way`,
          ).toEqual([
            expect.stringMatching(new RegExp(`^${database}/\\.pulumi/locks/organization/${PROJECT}/${stack}/[0-9a-f-]+\\.json$`)),
          ]);
        const refused = await pulumi(second, "up", "--yes", "--skip-preview");
        holdDevCreates = false;
        holdProdCreates = false;
        release();
        expect(refused.code, refused.output).not.toBe(0);
        expect(refused.output).toMatch(LOCKED);
        expect(refused.output, "the backend's password").not.toContain(postgres.env.PGPASSWORD);
        expect(proxy.requestCount(), "requests from the refused pipeline").toBe(0);

        const [devDone, prodDone] = await Promise.all([devRun.done, prodRun.done]);
        expect(devDone.code, devDone.output).toBe(0);
        expect(prodDone.code, prodDone.output).toBe(0);
        expect(writes()).toEqual({ POST: 4, PATCH: 0 });
        expect(locks(), "the locks of runs that ended").toEqual([]);
        await expectConverged(dev);
        await expectConverged(prod);
        // The backend holds each stack's secrets encrypted by that stack's passphrase: dev's does not open prod's.
        const state = postgres.query("SELECT data::text FROM pulumi_state").join("\n");
        for (const secret of [PROD_S3_SECRET, prodKey, devKey]) expect(state).not.toContain(secret);
        const withDevPassphrase = await pulumi(
          { ...prod, env: { ...prod.env, PULUMI_CONFIG_PASSPHRASE: PASSPHRASES.dev } },
          "stack",
          "export",
          "--show-secrets",
        );
        expect(withDevPassphrase.code).not.toBe(0);
        expect(withDevPassphrase.output).toMatch(/incorrect passphrase/);
      } finally {
        holdDevCreates = false;
        holdProdCreates = false;
        release();
        await proxy.close();
        fs.rmSync(secondDir, { recursive: true, force: true });
      }
    },
    STEP_TIMEOUT,
  );

  it(
    "a change to dev is one PATCH; then preview --expect-no-changes, and refresh --preview-only finds nothing to change",
    async () => {
      const sources = dev.sources();
      await dev.declare({ ...sources, photos: { ...sources.photos!, name: "Photos (dev, renamed)" } });
      server.resetRequestCount();
      await succeeds(dev, "up", "--yes", "--skip-preview");
      expect(writes()).toEqual({ POST: 0, PATCH: 1 });
      await expectConverged(dev);
      const refresh = await succeeds(dev, "refresh", "--preview-only", "--diff");
      expect(refresh).toMatch(/\b3 unchanged\b/); // the stack and its two Sources
      expect(writes()).toEqual({ POST: 0, PATCH: 1 });
    },
    STEP_TIMEOUT,
  );

  /** `asset-delivery` as a pipeline runs it: the checkout's folder, its Pulumi environment (backend and password), nothing else of ours. */
  async function assetDelivery(
    pipeline: Pipeline,
    args: string[],
    env: Record<string, string> = {},
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const { ASSET_DELIVERY_BASE_URL: _url, ASSET_DELIVERY_API_KEY: _key, ...inherited } = process.env;
    return new Promise((resolve) => {
      // Asynchronous on purpose: the server answers from this process.
      execFile(
        process.execPath,
        [BIN, ...args],
        { env: { ...inherited, ...pipeline.env, ...env }, cwd: pipeline.workDir },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
      );
    });
  }

  it(
    "asset-delivery drift reads dev from the backend as a role that may only SELECT, and reports a change made by hand, as refresh --preview-only shows it",
    async () => {
      // The review's own role, as examples/drift-review/ sets it up: the URL names it, PGPASSWORD is its secret.
      const readerPassword = randomBytes(16).toString("hex");
      postgres.query(`CREATE ROLE drift_reader LOGIN PASSWORD '${readerPassword}'`);
      postgres.query("GRANT SELECT ON pulumi_state TO drift_reader");
      const reader = { PULUMI_BACKEND_URL: postgres.backendUrl.replace(/\/\/[^@/]+@/, "//drift_reader@"), PGPASSWORD: readerPassword };
      const photos = dev.sources().photos!;
      const id = rows().find((row) => row.subdomain === (photos.deployment.serviceSubdomains as string[])[0])!.id;
      const live = await devClient.sources.get(id);
      await devClient.sources.update(id, { deployment: { ...live.attributes.deployment, cache_ttl_value: 3600 } });
      server.resetRequestCount();
      const drift = await assetDelivery(dev, ["drift", "--stack", "dev", "--format", "json"], reader);
      expect(drift.stderr).toBe("");
      expect(drift.code).toBe(2);
      const report = JSON.parse(drift.stdout) as DriftReport;
      expect(report.drifted.map(({ name, id: driftedId, fields }) => ({ name, id: driftedId, fields }))).toEqual([
        { name: "photos", id, fields: [{ field: "deployment.cacheTtlValue", declared: 1800, live: 3600 }] },
      ]);
      const refresh = await succeeds(dev, "refresh", "--preview-only", "--diff");
      expect(refresh).toMatch(/~ *cacheTtlValue *: *1800 => 3600/);
      expect(writes(), "the review and the refresh preview write nothing").toEqual({ POST: 0, PATCH: 0 });
    },
    STEP_TIMEOUT,
  );

  it(
    "asset-delivery import declares a Source made by hand in dev's Pulumi.dev.yaml, from the stack in the backend; up adopts it without a write",
    async () => {
      const handMade = await devClient.sources.create({
        name: "Hand made",
        deployment: { type: "webproxy", service_subdomains: ["dev-hand-made"] },
      });
      const imported = await assetDelivery(dev, ["import", "--stack", "dev"]);
      expect(imported.code, imported.stderr).toBe(0);
      const declared = Object.values(dev.sources()).filter((source) => source.adoptSourceId !== undefined);
      expect(declared).toEqual([expect.objectContaining({ name: "Hand made", adoptSourceId: handMade.id })]);
      server.resetRequestCount();
      await succeeds(dev, "up", "--yes", "--skip-preview");
      expect(writes()).toEqual({ POST: 0, PATCH: 0 });
      expect(await sourcesInState(dev)).toContain(handMade.id);
    },
    STEP_TIMEOUT,
  );

  it(
    "dev's pipeline killed while creating leaves its lock; pulumi cancel, then up, converge with no duplicate Source",
    async () => {
      const batch = Object.fromEntries(
        [0, 1, 2].map((i) => [`team-${i}`, { name: `Team ${i}`, deployment: { type: "webproxy", serviceSubdomains: [`dev-team-${i}`] } }]),
      );
      await dev.declare({ ...dev.sources(), ...batch });
      holdDevCreates = true;
      const killed = await killWhen(dev, ["up", "--yes", "--skip-preview"], () => held.length >= 1).finally(() => {
        holdDevCreates = false;
        release();
      });
      expectNothingLeft(killed);
      // The create that landed unanswered is on the server, under no stack.
      const landed = rows().filter((row) => row.subdomain.startsWith("dev-team-"));
      expect(landed).toHaveLength(1);
      expect(await sourcesInState(dev)).not.toContain(landed[0]!.id);

      expect(locks(), "the killed run's lock").toHaveLength(1);
      const refused = await pulumi(dev, "up", "--yes", "--skip-preview");
      expect(refused.code).not.toBe(0);
      expect(refused.output).toMatch(LOCKED);

      await succeeds(dev, "cancel", "--yes");
      expect(locks()).toEqual([]);
      server.resetRequestCount();
      await succeeds(dev, "up", "--yes", "--skip-preview");
      await expectConverged(dev);
      // The landed create was taken over by its mark, not made again.
      expect(await sourcesInState(dev)).toContain(landed[0]!.id);
    },
    STEP_TIMEOUT,
  );
});
