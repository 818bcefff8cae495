// Moving from Terraform to Pulumi with no write to the service, end to end through the real CLIs:
// Sources made through the API as Terraform would have made them, the states of both community
// providers written by hand in their documented shapes (test/cli/terraform/: the providers cannot
// be installed here, so no `terraform apply` can write them), `asset-delivery import
// --from-terraform` (0 POST, 0 PATCH, counted on the server), then
//   - `--format config` into the root example (sourcesFromConfig): the first `pulumi up` adopts,
//     with one PATCH for each Source whose secrets came from the state and none for the others,
//     then `preview --expect-no-changes` passes;
//   - Pulumi's import file and `pulumi import --file` (reads only) in YAML, Python and TypeScript
//     stacks: the printed program, with the printed secret references in place of the empty values
//     `pulumi import` prints, has its first up record the secrets (one PATCH per Source that has
//     some, none for the others), then `preview --expect-no-changes` passes.
// No secret of the states is ever in plain text in the output, the import file, the stack's
// configuration or the stack's state. One suite, one server and one set of Sources for the four
// stacks, run once (with the plugin's tests, not per server profile; test/cli/import-terraform.test.ts
// covers the parts that need no server).
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { pulumiWorkDir, repoRoot } from "../support/pulumi";
import { countedSourceRequests, startTestServer, type TestServer } from "../support/server";
import { programStack, type ProgramStack } from "../support/program-stack";
import { installPythonVenv, pythonStack, type PythonStack } from "../sdks/python-project";
import { installNodeSdk } from "../sdks/node-sdk";
import { fixtureState } from "../cli/terraform/fixtures";
import { yamlStack, type YamlStack } from "./yaml-stack";

const STEP_TIMEOUT = 300_000;
const BIN = path.join(repoRoot(), "cli", "bin", "asset-delivery.js");

// The states' secrets: never to be seen in plain text anywhere.
const SECRETS = { photos: "tj-photos-s3-secret-plain", assets: "iw-assets-s3-secret-plain", old: "iw-old-s3-secret-plain" };
const GONE = "g0negonegonegonegonegone";

let server: TestServer;
let client: AssetDeliveryClient;
let credentials: { baseUrl: string; apiKey: string };
let states: { teamjourney: string; instawork: string };
let ids: Record<string, string>;
let scratch: string;
const stacks: { remove(): Promise<void> }[] = [];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The installed bin, as a user runs it in the project's folder with the stack's Pulumi environment. */
function cli(args: string[], env: Record<string, string>, cwd: string, input?: string): Promise<Run> {
  const { ASSET_DELIVERY_BASE_URL: _url, ASSET_DELIVERY_API_KEY: _key, ...inherited } = process.env;
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { env: { ...inherited, ...env }, cwd }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
    child.stdin!.end(input ?? "");
  });
}

function expectNoSecret(...texts: string[]): void {
  for (const text of texts) for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
}

/** `import --from-terraform` of both states into a stack: no write on the wire, no secret in the output. */
async function importBoth(env: Record<string, string>, cwd: string, stack: string, extra: string[] = []): Promise<Run[]> {
  const runs: Run[] = [];
  const { requests } = await countedSourceRequests(server, async () => {
    for (const file of [states.teamjourney, states.instawork])
      runs.push(await cli(["import", "--from-terraform", file, "--stack", stack, ...extra], env, cwd));
  });
  for (const run of runs) {
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expectNoSecret(run.stdout, run.stderr);
  }
  expect(requests.POST ?? 0).toBe(0);
  expect(requests.PATCH ?? 0).toBe(0);
  return runs;
}

