// The native provider object against a real server, without the engine: Cancel stops a wait at
// once, the resource's customTimeouts bound the wait and the Source is handed back as it is, and a
// preview asks nothing of the server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CancelledError, NativeProvider, PartialSourceError } from "../../provider/src/plugin/provider";
import { UNKNOWN } from "../../provider/src/plugin/wire";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;

beforeAll(async () => {
  // Deployments that take a minute: every wait below would last that long unless stopped.
  server = await startTestServer({ deployDelayMs: 60_000, deployLagMs: 0 });
});

afterAll(async () => {
  await server?.close();
});

async function configured(): Promise<NativeProvider> {
  const provider = new NativeProvider({});
  await provider.configure({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  return provider;
}

function inputs(subdomain: string) {
  const checked = new NativeProvider({}).check("assetdelivery:index:Source", {
    values: { name: "Slow", deployment: { type: "webproxy", serviceSubdomains: [subdomain], password: "origin-pass" } },
    secrets: [],
  });
  expect(checked.failures).toEqual([]);
  return checked.inputs;
}

describe("the native provider", () => {
  it("stops waiting for a deployment when the engine cancels", async () => {
    const provider = await configured();
    const started = Date.now();
    const create = provider.create(inputs("plugin-cancelled"), { preview: false, timeoutSeconds: 0 });
    setTimeout(() => provider.cancelWaits(), 500);
    await expect(create).rejects.toBeInstanceOf(CancelledError);
    expect(Date.now() - started).toBeLessThan(10_000);
    await provider.close();
  });

  it("bounds the wait by the resource's customTimeouts and hands the created Source back, its secret marked", async () => {
    const provider = await configured();
    const failure = await provider
      .create(inputs("plugin-timed-out"), { preview: false, timeoutSeconds: 2 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PartialSourceError);
    const partial = failure as PartialSourceError;
    expect(partial.id).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(partial.message).toContain("deploymentTimeoutSeconds");
    // The state records the declared option, not the bound.
    expect(partial.outputs.values).toMatchObject({ deploymentTimeoutSeconds: 300, deploymentStatus: "deploying" });
    expect(partial.outputs.secrets).toContainEqual(["deployment", "password"]);
    await provider.close();
  });

  it("previews a create with what the server decides unknown, sending nothing", async () => {
    const provider = await configured();
    server.resetRequestCount();
    const { id, outputs } = await provider.create(inputs("plugin-preview"), { preview: true, timeoutSeconds: 0 });
    expect(id).toBe("");
    expect(outputs.values).toMatchObject({ deploymentStatus: UNKNOWN, dateDeployed: UNKNOWN, name: "Slow" });
    expect(outputs.values.secureUrlToken).toBeUndefined(); // secure URLs are off: no token will come
    expect(server.requestCount()).toBe(0);
    await provider.close();
  });
});
