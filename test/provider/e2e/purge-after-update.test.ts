// `purgeAfterUpdate` through the real Pulumi CLI against a real server, counted on the server (its
// purge records and the requests it answered): nothing on create, exactly one purge per listed path
// once a rendering change has deployed, a refused purge a warning that does not fail the update,
// nothing after a rename. One stack, three ups; the server's delivery domain is not the default,
// so the provider's `assetdelivery:deliveryDomain` is used end to end.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineEvent, UpResult } from "@pulumi/pulumi/automation";
import { createPurgeStore } from "@asset-delivery/server";
import { startTestServer, type TestServer } from "../../support/server";
import { programStack, removeStacksAndServer, TEST_PROGRAMS, type ProgramStack } from "../../support/program-stack";

const STEP_TIMEOUT = 180_000;
const DELIVERY_DOMAIN = "img.e2e.example";
// Long enough that the provider has to wait for the deployment before it may purge.
const DEPLOY_DELAY_MS = 1500;
const SUBDOMAIN = "e2e-purge";
const CUSTOM_DOMAIN = "e2e-purge.example.com";
const FOREIGN_URL = "https://elsewhere.example.org/c.jpg";

/** A Source as the test program's `sources` config declares it (plain JSON). */
interface Declared {
  name: string;
  deployment: Record<string, unknown>;
  purgeAfterUpdate: string[];
}

const purged: Declared = {
  name: "Purged",
  deployment: {
    type: "webfolder",
    serviceSubdomains: [SUBDOMAIN],
    customDomains: [CUSTOM_DOMAIN],
    webfolderBaseUrl: "https://origin.example.com/",
  },
  // A path (on the first service subdomain), a URL on a custom domain with a query (ignored by the
  // purge), and a URL on a host no Source of the account has, which the server refuses.
  purgeAfterUpdate: ["/a.jpg", `https://${CUSTOM_DOMAIN}/b.png?w=1`, FOREIGN_URL],
};

let server: TestServer;
let program: ProgramStack;
let sourceId: string;
// When each PATCH arrived, on the server's clock (which also stamps the purges).
const patchesArrivedAt: number[] = [];

const purgeRecords = () => createPurgeStore(server.db).listBySource(sourceId);

async function up(source: Declared): Promise<{ result: UpResult; warnings: string[] }> {
  await program.set({ sources: { purged: source } });
  const warnings: string[] = [];
  const onEvent = (event: EngineEvent) => {
    if (event.diagnosticEvent?.severity === "warning") warnings.push(event.diagnosticEvent.message);
  };
  server.resetRequestCount();
  return { result: await program.stack.up({ onEvent }), warnings };
}

beforeAll(async () => {
  server = await startTestServer({
    deployDelayMs: DEPLOY_DELAY_MS,
    deployLagMs: 0,
    deliveryDomain: DELIVERY_DOMAIN,
    configure(app) {
      app.addHook("onRequest", (request, _reply, done) => {
        if (request.method === "PATCH") patchesArrivedAt.push(Date.now());
        done();
      });
    },
  });
  program = await programStack(path.join(TEST_PROGRAMS, "sources"), "purge", { baseUrl: server.url, apiKey: server.adminKey });
  await program.set({ "assetdelivery:deliveryDomain": DELIVERY_DOMAIN });
}, STEP_TIMEOUT);

afterAll(() => removeStacksAndServer({ stacks: [program], server }));

describe("purgeAfterUpdate through pulumi", () => {
  it(
    "purges nothing on create",
    async () => {
      const { result, warnings } = await up(purged);
      expect(result.summary.resourceChanges).toEqual({ create: 2 });
      sourceId = (result.outputs.ids!.value as Record<string, string>).purged!;
      expect(server.requestCount("POST", "/api/v1/purge")).toBe(0);
      expect(purgeRecords()).toEqual([]);
      expect(warnings).toEqual([]);
    },
    STEP_TIMEOUT,
  );

  it(
    "purges each listed path once after a rendering change has deployed; a refused purge warns and the update succeeds",
    async () => {
      const { result, warnings } = await up({ ...purged, deployment: { ...purged.deployment, cacheTtlValue: 7200 } });
      expect(result.summary.result).toBe("succeeded");
      expect(result.summary.resourceChanges).toEqual({ update: 1, same: 1 });
      // Two accepted, one refused; none sent twice.
      expect(server.requestCount("POST", "/api/v1/purge")).toBe(3);
      const records = purgeRecords();
      expect(records.map((r) => r.url)).toEqual([`https://${SUBDOMAIN}.${DELIVERY_DOMAIN}/a.jpg`, `https://${CUSTOM_DOMAIN}/b.png`]);
      // The update's deployment cannot have finished before its PATCH arrived plus the deploy delay.
      expect(patchesArrivedAt).toHaveLength(1);
      for (const record of records) expect(record.createdAt).toBeGreaterThanOrEqual(patchesArrivedAt[0]! + DEPLOY_DELAY_MS);
      expect(warnings).toEqual([
        expect.stringMatching(
          new RegExp(
            `Source ${sourceId}: purging ${FOREIGN_URL.replaceAll(".", "\\.")} after the update failed \\(the update itself succeeded\\)`,
          ),
        ),
      ]);
    },
    STEP_TIMEOUT,
  );

  it(
    "purges nothing after a rename",
    async () => {
      const { result, warnings } = await up({
        ...purged,
        name: "Purged, renamed",
        deployment: { ...purged.deployment, cacheTtlValue: 7200 },
      });
      expect(result.summary.resourceChanges).toEqual({ update: 1, same: 1 });
      expect(patchesArrivedAt).toHaveLength(2);
      expect(server.requestCount("POST", "/api/v1/purge")).toBe(0);
      expect(purgeRecords()).toHaveLength(2);
      expect(warnings).toEqual([]);
    },
    STEP_TIMEOUT,
  );
});
