// The provider object (core/provider.ts): it owns its configuration and its connections, so two
// of them in one process (two stacks' providers, or the plugin's explicit providers for two
// accounts) never see each other's; it needs no configuration to check and diff, and names what is
// missing when an operation needs the API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSourceProvider, type SourceProvider } from "../../provider/src/core/provider";
import { engineAddress } from "../../provider/src/engine/engine-log";
import { MissingSettingsError } from "../../provider/src/core/settings";
import { checkedSource } from "../support/checked-source";
import { startTestServer, type TestServer } from "../support/server";

let first: TestServer;
let second: TestServer;
const warnings: string[] = [];
const providers: SourceProvider[] = [];

function providerFor(server: TestServer | undefined): SourceProvider {
  const provider = createSourceProvider({ warn: async (message) => void warnings.push(message), env: {} });
  const config: Record<string, string> = server ? { baseUrl: server.url, apiKey: server.adminKey } : {};
  provider.configure((name) => config[name]);
  providers.push(provider);
  return provider;
}

const photos = (subdomain: string) =>
  checkedSource({
    name: "Photos",
    deployment: { type: "webfolder", serviceSubdomains: [subdomain], webfolderBaseUrl: "https://origin.example.com/" },
    deploymentSecrets: {},
  });

beforeAll(async () => {
  [first, second] = await Promise.all([
    startTestServer({ deployDelayMs: 0, deployLagMs: 0 }),
    startTestServer({ deployDelayMs: 0, deployLagMs: 0 }),
  ]);
});
afterAll(async () => {
  await Promise.all(providers.map((provider) => provider.close()));
  await Promise.all([first?.close(), second?.close()]);
});

describe("the provider object", () => {
  it("keeps its own configuration: two providers in one process write to their own servers", async () => {
    const one = providerFor(first);
    const other = providerFor(second);
    first.resetRequestCount();
    second.resetRequestCount();
    const created = await one.create(photos("provider-one"));
    const createdElsewhere = await other.create(photos("provider-other"));
    expect(first.requestCount("POST")).toBe(1);
    expect(second.requestCount("POST")).toBe(1);
    expect((await one.read(created.id, created.outs)).id).toBe(created.id);
    // The other server has no such Source: gone, as far as that provider knows.
    expect(await other.read(created.id, created.outs)).toEqual({ id: "", props: {} });
    await one.delete(created.id);
    expect(warnings).toEqual([expect.stringContaining(`Source ${created.id} ("Photos") was retired, not deleted`)]);
    expect((await other.read(createdElsewhere.id, createdElsewhere.outs)).props).toMatchObject({ enabled: true });
  });

  it("checks and diffs without configuration, and names the missing settings when an operation needs the API", async () => {
    const unconfigured = providerFor(undefined);
    const inputs = photos("provider-none");
    expect(unconfigured.check({ ...inputs }).failures).toEqual([]);
    await expect(unconfigured.create(inputs)).rejects.toBeInstanceOf(MissingSettingsError);
    await expect(unconfigured.create(inputs)).rejects.toThrow(/the API address .* and the API key/);
  });

  it("finds the engine's address among a provider process's arguments, the last one", () => {
    expect(engineAddress(["node", "provider.js", "--flag", "127.0.0.1:4100"])).toBe("127.0.0.1:4100");
    expect(engineAddress(["node", "provider.js", "localhost:1", "127.0.0.1:4100"])).toBe("127.0.0.1:4100");
    expect(engineAddress(["node", "provider.js"])).toBeUndefined();
  });
});
