// examples/go-native run for real: its dev stack, built by our Go language host, through the
// generated Go SDK and the native plugin against a local server.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { exampleCopy, pulumiEnv } from "../support/pulumi";
import { startTestServer, type TestServer } from "../support/server";
import { PLUGIN_BIN_DIR, runCli } from "../plugin/yaml-stack";
import { GO_SDK_DIR, prepareGoSdk } from "./go-project";

const STEP_TIMEOUT = 300_000;
let server: TestServer;
let client: AssetDeliveryClient;
let workDir: string;

beforeAll(async () => {
  prepareGoSdk();
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  workDir = exampleCopy("go-native", [
    { file: "Pulumi.yaml", from: "path: ../../provider/bin", to: `path: ${PLUGIN_BIN_DIR}` },
    { file: "go.mod", from: "=> ../../sdks/go", to: `=> ${GO_SDK_DIR}` },
  ]);
}, 900_000);

afterAll(async () => {
  fs.rmSync(workDir, { recursive: true, force: true });
  await client?.close();
  await server?.close();
}, STEP_TIMEOUT);

describe("examples/go-native", () => {
  it(
    "deploys its dev stack with the secrets encrypted in the state and reads the Source back through the invoke",
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
      await cli(["config", "set", "--secret", "originPassword", "go-example-origin-password"]);
      await cli(["up", "--yes"]);
      const outputs = JSON.parse((await cli(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
      expect(outputs).toMatchObject({ status: "deployed", passwordSet: true });
      const source = await client.sources.get(outputs.photosId as string);
      expect(source.attributes).toMatchObject({ name: "Photos (dev)" });
      expect(source.attributes.deployment).toMatchObject({ service_subdomains: ["go-native-photos-dev"], cache_ttl_value: 3600 });
      const exported = (await cli(["stack", "export"])).stdout;
      expect(exported).not.toContain("go-example-origin-password");
      expect(exported).not.toContain(server.adminKey);
      await cli(["destroy", "--yes"]);
      expect((await client.sources.get(outputs.photosId as string)).attributes.enabled).toBe(false);
    },
    STEP_TIMEOUT,
  );
});
