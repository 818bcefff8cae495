// The native plugin beyond one Source's life: two explicit providers for two accounts in one YAML
// program with an invoke through one of them; the schema as the real CLI binds it; the Node version
// check; and the packaged tarball installed into a fresh PULUMI_HOME, running a program outside the repo.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, NotFoundError, sourceAttributeDescriptors, type AssetDeliveryClient, type Source } from "@asset-delivery/sdk";
import { pulumiBinDir, pulumiEnv, repoRoot } from "../support/pulumi";
import { startTestServer, type TestServer } from "../support/server";
import { PLUGIN_BIN_DIR, runCli, yamlStack, type YamlStack } from "./yaml-stack";

const run = promisify(execFile);
const STEP_TIMEOUT = 300_000;

let server: TestServer;
let keyA: string;
let keyB: string;
let clientA: AssetDeliveryClient;
let clientB: AssetDeliveryClient;
const stacks: YamlStack[] = [];

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  keyA = server.accountKey(["Account Admin"], "team-a");
  keyB = server.accountKey(["Account Admin"], "team-b");
  clientA = createClient({ baseUrl: server.url, apiKey: keyA, pacing: false });
  clientB = createClient({ baseUrl: server.url, apiKey: keyB, pacing: false });
}, STEP_TIMEOUT);

afterAll(async () => {
  for (const stack of stacks) await stack.remove();
  await clientA?.close();
  await clientB?.close();
  await server?.close();
}, STEP_TIMEOUT);

function source(name: string, subdomain: string, provider: string) {
  return {
    type: "assetdelivery:index:Source",
    properties: { name, deployment: { type: "webproxy", serviceSubdomains: [subdomain] } },
    options: { provider: `\${${provider}}` },
  };
}

