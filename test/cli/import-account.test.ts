// Bringing a whole account under management, end to end through the real CLIs: 30 Sources made
// through the API (six types, one with a password, one disabled) → `asset-delivery import` →
// `pulumi up` of examples/adopt-account adopts all 30 without a PATCH (counted on the server) →
// `preview --expect-no-changes` passes → a Source added by hand afterwards is listed as unmanaged
// by `asset-delivery drift`, and a second import declares only that one.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { createClient, type AssetDeliveryClient, type SourceCreateAttributes } from "@asset-delivery/sdk";
import { repoRoot } from "../support/pulumi";
import { startTestServer, type TestServer } from "../support/server";
import { programStack, removeStacksAndServer, type ProgramStack } from "../support/program-stack";

const STEP_TIMEOUT = 300_000;
const BIN = path.join(repoRoot(), "cli", "bin", "asset-delivery.js");
const STACK = "adopt";
const CONFIG_KEY = "adopt-account:sources";

/** 30 Sources of six types, as a team made them in the dashboard. */
function handMade(): SourceCreateAttributes[] {
  const kinds: ((i: number) => SourceCreateAttributes["deployment"])[] = [
    (i) => ({
      type: "webfolder",
      service_subdomains: [`hand-wf-${i}`],
      webfolder_base_url: `https://origin.example.com/${i}/`,
      cache_ttl_error: 60,
    }),
    (i) => ({ type: "webproxy", service_subdomains: [`hand-wp-${i}`], "robots.txt": "disallow-all" }),
    (i) => ({
      type: "s3",
      service_subdomains: [`hand-s3-${i}`],
      s3_bucket: `bucket-${i}`,
      s3_access_key: "AKIAEXAMPLE",
      s3_secret_key: "s3-secret",
      default_params: { auto: "format" },
    }),
    (i) => ({
      type: "gcs",
      service_subdomains: [`hand-gcs-${i}`],
      gcs_bucket: `gcs-bucket-${i}`,
      gcs_access_key: "GOOGEXAMPLE",
      gcs_secret_key: "gcs-secret",
    }),
    (i) => ({
      type: "azure",
      service_subdomains: [`hand-az-${i}`],
      azure_account: `account${i}`,
      azure_bucket: `container-${i}`,
      azure_sas_string: "sv=2020&sig=abc",
      azure_service_type: "blob",
    }),
    (i) => ({
      type: "s3_compatible",
      service_subdomains: [`hand-s3c-${i}`],
      access_key_id: "KEYID",
      secret_key: "s3c-secret",
      bucket_name: `s3c-bucket-${i}`,
      endpoint_url: "https://nyc3.digitaloceanspaces.com",
      region: "nyc3",
      storage_provider: "DigitalOcean",
    }),
  ];
  return Array.from({ length: 30 }, (_, i) => {
    const deployment = kinds[i % kinds.length]!(i);
    if (i === 0) Object.assign(deployment, { username: "origin-user", password: "origin-password" });
    // Names as people write them: two alike, to be told apart by a suffix.
    return { name: i === 7 ? "Shop images" : i === 13 ? "Shop images" : `Hand made ${i}`, enabled: i !== 5, deployment };
  });
}

let server: TestServer;
let client: AssetDeliveryClient;
let program: ProgramStack;
const made: string[] = [];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The installed bin, run as a user would in the project's folder, with the stack's Pulumi environment. */
function cli(args: string[]): Promise<Run> {
  const { ASSET_DELIVERY_BASE_URL: _url, ASSET_DELIVERY_API_KEY: _key, ...inherited } = process.env;
  const env = { ...inherited, ...(program.stack.workspace as LocalWorkspace).envVars };
  return new Promise((resolve) =>
    execFile(process.execPath, [BIN, ...args], { env, cwd: program.workDir }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    ),
  );
}

async function declaredNames(): Promise<string[]> {
  const value = (await program.stack.getAllConfig())[CONFIG_KEY]?.value;
  return Object.keys(value ? (JSON.parse(value) as object) : {}).sort();
}

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey });
  for (const attributes of handMade()) made.push((await client.sources.create(attributes)).id);
  program = await programStack(path.join(repoRoot(), "examples", "adopt-account"), STACK, { baseUrl: server.url, apiKey: server.adminKey });
}, STEP_TIMEOUT);

