// Ctrl-C of a `pulumi up` on the native plugin, through the real CLI: the engine's Cancel reaches
// the plugin, whose wait for a deployment (here one that takes two minutes) ends at once; the run
// fails saying so, and the Source it had created is in the state, with the cancellation as its
// initialization error, rather than forgotten.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";
import { yamlStack, type YamlStack } from "./yaml-stack";

let server: TestServer;
let stack: YamlStack;

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 120_000, deployLagMs: 0 });
  const properties = { name: "Slow", deployment: { type: "webproxy", serviceSubdomains: ["plugin-ctrl-c"] } };
  stack = await yamlStack(
    "plugin-cancel",
    "dev",
    { resources: { slow: { type: "assetdelivery:index:Source", properties } } },
    { credentials: { baseUrl: server.url, apiKey: server.adminKey } },
  );
});

afterAll(async () => {
  await stack?.remove();
  await server?.close();
});

it("Ctrl-C ends an up waiting for a deployment at once, and the state records the Source it made", async () => {
  const up = stack.start(["up", "--yes", "--skip-preview"]);
  while (server.requestCount("POST", "/api/v1/sources") < 1) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // waiting for the deployment
  const interruptedAt = Date.now();
  up.interrupt();
  expect(await up.ended, up.output()).not.toBe(0);
  const output = up.output();
  expect(Date.now() - interruptedAt).toBeLessThan(10_000);
  expect(output).toContain("cancelled: the engine asked the provider to stop");

  const ids = (server.db.prepare("SELECT id FROM sources").all() as { id: string }[]).map((row) => row.id);
  expect(ids).toHaveLength(1);
  const { deployment } = JSON.parse(await stack.exportState()) as {
    deployment: { resources: { type: string; id?: string; initErrors?: string[] }[] };
  };
  const recorded = deployment.resources.filter((resource) => resource.type === "assetdelivery:index:Source");
  expect(recorded.map((resource) => resource.id)).toEqual(ids);
  expect(recorded[0]!.initErrors).toEqual([expect.stringMatching(/^cancelled: the engine asked the provider to stop/)]);
}, 300_000);
