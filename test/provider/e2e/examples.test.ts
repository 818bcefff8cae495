// The example programs and the root project's stacks, run for real: `pulumi up` of each through
// the CLI against a local server, and what each one produced checked on the server. They are only
// transpiled here; test/provider/examples-types.test.ts type-checks them.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { generateReports, seedUsage } from "@asset-delivery/server";
import { repoRoot } from "../../support/pulumi";
import { startTestServer, TEST_ACCOUNT, type TestServer } from "../../support/server";
import { programStack, removeStacksAndServer, type ProgramStack } from "../../support/program-stack";
import { utcDay } from "../../support/utc-day";

const STEP_TIMEOUT = 180_000;
const EXAMPLES = path.join(repoRoot(), "examples");

let server: TestServer;
let client: AssetDeliveryClient;
const stacks: ProgramStack[] = [];

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey });
});

afterAll(() => removeStacksAndServer({ stacks, client, server }), STEP_TIMEOUT);

async function stackOf(dir: string, stackName: string, files?: string[]): Promise<ProgramStack> {
  const stack = await programStack(dir, stackName, { baseUrl: server.url, apiKey: server.adminKey }, files);
  stacks.push(stack);
  return stack;
}

describe("examples", () => {
  it(
    "webfolder-source creates its Source",
    async () => {
      const { stack } = await stackOf(path.join(EXAMPLES, "webfolder-source"), "example");
      const up = await stack.up();
      const source = await client.sources.get(up.outputs.sourceId!.value);
      expect(source.attributes).toMatchObject({
        name: "Photos",
        deployment_status: "deployed",
        deployment: { type: "webfolder", cache_ttl_value: 86_400, default_params: { auto: "format,compress", q: 75 } },
      });
    },
    STEP_TIMEOUT,
  );

  it(
    "s3-source-secrets keeps the secret key and the signing token secret",
    async () => {
      const example = await stackOf(path.join(EXAMPLES, "s3-source-secrets"), "example");
      await example.set({ s3AccessKey: "AKIAEXAMPLE", s3Bucket: "example-bucket" });
      await example.setSecret({ s3SecretKey: "example-secret-key-value" });
      const up = await example.stack.up();
      expect(up.outputs.secureUrlToken).toMatchObject({ secret: true });
      expect(up.outputs.allowsUpload!.value).toBe(false);
      const token = (await client.sources.get(up.outputs.sourceId!.value)).attributes.secure_url_token!;
      const state = example.stateFile();
      expect(state).not.toContain("example-secret-key-value");
      expect(state).not.toContain(token);
    },
    STEP_TIMEOUT,
  );

  it(
    "adopt-existing-source takes over a Source made by hand",
    async () => {
      const existing = await client.sources.create({
        name: "Made by hand",
        deployment: { type: "webproxy", service_subdomains: ["legacy-proxy"] },
      });
      const example = await stackOf(path.join(EXAMPLES, "adopt-existing-source"), "example");
      await example.set({ sourceId: existing.id, subdomain: "legacy-proxy" });
      const up = await example.stack.up();
      expect(up.outputs.sourceId!.value).toBe(existing.id);
      expect((await client.sources.get(existing.id)).attributes).toMatchObject({
        name: "Legacy proxy (managed by Pulumi)",
        deployment: { "robots.txt": "disallow-all", cache_ttl_error: 60 },
      });
    },
    STEP_TIMEOUT,
  );

  it(
    "credit-report reads yesterday's credits per Source",
    async () => {
      // The program takes yesterday from its own clock: the same day as this one for the whole step.
      const { now, yesterday } = await utcDay(60_000);
      seedUsage(server.db, { days: 1, account: TEST_ACCOUNT, now: () => now });
      generateReports(server.db, { date: yesterday, account: TEST_ACCOUNT, dataDir: server.app.appOptions.dataDir });
      const { stack } = await stackOf(path.join(EXAMPLES, "credit-report"), "example");
      const up = await stack.up();
      expect(up.outputs.key!.value).toBe(`credit_analytics_daily_${yesterday.replace(/-/g, "")}`);
      const credits = up.outputs.creditsBySource!.value as Record<string, number>;
      expect(Object.keys(credits).length).toBeGreaterThan(0);
      expect(up.outputs.totalCredits!.value).toBeCloseTo(Object.values(credits).reduce((a, b) => a + b, 0));
    },
    STEP_TIMEOUT,
  );
});

describe("the root project's stacks", () => {
  const ROOT_FILES = ["Pulumi.yaml", "index.ts", "tsconfig.json", "Pulumi.dev.yaml", "Pulumi.prod.yaml"];

  it(
    "dev declares its Sources from Pulumi.dev.yaml",
    async () => {
      const { stack } = await stackOf(repoRoot(), "dev", ROOT_FILES);
      const up = await stack.up();
      const summary = up.outputs.summary!.value as Record<string, { id: string; status: string; subdomains: string[] }>;
      expect(Object.keys(summary).sort()).toEqual(["photos", "proxy"]);
      expect(summary.photos).toMatchObject({ status: "deployed", subdomains: ["dev-photos"] });
      expect((await client.sources.get(summary.photos!.id)).attributes.deployment).toMatchObject({
        cache_ttl_value: 1800,
        cache_ttl_behavior: "override_origin",
      });
    },
    STEP_TIMEOUT,
  );

  it(
    "prod declares other Sources, its S3 secret from the stack's secret config",
    async () => {
      const prod = await stackOf(repoRoot(), "prod", ROOT_FILES);
      await prod.stack.setConfig("sourceSecrets.assets.s3SecretKey", { value: "prod-s3-secret-key", secret: true }, true);
      const up = await prod.stack.up();
      const summary = up.outputs.summary!.value as Record<string, { id: string; customDomains: string[] }>;
      expect(summary.photos!.customDomains).toEqual(["images.example.com"]);
      expect((await client.sources.get(summary.assets!.id)).attributes.deployment).toMatchObject({
        type: "s3",
        s3_bucket: "example-prod-assets",
        secure_url_enabled: true,
      });
      expect(prod.stateFile()).not.toContain("prod-s3-secret-key");
    },
    STEP_TIMEOUT,
  );
});
