// A refresh of a stack of 100 Sources shares list calls: a handful of requests, not 100. And a
// preview of the unchanged stack sends none.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/server";
import { programStack, removeStacksAndServer, TEST_PROGRAMS, type ProgramStack } from "../../support/program-stack";

const STEP_TIMEOUT = 300_000;
const COUNT = 100;

let server: TestServer;
let program: ProgramStack;

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  program = await programStack(path.join(TEST_PROGRAMS, "sources"), "many", { baseUrl: server.url, apiKey: server.adminKey });
  // More creates than the spec's hourly limit: this server does not limit, so neither does the client.
  await program.set({
    "assetdelivery:pacing": "false",
    sources: Object.fromEntries(
      Array.from({ length: COUNT }, (_, i) => [
        `proxy-${i}`,
        { name: `Proxy ${i}`, deployment: { type: "webproxy", serviceSubdomains: [`many-${i}`] } },
      ]),
    ),
  });
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: COUNT + 1 });
}, STEP_TIMEOUT);

afterAll(() => removeStacksAndServer({ stacks: [program], server }));

describe(`a stack of ${COUNT} Sources`, () => {
  it(
    "refreshes with at most 3 requests",
    async () => {
      server.resetRequestCount();
      const refresh = await program.stack.refresh();
      expect(refresh.summary.resourceChanges).toEqual({ same: COUNT + 1 });
      expect(server.requestCount()).toBeLessThanOrEqual(3);
      expect(server.requestCount("GET", "/api/v1/sources")).toBeGreaterThanOrEqual(1);
    },
    STEP_TIMEOUT,
  );

  it(
    "previews without a request",
    async () => {
      server.resetRequestCount();
      const preview = await program.stack.preview({ expectNoChanges: true });
      expect(preview.changeSummary).toEqual({ same: COUNT + 1 });
      expect(server.requestCount()).toBe(0);
    },
    STEP_TIMEOUT,
  );
});