afterAll(() => removeStacksAndServer({ stacks: [program], client, server }), STEP_TIMEOUT);

describe("asset-delivery import of a whole account", () => {
  it(
    "--dry-run prints the declarations and writes nothing",
    async () => {
      const run = await cli(["import", "--stack", STACK, "--dry-run"]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`"${CONFIG_KEY}": {`);
      expect(run.stdout).toContain("Would import 30 Sources into Pulumi.adopt.yaml (adopt-account:sources):");
      expect(await declaredNames()).toEqual([]);
    },
    STEP_TIMEOUT,
  );

  it(
    "declares all 30 in the stack's configuration, with stable unique names and the secrets to declare",
    async () => {
      const run = await cli(["import", "--stack", STACK]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("Imported 30 Sources into Pulumi.adopt.yaml (adopt-account:sources):");
      const names = await declaredNames();
      expect(names).toHaveLength(30);
      expect(names).toEqual(expect.arrayContaining(["shop-images", "shop-images-2", "hand-made-0", "hand-made-29"]));
      // The password of Source 0, which the API reports only through password_set.
      expect(run.stdout).toContain(`pulumi config set --stack ${STACK} --secret --path 'sourceSecrets.hand-made-0.password' <value>`);
      expect(run.stdout).toContain(`'sourceSecrets.hand-made-2.s3SecretKey'`);
      expect(run.stdout).not.toContain("sourceSecrets.hand-made-1.");
      const yaml = fs.readFileSync(path.join(program.workDir, `Pulumi.${STACK}.yaml`), "utf8");
      expect(yaml).toContain(`adoptSourceId: ${made[0]}`);
      expect(yaml).not.toContain("origin-password");
    },
    STEP_TIMEOUT,
  );

  it(
    "pulumi up adopts all 30 without a single write",
    async () => {
      server.resetRequestCount();
      const up = await program.stack.up();
      expect(up.summary.resourceChanges).toEqual({ create: 31 });
      expect(server.requestCount("PATCH")).toBe(0);
      expect(server.requestCount("POST")).toBe(0);
      expect(server.requestCount()).toBeLessThanOrEqual(3);
      const adopted = up.outputs.adopted!.value as Record<string, { id: string; status: string }>;
      expect(
        Object.values(adopted)
          .map((a) => a.id)
          .sort(),
      ).toEqual([...made].sort());
      expect(adopted["hand-made-5"]!.status).toBe("disabled");
    },
    STEP_TIMEOUT,
  );

  it(
    "preview --expect-no-changes passes",
    async () => {
      server.resetRequestCount();
      const preview = await program.stack.preview({ expectNoChanges: true });
      expect(preview.changeSummary).toEqual({ same: 31 });
      expect(server.requestCount()).toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    "a Source added by hand afterwards is unmanaged in drift, and import picks up only that one",
    async () => {
      const extra = await client.sources.create({
        name: "Added later",
        deployment: { type: "webproxy", service_subdomains: ["hand-later"] },
      });
      const drift = await cli(["drift", "--stack", STACK]);
      expect(drift.code).toBe(0);
      expect(drift.stdout).toContain("Unmanaged: 1 enabled Source of the account is managed by no resource of stack `adopt`");
      expect(drift.stdout).toContain(`| \`${extra.id}\` | \`Added later\` | webproxy | \`hand-later\` |`);
      const strict = await cli(["drift", "--stack", STACK, "--fail-on-unmanaged", "--format", "json"]);
      expect(strict.code).toBe(2);
      expect(JSON.parse(strict.stdout).unmanaged).toEqual([
        { id: extra.id, name: "Added later", type: "webproxy", serviceSubdomains: ["hand-later"] },
      ]);

      const before = await declaredNames();
      const again = await cli(["import", "--stack", STACK]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain("Imported 1 Source into Pulumi.adopt.yaml (adopt-account:sources):");
      expect(again.stdout).toContain("Left out 30 matching Sources the stack already manages or declares.");
      expect(await declaredNames()).toEqual([...before, "added-later"].sort());
      const third = await cli(["import", "--stack", STACK]);
      expect(third.stdout).toBe(
        "Nothing to import: every matching Source is already managed by stack adopt.\nLeft out 31 matching Sources the stack already manages or declares.\n",
      );
    },
    STEP_TIMEOUT,
  );
});
