// examples/python-native run for real, as a user runs it: its dev stack's first
// `pulumi up` makes the virtual environment (the Python host creates Pulumi.yaml's `virtualenv` and
// installs requirements.txt: PyPI's pulumi, mypy and the SDK's wheel), type-checks, then deploys through the
// native plugin against a local server and reads the Source back through the getSource invoke.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { pulumiWorkDir, repoRoot } from "../support/pulumi";
import { startTestServer, type TestServer } from "../support/server";
import { exampleDevStack, PLUGIN_BIN_DIR } from "../plugin/yaml-stack";
import { installPythonVenv } from "./python-project";

const STEP_TIMEOUT = 300_000;
let server: TestServer;
let client: AssetDeliveryClient;
let workDir: string;

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  // A copy, so that the stack's secrets and the venv never land in the repository; the paths into
  // the repository (the plugin's folder, the SDK's) made absolute.
  workDir = pulumiWorkDir("python-native-");
  const example = path.join(repoRoot(), "examples", "python-native");
  for (const file of ["Pulumi.yaml", "Pulumi.dev.yaml", "Pulumi.prod.yaml", "__main__.py", "requirements.txt"])
    fs.copyFileSync(path.join(example, file), path.join(workDir, file));
  const rewrite = (file: string, from: string, to: string) => {
    const text = fs.readFileSync(path.join(workDir, file), "utf8");
    expect(text).toContain(from);
    fs.writeFileSync(path.join(workDir, file), text.replace(from, to));
  };
  rewrite("Pulumi.yaml", "path: ../../provider/bin", `path: ${PLUGIN_BIN_DIR}`);
  // The SDK as users get it: the wheel tools/install-python.sh builds (pip would build in sdks/python).
  installPythonVenv();
  const dist = path.join(repoRoot(), ".tools", "python", "dist");
  const wheel = fs.readdirSync(dist).find((file) => file.startsWith("pulumi_assetdelivery-") && file.endsWith(".whl"));
  rewrite("requirements.txt", "../../sdks/python", path.join(dist, wheel!));
}, STEP_TIMEOUT);

afterAll(async () => {
  fs.rmSync(workDir, { recursive: true, force: true });
  await client?.close();
  await server?.close();
}, STEP_TIMEOUT);

describe("examples/python-native", () => {
  it(
    "makes its venv on the first `pulumi up`, type-checks, deploys its dev stack with the password secret, and reads it back through the invoke",
    async () => {
      const cli = await exampleDevStack(workDir, { baseUrl: server.url, apiKey: server.adminKey }, "example-origin-password");
      expect(fs.existsSync(path.join(workDir, "venv"))).toBe(false);
      const up = await cli(["up", "--yes"]);
      expect(fs.existsSync(path.join(workDir, "venv", "bin", "python"))).toBe(true);
      expect(up.stdout + up.stderr).toContain("Success: no issues found in 1 source file"); // its typechecker: mypy
      const outputs = JSON.parse((await cli(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
      expect(outputs).toMatchObject({ status: "deployed", passwordSet: true });
      const source = await client.sources.get(outputs.photosId as string);
      expect(source.attributes).toMatchObject({ name: "Photos (dev)" });
      expect(source.attributes.deployment).toMatchObject({ service_subdomains: ["python-native-photos-dev"], cache_ttl_value: 3600 });
      const exported = (await cli(["stack", "export"])).stdout;
      expect(exported).not.toContain("example-origin-password");
      expect(exported).not.toContain(server.adminKey);
      await cli(["preview", "--expect-no-changes"]);
      await cli(["destroy", "--yes"]);
      expect((await client.sources.get(outputs.photosId as string)).attributes.enabled).toBe(false);
    },
    STEP_TIMEOUT,
  );
});
