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
import { parse, stringify } from "yaml";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { pulumiBinDir, pulumiWorkDir, repoRoot } from "../support/pulumi";
import { startCountingProxy } from "../support/counting-proxy";
import { countedSourceRequests, startTestServer, type TestServer } from "../support/server";
import { programStack, type ProgramStack } from "../support/program-stack";
import { installPythonVenv, pythonStack, type PythonStack } from "../sdks/python-project";
import { installNodeSdk } from "../sdks/node-sdk";
import { countSource, countState, fixtureState } from "../cli/terraform/fixtures";
import { exportedSource, yamlStack, type YamlStack } from "./yaml-stack";

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

/** `count` S3 Sources made through the API as Terraform made them (see countState). */
async function makeS3Sources(label: string, count: number, secretOf: (i: number) => string): Promise<string[]> {
  const made: string[] = [];
  for (let i = 0; i < count; i++) made.push((await client.sources.create(countSource(label, i, secretOf(i)))).id);
  return made;
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
      expect(instawork!.stdout).toContain("upsert_by_name (no Pulumi counterpart)");

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

// A state of 20 S3 Sources with their secrets (teamjourney/imgix's shape, one `count` resource):
// with --trust-state-secrets the move and the first `up` send no PATCH, for the native plugin
// (YAML) and the dynamic Source (the root example's sourcesFromConfig); without it, the first `up`
// sends one per Source, as the import's output said, with the least time the preview prints.
describe("20 S3 Sources with their secrets: --trust-state-secrets", () => {
  const COUNT = 20;
  const secretOf = (i: number) => `tf20-s3-secret-${i}-plain`;
  let state20: string;
  let ids20: string[];

  const expectNoSecret20 = (...texts: string[]) => {
    for (const text of texts) for (let i = 0; i < COUNT; i++) expect(text).not.toContain(secretOf(i));
  };

  beforeAll(async () => {
    ids20 = await makeS3Sources("tf20-media", COUNT, secretOf);
    state20 = path.join(scratch, "tf20.tfstate");
    fs.writeFileSync(state20, countState("tf20-media", ids20, secretOf));
  }, STEP_TIMEOUT);

  /** The move into a native YAML stack: the import (no write), `pulumi import --file` (no write), the program with the secrets referenced. */
  async function nativeMove(stack: YamlStack, extra: string[]): Promise<string> {
    const { result: run, requests } = await countedSourceRequests(server, () =>
      cli(["import", "--from-terraform", state20, "--stack", "dev", ...extra], stack.env, stack.workDir),
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const file = path.join(stack.workDir, "import.json");
    const imported = await countedSourceRequests(server, () =>
      stack.pulumi(["import", "--file", file, "--yes", "--out", path.join(stack.workDir, "imported.yaml")]),
    );
    expect(imported.result.code, imported.result.stdout + imported.result.stderr).toBe(0);
    expect({ ...requests, ...imported.requests }).not.toHaveProperty("PATCH");
    expect({ ...requests, ...imported.requests }).not.toHaveProperty("POST");
    expectNoSecret20(run.stdout, run.stderr, imported.result.stdout, fs.readFileSync(file, "utf8"));
    const program = parse(fs.readFileSync(path.join(stack.workDir, "imported.yaml"), "utf8")) as { resources: Record<string, any> };
    expect(Object.keys(program.resources)).toHaveLength(COUNT);
    for (let i = 0; i < COUNT; i++) program.resources[`media-${i}`].properties.deployment.s3SecretKey = `\${media${i}S3SecretKey}`;
    stack.write({ resources: program.resources });
    return run.stdout;
  }

  /** A change of one secret in the stack's config is sent, alone. */
  async function oneSecretChanged(up: () => Promise<unknown>): Promise<void> {
    const { requests } = await countedSourceRequests(server, up);
    expect(requests.PATCH ?? 0).toBe(1);
    expect(server.requestCount("PATCH", new RegExp(ids20[0]!))).toBe(1);
  }

  it(
    "YAML on the native plugin: the move and the first up send 0 PATCH, no change after; one secret changed is one PATCH",
    async () => {
      const stack = await yamlStack("tf20-trusted", "dev", {}, { credentials });
      stacks.push(stack);
      const report = await nativeMove(stack, ["--trust-state-secrets"]);
      expect(report).toContain(
        "Trusted as what the server holds (--trust-state-secrets; recorded by Source id in assetdelivery:trustedSecrets",
      );
      expect(report).not.toContain("The first `pulumi up` sends");
      const { result: up, requests } = await countedSourceRequests(server, () => stack.ok(["up", "--yes"]));
      expect(requests.PATCH ?? 0).toBe(0);
      expect(requests.POST ?? 0).toBe(0);
      const preview = await stack.pulumi(["preview", "--expect-no-changes", "--diff"]);
      expect(preview.code, preview.stdout + preview.stderr).toBe(0);
      // Recorded in the state as secrets (ciphertext), as after an update; the trust record too. The
      // backend's own file (its checkpoint holds what `pulumi stack export` prints), read without
      // another Pulumi run.
      const stored = fs.readFileSync(path.join(stack.workDir, ".state", ".pulumi", "stacks", "tf20-trusted", "dev.json"), "utf8");
      expectNoSecret20(up.stdout, up.stderr, stored, fs.readFileSync(path.join(stack.workDir, "Pulumi.dev.yaml"), "utf8"));
      const exported = JSON.stringify({ deployment: (JSON.parse(stored) as { checkpoint: { latest: unknown } }).checkpoint.latest });
      expect(exportedSource(exported, "Media 3").outputs.deployment.s3SecretKey).toHaveProperty("ciphertext");
      // The record served the import: the state records each Source now, and the copies go.
      expect(report).toContain("remove them: asset-delivery import --prune-trusted-secrets --stack dev");
      const pruned = await cli(["import", "--prune-trusted-secrets", "--stack", "dev"], stack.env, stack.workDir);
      expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
      expect(pruned.stdout).toBe("assetdelivery:trustedSecrets: removed the secrets of 20 Sources stack dev manages; none left.\n");
      expect(fs.readFileSync(path.join(stack.workDir, "Pulumi.dev.yaml"), "utf8")).not.toContain("assetdelivery:trustedSecrets");
      await stack.ok(["config", "set", "--secret", "media0S3SecretKey", "rotated-after-the-move"]);
      await oneSecretChanged(() => stack.ok(["up", "--yes"]));
    },
    STEP_TIMEOUT * 2,
  );

  it(
    "TypeScript on the dynamic Source (sourcesFromConfig): the move and the first up send 0 PATCH, no change after; one secret changed is one PATCH",
    async () => {
      const program = await programStack(repoRoot(), "tf20", credentials, ["Pulumi.yaml", "index.ts", "tsconfig.json"]);
      stacks.push(program);
      const { result: run, requests } = await countedSourceRequests(server, () =>
        cli(
          ["import", "--from-terraform", state20, "--stack", "tf20", "--format", "config", "--trust-state-secrets"],
          program.env,
          program.workDir,
        ),
      );
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(requests).not.toHaveProperty("PATCH");
      const { result: up, requests: upRequests } = await countedSourceRequests(server, () => program.stack.up());
      expect(up.summary.resourceChanges).toEqual({ create: COUNT + 1 });
      expect(upRequests.PATCH ?? 0).toBe(0);
      expect(upRequests.POST ?? 0).toBe(0);
      const preview = await program.stack.preview({ expectNoChanges: true });
      expect(preview.changeSummary).toEqual({ same: COUNT + 1 });
      expectNoSecret20(
        run.stdout,
        run.stderr,
        up.stdout,
        up.stderr,
        program.stateFile(),
        fs.readFileSync(path.join(program.workDir, "Pulumi.tf20.yaml"), "utf8"),
      );
      await program.stack.setConfig(
        "asset-delivery:sourceSecrets.media-0.s3SecretKey",
        { value: "rotated-after-the-move", secret: true },
        true,
      );
      await oneSecretChanged(() => program.stack.up());
    },
    STEP_TIMEOUT * 2,
  );

  it(
    "without it: the import says the first up sends 20 updates and its least time, as the preview says; the up sends 20 PATCH",
    async () => {
      const stack = await yamlStack("tf20-plain", "dev", {}, { credentials });
      stacks.push(stack);
      // A plan of 10 updates a second: the hourly budget's arithmetic, without its hour. Written
      // into the stack's file (a plain setting), without another Pulumi run.
      const stackFile = path.join(stack.workDir, "Pulumi.dev.yaml");
      const settings = parse(fs.readFileSync(stackFile, "utf8")) as { config: Record<string, unknown> };
      settings.config["assetdelivery:pacing"] = JSON.stringify({ limits: { updateSource: { limit: 10, intervalMs: 1000 } } });
      fs.writeFileSync(stackFile, stringify(settings));
      const report = await nativeMove(stack, []);
      const estimate = "20 updates: at 10 per second this update takes at least 2 s (9 at once, then one every 100 ms)";
      expect(report).toContain(`The first \`pulumi up\` sends one update per Source with secrets: ${estimate}.`);
      expect(report).toContain("run this import with --trust-state-secrets");
      const started = Date.now();
      const { result: up, requests } = await countedSourceRequests(server, () => stack.ok(["up", "--yes"]));
      expect(requests.PATCH ?? 0).toBe(COUNT);
      // The preview's estimate, as up's own preview prints it (test/faults/hourly-budget.test.ts).
      expect(up.stdout + up.stderr).toContain(estimate);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1100);
    },
    STEP_TIMEOUT * 2,
  );
  it(
    "the 120 KiB check counts what the import writes, the secrets and the trusted record, on both paths; nothing is written when refused",
    async () => {
      // A Node.js project: Pulumi hands its program the configuration in one environment variable.
      const stack = await yamlStack("tf-size", "dev", {}, { credentials, runtime: "nodejs" });
      stacks.push(stack);
      // Two Sources whose secrets take 80 KiB: they fit alone, not with their copies in the record.
      const big = (i: number) => `${secretOf(i)}-${"x".repeat(40 * 1024)}`;
      const file = path.join(scratch, "tf-size.tfstate");
      fs.writeFileSync(file, countState("tf20-media", ids20.slice(0, 2), big));
      const before = fs.readFileSync(path.join(stack.workDir, "Pulumi.dev.yaml"), "utf8");
      for (const format of ["pulumi-import", "config"]) {
        const run = await cli(
          ["import", "--from-terraform", file, "--stack", "dev", "--format", format, "--trust-state-secrets"],
          stack.env,
          stack.workDir,
        );
        expect(run.code, run.stdout + run.stderr).toBe(1);
        expect(run.stderr).toMatch(
          /This import \(its declarations, the state's secrets and the trusted record\) would make the stack's configuration 16\d KiB/,
        );
        expect(fs.readFileSync(path.join(stack.workDir, "Pulumi.dev.yaml"), "utf8")).toBe(before);
        expect(fs.existsSync(path.join(stack.workDir, "import.json"))).toBe(false);
      }
    },
    STEP_TIMEOUT,
  );
  it(
    "a secret the live Source says it lacks (password_set: false) is carried over, not trusted",
    async () => {
      const webfolder = (label: string, password?: string) =>
        client.sources.create({
          name: label,
          deployment: {
            type: "webfolder",
            service_subdomains: [label],
            webfolder_base_url: `https://origin.example.com/${label}/`,
            ...(password ? { username: "tf", password } : {}),
          },
        });
      const held = await webfolder("tf-pw-held", "tf-pw-plain-held");
      const lacking = await webfolder("tf-pw-lacking");
      const instance = (id: string, label: string, i: number) => ({
        index_key: i,
        attributes: {
          id,
          name: label,
          enabled: true,
          deployment: [
            {
              type: "webfolder",
              imgix_subdomains: [label],
              webfolder_base_url: `https://origin.example.com/${label}/`,
              username: "tf",
              password: `tf-pw-plain-${i}`,
            },
          ],
        },
        sensitive_attributes: [],
      });
      const file = path.join(scratch, "tf-pw.tfstate");
      fs.writeFileSync(
        file,
        JSON.stringify({
          version: 4,
          resources: [
            {
              mode: "managed",
              type: "imgix_source",
              name: "web",
              instances: [instance(held.id, "tf-pw-held", 0), instance(lacking.id, "tf-pw-lacking", 1)],
            },
          ],
        }),
      );
      const stack = await yamlStack("tf-pw", "dev", {}, { credentials });
      stacks.push(stack);
      const run = await cli(["import", "--from-terraform", file, "--stack", "dev", "--trust-state-secrets"], stack.env, stack.workDir);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain(
        "Not trusted: the server says the Source holds none (its presence flag), so the first `pulumi up` sends it:\n  web-1: deployment.password\n",
      );
      const config = JSON.parse((await stack.ok(["config", "--json", "--show-secrets"])).stdout) as Record<string, { value: string }>;
      expect(JSON.parse(config["assetdelivery:trustedSecrets"]!.value)).toEqual({ [held.id]: { password: "tf-pw-plain-0" } });
      expect(config["tf-pw:web1Password"]!.value).toBe("tf-pw-plain-1");
    },
    STEP_TIMEOUT,
  );
});

// The migration at scale: a state of 100 S3 Sources imported with --trust-state-secrets reads the
// account's listing (a page of 100 per GET, counted at a proxy in front of the server) and writes
// the 100 secrets and the trusted record into the stack's file with a constant number of Pulumi
// commands (counted by a `pulumi` first on PATH that logs each one's arguments), none of which
// carries a secret; Pulumi then reads every one back as a secret. A passphrase stack, as a user's.
describe("100 S3 Sources with their secrets: what the import costs", () => {
  const COUNT = 100;
  const secretOf = (i: number) => `tf100-s3-secret-${i}-plain`;

  it(
    "≤ 2 GETs and ≤ 6 Pulumi commands, no secret on a command line, every secret encrypted in the stack's config",
    async () => {
      const ids100 = await makeS3Sources("tf100-media", COUNT, secretOf);
      const state100 = path.join(scratch, "tf100.tfstate");
      fs.writeFileSync(state100, countState("tf100-media", ids100, secretOf));
      const stack = await yamlStack("tf100", "dev", {}, { secrets: "passphrase" });
      stacks.push(stack);
      // A `pulumi` first on PATH that logs its arguments, then runs the real one.
      const counting = path.join(scratch, "counting-pulumi");
      fs.mkdirSync(counting, { recursive: true });
      const log = path.join(counting, "commands.log");
      const real = path.join(pulumiBinDir(), "pulumi");
      fs.writeFileSync(path.join(counting, "pulumi"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
      const proxy = await startCountingProxy(server.url);
      try {
        const env = {
          ...stack.env,
          PATH: `${counting}${path.delimiter}${stack.env.PATH}`,
          ASSET_DELIVERY_BASE_URL: proxy.url,
          ASSET_DELIVERY_API_KEY: server.adminKey,
        };
        const run = await cli(["import", "--from-terraform", state100, "--stack", "dev", "--trust-state-secrets"], env, stack.workDir);
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(run.stdout).toContain(`Imported ${COUNT} Sources into import.json`);
        expect(proxy.requests().filter(({ method }) => method !== "GET")).toEqual([]);
        expect(proxy.requestCount("GET")).toBeLessThanOrEqual(2);
      } finally {
        await proxy.close();
      }
      const commands = fs.readFileSync(log, "utf8").trim().split("\n");
      expect(commands.length, commands.join("\n")).toBeLessThanOrEqual(6);
      const stackFile = fs.readFileSync(path.join(stack.workDir, "Pulumi.dev.yaml"), "utf8");
      for (let i = 0; i < COUNT; i++) expect(commands.join("\n") + stackFile).not.toContain(secretOf(i));
      // Pulumi reads each one back, a secret, and the record of what the server is trusted to hold.
      const config = JSON.parse((await stack.ok(["config", "--json", "--show-secrets"])).stdout) as Record<
        string,
        { value: string; secret: boolean }
      >;
      for (let i = 0; i < COUNT; i++) expect(config[`tf100:media${i}S3SecretKey`]).toEqual({ value: secretOf(i), secret: true });
      expect(config["assetdelivery:trustedSecrets"]!.secret).toBe(true);
      const trusted = JSON.parse(config["assetdelivery:trustedSecrets"]!.value) as Record<string, Record<string, string>>;
      expect(ids100.map((id) => trusted[id])).toEqual(ids100.map((_, i) => ({ s3_secret_key: secretOf(i) })));
    },
    STEP_TIMEOUT,
  );
});
