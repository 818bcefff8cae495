// examples/go-native run for real: its dev stack, built by our Go language host, through the
// generated Go SDK and the native plugin against a local server.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { pulumiWorkDir, repoRoot } from "../support/pulumi";
import { startTestServer, type TestServer } from "../support/server";
import { exampleDevStack, PLUGIN_BIN_DIR } from "../plugin/yaml-stack";
import { GO_SDK_DIR, prepareGoSdk } from "./go-project";

const STEP_TIMEOUT = 300_000;
let server: TestServer;
let client: AssetDeliveryClient;
let workDir: string;

beforeAll(async () => {
  prepareGoSdk();
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  // A copy, so that the stack's secrets never land in the repository; the paths into the
  // repository (the plugin's folder, the SDK's module) made absolute.
  workDir = pulumiWorkDir("go-native-");
  fs.cpSync(path.join(repoRoot(), "examples", "go-native"), workDir, { recursive: true });
  for (const [file, from, to] of [
    ["Pulumi.yaml", "path: ../../provider/bin", `path: ${PLUGIN_BIN_DIR}`],
    ["go.mod", "=> ../../sdks/go", `=> ${GO_SDK_DIR}`],
  ] as const) {
    const text = fs.readFileSync(path.join(workDir, file), "utf8");
    expect(text).toContain(from);
    fs.writeFileSync(path.join(workDir, file), text.replace(from, to));
  }
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
      const cli = await exampleDevStack(workDir, { baseUrl: server.url, apiKey: server.adminKey }, "go-example-origin-password");
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