beforeAll(async () => {
  installPythonVenv();
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  credentials = { baseUrl: server.url, apiKey: server.adminKey };
  client = createClient({ ...credentials, pacing: false });
  const s3 = (label: string, secret: string) => ({
    type: "s3" as const,
    service_subdomains: [label],
    s3_bucket: `${label}-bucket`,
    s3_access_key: "AKIATFEXAMPLE",
    s3_secret_key: secret,
  });
  const made = {
    photos: await client.sources.create({ name: "Photos", deployment: { ...s3("tf-photos", SECRETS.photos), s3_prefix: "photos" } }),
    "thumbs-0": await client.sources.create({
      name: "Thumbs 0",
      deployment: { type: "webfolder", service_subdomains: ["tf-thumbs-0"], webfolder_base_url: "https://origin.example.com/0/" },
    }),
    "thumbs-1": await client.sources.create({
      name: "Thumbs 1",
      deployment: { type: "webfolder", service_subdomains: ["tf-thumbs-1"], webfolder_base_url: "https://origin.example.com/1/" },
    }),
    assets: await client.sources.create({
      name: "EU assets",
      deployment: { ...s3("tf-eu-assets", SECRETS.assets), annotation: "managed by terraform" },
    }),
    old: await client.sources.create({ name: "EU old", deployment: s3("tf-eu-old", SECRETS.old) }),
    banners: await client.sources.create({ name: "Banners", deployment: { type: "webproxy", service_subdomains: ["tf-banners"] } }),
  };
  // `terraform destroy` of the old one, as both providers do it: disabled.
  await client.sources.update(made.old.id, { enabled: false });
  ids = Object.fromEntries(Object.entries(made).map(([key, source]) => [key, source.id]));

  scratch = pulumiWorkDir("terraform-states-");
  states = { teamjourney: path.join(scratch, "teamjourney.tfstate"), instawork: path.join(scratch, "instawork.tfstate") };
  fs.writeFileSync(
    states.teamjourney,
    fixtureState("teamjourney-imgix.tfstate", {
      photos: ids.photos!,
      "photos-secret": SECRETS.photos,
      "thumbs-0": ids["thumbs-0"]!,
      "thumbs-1": ids["thumbs-1"]!,
      gone: GONE,
    }),
  );
  fs.writeFileSync(
    states.instawork,
    fixtureState("instawork-imgixyz.tfstate", {
      assets: ids.assets!,
      "assets-secret": SECRETS.assets,
      old: ids.old!,
      "old-secret": SECRETS.old,
      banners: ids.banners!,
    }),
  );
}, STEP_TIMEOUT);

afterAll(async () => {
  for (const stack of stacks) await stack.remove();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  await client?.close();
  await server?.close();
}, STEP_TIMEOUT);

