// examples/yaml-native run for real: its dev stack through the native plugin against a local server.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { pulumiWorkDir, repoRoot } from "../support/pulumi";
import { startTestServer, type TestServer } from "../support/server";
import { exampleDevStack, PLUGIN_BIN_DIR } from "./yaml-stack";

const STEP_TIMEOUT = 300_000;
let server: TestServer;
let client: AssetDeliveryClient;
let workDir: string;

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  // A copy, so that the stack's secrets never land in the repository; the plugin's folder made absolute.
  workDir = pulumiWorkDir("yaml-native-");
  fs.cpSync(path.join(repoRoot(), "examples", "yaml-native"), workDir, { recursive: true });
  const project = path.join(workDir, "Pulumi.yaml");
  fs.writeFileSync(project, fs.readFileSync(project, "utf8").replace("path: ../../provider/bin", `path: ${PLUGIN_BIN_DIR}`));
}, STEP_TIMEOUT);

afterAll(async () => {
  fs.rmSync(workDir, { recursive: true, force: true });
  await client?.close();
  await server?.close();
}, STEP_TIMEOUT);

describe("examples/yaml-native", () => {
  it(
    "deploys its dev stack with the password secret in the state and reads it back through the invoke",
    async () => {
      const cli = await exampleDevStack(workDir, { baseUrl: server.url, apiKey: server.adminKey }, "example-origin-password");
      await cli(["up", "--yes"]);
      const outputs = JSON.parse((await cli(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
      expect(outputs).toMatchObject({ status: "deployed", passwordSet: true });
      const source = await client.sources.get(outputs.photosId as string);
      expect(source.attributes.deployment).toMatchObject({ service_subdomains: ["yaml-native-photos-dev"], cache_ttl_value: 3600 });
      const exported = (await cli(["stack", "export"])).stdout;
      expect(exported).not.toContain("example-origin-password");
      expect(exported).not.toContain(server.adminKey);
      await cli(["preview", "--expect-no-changes"]);
      await cli(["destroy", "--yes"]);
    },
    STEP_TIMEOUT,
  );
});