describe("the native plugin", () => {
  it(
    "serves two explicit providers for two accounts in one program, and an invoke through one of them",
    async () => {
      const stack = await yamlStack("plugin-accounts", "e2e", {
        config: { keyA: { type: "string", secret: true }, keyB: { type: "string", secret: true } },
        resources: {
          teamA: { type: "pulumi:providers:assetdelivery", properties: { baseUrl: server.url, apiKey: "${keyA}" } },
          teamB: { type: "pulumi:providers:assetdelivery", properties: { baseUrl: server.url, apiKey: "${keyB}" } },
          a: source("Team A images", "plugin-team-a", "teamA"),
          b: source("Team B images", "plugin-team-b", "teamB"),
        },
        variables: {
          seenByB: {
            "fn::invoke": { function: "assetdelivery:index:getSource", arguments: { id: "${b.id}" }, options: { provider: "${teamB}" } },
          },
        },
        outputs: { aId: "${a.id}", bId: "${b.id}", seenByB: "${seenByB.name}", statusSeenByB: "${seenByB.deploymentStatus}" },
      });
      stacks.push(stack);
      await stack.ok(["config", "set", "--secret", "keyA", keyA]);
      await stack.ok(["config", "set", "--secret", "keyB", keyB]);
      await stack.ok(["up", "--yes"]);
      const outputs = await stack.outputs();
      expect((await clientA.sources.get(outputs.aId as string)).attributes.name).toBe("Team A images");
      expect((await clientB.sources.get(outputs.bId as string)).attributes.name).toBe("Team B images");
      await expect(clientA.sources.get(outputs.bId as string)).rejects.toBeInstanceOf(NotFoundError);
      expect(outputs).toMatchObject({ seenByB: "Team B images", statusSeenByB: "deployed" });
      const exported = await stack.exportState();
      expect(exported).not.toContain(keyA);
      expect(exported).not.toContain(keyB);
      expect((await stack.pulumi(["preview", "--expect-no-changes"])).code).toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    "imports a whole account: `asset-delivery import --format pulumi-import` writes Pulumi's bulk file (managed Sources left out), `pulumi import --file` takes them in without a write",
    async () => {
      const stack = await yamlStack(
        "plugin-bulk",
        "e2e",
        {
          resources: {
            managed: {
              type: "assetdelivery:index:Source",
              properties: { name: "Bulk managed", deployment: { type: "webproxy", serviceSubdomains: ["plugin-bulk-managed"] } },
            },
          },
        },
        { credentials: { baseUrl: server.url, apiKey: keyB } },
      );
      stacks.push(stack);
      await stack.ok(["up", "--yes"]);
      const made: Source[] = [];
      for (const label of ["one", "two"]) {
        made.push(
          await clientB.sources.create({
            name: `Bulk ${label}`,
            deployment: { type: "webproxy", service_subdomains: [`plugin-bulk-${label}`] },
          }),
        );
      }
      const file = path.join(stack.workDir, "import.json");
      const cli = path.join(repoRoot(), "cli", "bin", "asset-delivery.js");
      const envVars = { ...process.env, ...pulumiEnv({ stateDir: path.join(stack.workDir, ".state") }) };
      const { stdout: report } = await run(
        process.execPath,
        [cli, "import", "--stack", "e2e", "--cwd", stack.workDir, "--filter", "name=Bulk", "--format", "pulumi-import", "--out", file],
        { env: envVars },
      );
      expect(report).toContain("Left out 1 matching Source");
      const written = JSON.parse(fs.readFileSync(file, "utf8")) as { resources: { type: string; name: string; id: string }[] };
      expect(written.resources.map((r) => [r.type, r.id]).sort()).toEqual(made.map((m) => ["assetdelivery:index:Source", m.id]).sort());

      server.resetRequestCount();
      await stack.ok(["import", "--file", file, "--yes", "--out", path.join(stack.workDir, "imported.yaml")]);
      expect(server.requestCount("PATCH")).toBe(0);
      expect(server.requestCount("POST")).toBe(0);
      const state = JSON.parse(await stack.exportState()) as {
        deployment: { resources: { type: string; id: string; urn: string; inputs: unknown }[] };
      };
      const imported = state.deployment.resources.filter((r) => made.some((m) => m.id === r.id));
      expect(imported).toHaveLength(2);
      // The rerun finds nothing new: the file's Sources and the stack's are left out.
      const again = await run(
        process.execPath,
        [cli, "import", "--stack", "e2e", "--cwd", stack.workDir, "--filter", "name=Bulk", "--format", "pulumi-import", "--out", file],
        { env: envVars },
      );
      expect(again.stdout).toContain("Nothing to import");
    },
    STEP_TIMEOUT,
  );

  it(
    "names a missing or bad setting of the provider",
    async () => {
      const stack = await yamlStack(
        "plugin-config",
        "e2e",
        {
          resources: {
            bad: { type: "pulumi:providers:assetdelivery", properties: { baseUrl: "not a url", apiKey: "k" } },
            s: source("Never made", "plugin-never-made", "bad"),
          },
        },
        { env: { ASSET_DELIVERY_BASE_URL: "", ASSET_DELIVERY_API_KEY: "" } },
      );
      stacks.push(stack);
      const result = await stack.pulumi(["preview"]);
      expect(result.code).not.toBe(0);
      expect(result.stdout + result.stderr).toMatch(/assetdelivery:baseUrl \(or ASSET_DELIVERY_BASE_URL\): must be an absolute http/);
    },
    STEP_TIMEOUT,
  );

  it(
    "publishes a schema the real CLI binds: per-type deployments, write-only fields secret, the five functions",
    async () => {
      const { stdout } = await run(
        path.join(pulumiBinDir(), "pulumi"),
        ["package", "get-schema", path.join(PLUGIN_BIN_DIR, "pulumi-resource-assetdelivery")],
        {
          env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
          maxBuffer: 16 * 1024 * 1024,
        },
      );
      const schema = JSON.parse(stdout);
      const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot(), "provider", "package.json"), "utf8")) as { version: string };
      expect(schema.version).toBe(manifest.version);
      const source = schema.resources["assetdelivery:index:Source"];
      expect(source.requiredInputs).toEqual(["name", "deployment"]);
      expect(source.inputProperties.deployment.discriminator.propertyName).toBe("type");
      expect(Object.keys(source.inputProperties.deployment.discriminator.mapping).sort()).toEqual([
        "azure",
        "gcs",
        "s3",
        "s3_compatible",
        "webfolder",
        "webproxy",
      ]);
      expect(source.properties.secureUrlToken.secret).toBe(true);
      expect(source.inputProperties.deploymentSecrets).toBeUndefined();
      // `enabled` as the sdk's field table has it, its default and description, input and output alike.
      const enabled = sourceAttributeDescriptors.find((field) => field.apiName === "enabled")!;
      expect(source.inputProperties.enabled).toEqual(source.properties.enabled);
      expect(source.inputProperties.enabled).toMatchObject({ default: enabled.default });
      expect(source.inputProperties.enabled.description).toContain(enabled.description);
      // apiKey, the one secret setting: secret as a config variable and an input, never an output.
      expect(schema.config.variables.apiKey.secret).toBe(true);
      expect(schema.provider.inputProperties.apiKey.secret).toBe(true);
      expect(schema.provider.properties.apiKey).toBeUndefined();
      const s3 = schema.types["assetdelivery:index:S3Deployment"];
      expect(s3.properties.s3SecretKey.secret).toBe(true);
      expect(s3.properties.uploadCredentials.secret).toBe(true);
      expect(s3.properties.s3AccessKey.secret).toBeUndefined();
      expect(s3.required).toEqual(expect.arrayContaining(["type", "serviceSubdomains", "s3AccessKey", "s3Bucket", "s3SecretKey"]));
      expect(schema.types["assetdelivery:index:WebfolderDeployment"].properties.password.secret).toBe(true);
      expect(schema.types["assetdelivery:index:S3CompatibleDeployment"].properties.secretKey.secret).toBe(true);
      expect(Object.keys(schema.functions).sort()).toEqual(
        ["getReport", "getReports", "getSource", "getSources", "getVideoJob"].map((f) => `assetdelivery:index:${f}`),
      );
      expect(schema.config.variables.apiKey.secret).toBe(true);
      expect(Object.keys(schema.language).sort()).toEqual(["go", "java", "nodejs", "python"]);
    },
    STEP_TIMEOUT,
  );

  it(
    "installs from its tarball into a fresh PULUMI_HOME and runs a YAML program outside the repo",
    async () => {
      const { stdout } = await run("bash", [path.join(repoRoot(), "tools", "package-plugin.sh"), "linux-amd64"], {
        maxBuffer: 16 * 1024 * 1024,
        timeout: STEP_TIMEOUT,
      });
      const tarball = stdout.trim().split("\n").pop()!;
      const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot(), "provider", "package.json"), "utf8")) as { version: string };
      expect(path.basename(tarball)).toBe(`pulumi-resource-assetdelivery-v${manifest.version}-linux-amd64.tar.gz`);

      const outside = fs.mkdtempSync(path.join(os.tmpdir(), "assetdelivery-plugin-user-"));
      const home = path.join(outside, "pulumi-home");
      const env = { PULUMI_HOME: home, PATH: [pulumiBinDir(), path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter) };
      const install = await runCli(["plugin", "install", "resource", "assetdelivery", manifest.version, "--file", tarball], outside, env);
      expect(install.code, install.stdout + install.stderr).toBe(0);
      expect(fs.readdirSync(path.join(home, "plugins"))).toContain(`resource-assetdelivery-v${manifest.version}`);

      const stack = await yamlStack(
        "plugin-user",
        "dev",
        {
          resources: {
            site: {
              type: "assetdelivery:index:Source",
              properties: { name: "Installed plugin", deployment: { type: "webproxy", serviceSubdomains: ["plugin-installed"] } },
            },
          },
          outputs: { id: "${site.id}", status: "${site.deploymentStatus}" },
        },
        { pluginPath: false, workDir: path.join(outside, "infra"), env, credentials: { baseUrl: server.url, apiKey: keyA } },
      );
      stacks.push(stack);
      await stack.ok(["up", "--yes"]);
      const outputs = await stack.outputs();
      expect(outputs.status).toBe("deployed");
      expect((await clientA.sources.get(outputs.id as string)).attributes.name).toBe("Installed plugin");
      await stack.ok(["destroy", "--yes"]);
      expect((await clientA.sources.get(outputs.id as string)).attributes.enabled).toBe(false);
      fs.rmSync(outside, { recursive: true, force: true });
    },
    STEP_TIMEOUT * 2,
  );
});