describe("asset-delivery import --from-terraform", () => {
  it(
    "refuses what is not a state of ours, naming it, before touching the stack or the API",
    async () => {
      const cwd = scratch;
      const bad = path.join(scratch, "v3.tfstate");
      fs.writeFileSync(bad, JSON.stringify({ version: 3, resources: [] }));
      server.resetRequestCount();
      const v3 = await cli(["import", "--from-terraform", bad, "--stack", "nowhere"], {}, cwd);
      expect(v3.code).toBe(1);
      expect(v3.stderr).toContain(`asset-delivery import: ${bad} is a Terraform state of format version 3: only version 4 is read`);
      const stdin = await cli(["import", "--from-terraform", "-", "--stack", "nowhere"], {}, cwd, '{"version":4,"resources":[]}');
      expect(stdin.code).toBe(1);
      expect(stdin.stderr).toContain("standard input holds no Source: no imgix_source (teamjourney/imgix) or imgixyz_source");
      const usage = await cli(["import", "--from-terraform", bad, "--stack", "s", "--format", "typescript"], {}, cwd);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('--format: must be one of pulumi-import, config (got "typescript")');
      expect(server.requestCount()).toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    "--format config into the root example: adopted by the first up (one PATCH per Source with secrets), then no change",
    async () => {
      const program: ProgramStack = await programStack(repoRoot(), "terraform", credentials, ["Pulumi.yaml", "index.ts", "tsconfig.json"]);
      stacks.push(program);
      const [teamjourney, instawork] = await importBoth(program.env, program.workDir, "terraform", ["--format", "config"]);
      // The mapping from addresses to names, and what was left out.
      expect(teamjourney!.stdout).toContain("Imported 3 Sources into Pulumi.terraform.yaml (asset-delivery:sources)");
      expect(teamjourney!.stdout).toMatch(
        new RegExp(`module\\.cdn\\.imgix_source\\.thumbs\\[1\\] +cdn-thumbs-1 +${ids["thumbs-1"]} +webfolder`),
      );
      expect(teamjourney!.stdout).toContain(`module.cdn.imgix_source.legacy (${GONE}): no longer on the server (404)`);
      expect(teamjourney!.stdout).toContain("photos: deployment.s3SecretKey → sourceSecrets.photos.s3SecretKey");
      expect(teamjourney!.stdout).toContain("photos: waitForDeployment: false, deploymentTimeoutSeconds: 3600");
      expect(teamjourney!.stdout).toContain("  from = module.cdn.imgix_source.thumbs\n");
      expect(teamjourney!.stdout).toContain("terraform state rm 'module.cdn.imgix_source.thumbs[0]'");
      expect(instawork!.stdout).toMatch(/module\.media\["eu"\]\.imgixyz_source\.bucket\["assets"\] +media-eu-bucket-assets /);
      expect(instawork!.stdout).toContain(`module.media["eu"].imgixyz_source.bucket["old"] (${ids.old}): retired on the server`);
      expect(instawork!.stdout).toContain("upsert_by_name = true (no Pulumi counterpart)");

      const configFile = fs.readFileSync(path.join(program.workDir, "Pulumi.terraform.yaml"), "utf8");
      expectNoSecret(configFile);
      const config = await program.stack.getAllConfig();
      expect(Object.keys(JSON.parse(config["asset-delivery:sources"]!.value)).sort()).toEqual(
        ["banners", "cdn-thumbs-0", "cdn-thumbs-1", "media-eu-bucket-assets", "photos"].sort(),
      );
      expect(config["asset-delivery:sourceSecrets"]!.secret).toBe(true);

      const { result: up, requests } = await countedSourceRequests(server, () => program.stack.up());
      expect(up.summary.resourceChanges).toEqual({ create: 6 });
      expect(requests.POST ?? 0).toBe(0);
      expect(requests.PATCH ?? 0).toBe(2); // photos and the EU assets: their secrets recorded
      expectNoSecret(up.stdout, up.stderr);
      const preview = await countedSourceRequests(server, () => program.stack.preview({ expectNoChanges: true }));
      expect(preview.result.changeSummary).toEqual({ same: 6 });
      expectNoSecret(program.stateFile()); // the state as stored (the Automation API's export decrypts)
      expect((await client.sources.get(ids.old!)).attributes.enabled).toBe(false);
    },
    STEP_TIMEOUT * 2,
  );

  /** A native stack: import file, `pulumi import --file` (reads only), the printed code as the program, no change to preview. */
  async function nativeImport(stack: YamlStack, out: string, extra: string[] = []): Promise<string> {
    const runs = await importBoth(stack.env, stack.workDir, "dev", extra);
    const file = path.join(stack.workDir, "import.json");
    expectNoSecret(fs.readFileSync(file, "utf8"));
    expect((JSON.parse(fs.readFileSync(file, "utf8")) as { resources: { id: string }[] }).resources.map((r) => r.id).sort()).toEqual(
      [ids.photos, ids["thumbs-0"], ids["thumbs-1"], ids.assets, ids.banners].sort(),
    );
    expect(runs[0]!.stdout).toContain("Next:\n  pulumi import --stack dev --file import.json");
    const { result: imported, requests } = await countedSourceRequests(server, () =>
      stack.pulumi(["import", "--file", file, "--yes", "--out", path.join(stack.workDir, out)]),
    );
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    expectNoSecret(imported.stdout, imported.stderr);
    expect(requests.POST ?? 0).toBe(0);
    expect(requests.PATCH ?? 0).toBe(0);
    return runs.map((run) => run.stdout).join("\n");
  }

  /**
   * The printed secret references in place of the empty values `pulumi import` prints: `code` with,
   * in each Source's declaration, `field: ""` replaced by the report's expression for it.
   */
  function withSecretReferences(code: string, report: string): string {
    let result = code;
    for (const [, name, field, expression] of report.matchAll(/^ {2}(\S+): deployment\.(\w+): (.+)$/gm)) {
      const at = result.search(new RegExp(`Source\\(\\s*"${name}"`));
      expect(at, `the declaration of ${name}`).toBeGreaterThanOrEqual(0);
      const snake = field!.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      const empty = new RegExp(`(["']?(?:${field}|${snake})["']?\\s*[:=]\\s*)""`);
      const rest = result.slice(at);
      expect(rest, `an empty ${field} in ${name}`).toMatch(empty);
      result = result.slice(0, at) + rest.replace(empty, `$1${expression}`);
    }
    return result;
  }

  /** The first up records the referenced secrets (one PATCH for each Source that has some, none for the others); then no change. */
  async function expectSecretsRecordedThenNoChange(stack: YamlStack): Promise<void> {
    const { result: up, requests } = await countedSourceRequests(server, () => stack.ok(["up", "--yes"]));
    expect(requests.POST ?? 0).toBe(0);
    expect(requests.PATCH ?? 0).toBe(2);
    expect(server.requestCount("PATCH", new RegExp(ids.photos!))).toBe(1);
    expect(server.requestCount("PATCH", new RegExp(ids.assets!))).toBe(1);
    expectNoSecret(up.stdout, up.stderr, await stack.exportState());
    const preview = await countedSourceRequests(server, () => stack.pulumi(["preview", "--expect-no-changes", "--diff"]));
    expect(preview.result.code, preview.result.stdout + preview.result.stderr).toBe(0);
    expect(preview.requests.PATCH ?? 0).toBe(0);
  }

  it(
    "YAML: pulumi import --file prints the declarations; with the printed secret references, the first up records them, then no change",
    async () => {
      const stack = await yamlStack("terraform-yaml", "dev", {}, { credentials });
      stacks.push(stack);
      const report = await nativeImport(stack, "imported.yaml");
      expect(report).toContain("photos: deployment.s3SecretKey: ${photosS3SecretKey}");
      expect(report).toContain("media-eu-bucket-assets: deployment.s3SecretKey: ${mediaEuBucketAssetsS3SecretKey}");
      const imported = parse(fs.readFileSync(path.join(stack.workDir, "imported.yaml"), "utf8")) as { resources: Record<string, any> };
      expect(Object.keys(imported.resources).sort()).toEqual([
        "banners",
        "cdn-thumbs-0",
        "cdn-thumbs-1",
        "media-eu-bucket-assets",
        "photos",
      ]);
      expect(imported.resources.photos.properties.deployment.s3SecretKey).toBe("");
      imported.resources.photos.properties.deployment.s3SecretKey = "${photosS3SecretKey}";
      imported.resources["media-eu-bucket-assets"].properties.deployment.s3SecretKey = "${mediaEuBucketAssetsS3SecretKey}";
      stack.write({ resources: imported.resources });
      await expectSecretsRecordedThenNoChange(stack);
    },
    STEP_TIMEOUT * 2,
  );

  it(
    "Python: pulumi import --file prints the program; with the printed secret references, the first up records them, then no change",
    async () => {
      const stack: PythonStack = await pythonStack("terraform-python", "dev", "import pulumi\n", credentials);
      stacks.push(stack);
      const report = await nativeImport(stack, "imported.py");
      expect(report).toContain('photos: deployment.s3SecretKey: pulumi.Config().require_secret("photosS3SecretKey")');
      const code = fs.readFileSync(path.join(stack.workDir, "imported.py"), "utf8");
      expect(code).toContain("import pulumi_assetdelivery as assetdelivery");
      stack.writeMain(withSecretReferences(code, report));
      await expectSecretsRecordedThenNoChange(stack);
    },
    STEP_TIMEOUT * 2,
  );

  it(
    "TypeScript: pulumi import --file prints the program; with the printed secret references, the first up records them, then no change",
    async () => {
      const stack = await yamlStack(
        "terraform-ts",
        "dev",
        {},
        {
          runtime: "nodejs",
          credentials,
          env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
        },
      );
      stacks.push(stack);
      installNodeSdk(stack.workDir);
      const program = path.join(stack.workDir, "index.ts");
      fs.writeFileSync(program, "export {};\n");
      const report = await nativeImport(stack, "imported.ts");
      expect(report).toContain('photos: deployment.s3SecretKey: new pulumi.Config().requireSecret("photosS3SecretKey")');
      const code = fs.readFileSync(path.join(stack.workDir, "imported.ts"), "utf8");
      expect(code).toContain('import * as assetdelivery from "@asset-delivery/pulumi";');
      fs.writeFileSync(program, withSecretReferences(code, report));
      await expectSecretsRecordedThenNoChange(stack);
    },
    STEP_TIMEOUT * 2,
  );
});
