// examples/yaml-native run for real: its dev stack through the native plugin against a local server.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { exampleCopy, pulumiEnv } from "../support/pulumi";
import { startTestServer, type TestServer } from "../support/server";
import { PLUGIN_BIN_DIR, runCli } from "./yaml-stack";

const STEP_TIMEOUT = 300_000;
let server: TestServer;
let client: AssetDeliveryClient;
let workDir: string;

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  workDir = exampleCopy("yaml-native", [{ file: "Pulumi.yaml", from: "path: ../../provider/bin", to: `path: ${PLUGIN_BIN_DIR}` }]);
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
      const env = pulumiEnv({ stateDir: path.join(workDir, ".state") });
      const cli = async (args: string[]) => {
        const result = await runCli([...args, "--stack", "dev"], workDir, env);
        expect(result.code, `pulumi ${args.join(" ")}\n${result.stdout}\n${result.stderr}`).toBe(0);
        return result;
      };
      await runCli(["stack", "init", "dev"], workDir, env);
      await cli(["config", "set", "baseUrl", server.url]);
      await cli(["config", "set", "--secret", "apiKey", server.adminKey]);
      await cli(["config", "set", "--secret", "originPassword", "example-origin-password"]);
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
