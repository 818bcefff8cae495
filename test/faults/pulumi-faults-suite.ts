// `pulumi up` of 20 Sources through the real CLI against a server that fails 20% of API requests
// (500s, 429s, connections dropped before the handler or after the commit): the update converges
// without an error, exactly the 20 declared Sources exist (no duplicate from a create that was
// applied but never answered), and a following preview shows no change. The seeded choices may or
// may not drop the answer of a create, so the first successful create's answer is always dropped too.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Profile } from "@asset-delivery/server";
import { startTestServer, type TestServer } from "../support/server";
import { programStack, removeStacksAndServer, TEST_PROGRAMS, type ProgramStack } from "../support/program-stack";

const STEP_TIMEOUT = 300_000;
const COUNT = 20;
const FAULT_RATE = 0.2;

const declared = Object.fromEntries(
  Array.from({ length: COUNT }, (_, i) => [
    `faulty-${i}`,
    { name: `Faulty ${i}`, deployment: { type: "webproxy", serviceSubdomains: [`faulty-${i}`] } },
  ]),
);

/** The run, against a server answering in `profile` (server/src/http/profile.ts). */
export function pulumiFaultsSuite(profile: Profile): void {
  let server: TestServer;
  let program: ProgramStack;

  beforeAll(async () => {
    server = await startTestServer({
      profile,
      deployDelayMs: 0,
      deployLagMs: 0,
      faults: { rate: FAULT_RATE, seed: 2026 },
      dropCommittedAnswer: { method: "POST", path: "/api/v1/sources" },
    });
    program = await programStack(path.join(TEST_PROGRAMS, "sources"), "faults", { baseUrl: server.url, apiKey: server.adminKey });
    // The faults include 429s; the client's own pacing is beside the point here.
    await program.set({ "assetdelivery:pacing": "false", sources: declared });
  }, STEP_TIMEOUT);

  afterAll(() => removeStacksAndServer({ stacks: [program], server }));

  describe(`pulumi up of ${COUNT} Sources with ${FAULT_RATE * 100}% of requests failing (${profile} profile)`, () => {
    it(
      "converges without an error, creating each Source exactly once",
      async () => {
        const up = await program.stack.up();
        expect(up.summary.result).toBe("succeeded");
        expect(up.summary.resourceChanges).toEqual({ create: COUNT + 1 });

        const injected = server.app.injectedFaults;
        expect(
          Object.values(injected).reduce((sum, n) => sum + n, 0),
          JSON.stringify(injected),
        ).toBeGreaterThan(0);
        // The case the count below is about: at least one create landed and was never answered.
        expect(server.droppedAfterCommit("POST", "/api/v1/sources"), "creates answered by a dropped connection").toBeGreaterThan(0);

        const rows = server.db
          .prepare("SELECT name, json_extract(deployment, '$.service_subdomains[0]') AS subdomain FROM sources ORDER BY name")
          .all() as {
          name: string;
          subdomain: string;
        }[];
        expect(rows).toHaveLength(COUNT);
        expect(new Set(rows.map((row) => row.subdomain))).toEqual(new Set(Object.keys(declared)));
        for (const row of rows) expect(row.name).toBe(declared[row.subdomain]!.name);
        // The stack's ids are the server's ids.
        const ids = up.outputs.ids!.value as Record<string, string>;
        const serverIds = server.db.prepare("SELECT id FROM sources").pluck().all() as string[];
        expect(new Set(Object.values(ids))).toEqual(new Set(serverIds));
      },
      STEP_TIMEOUT,
    );

    it(
      "then previews no change",
      async () => {
        const preview = await program.stack.preview({ expectNoChanges: true });
        expect(preview.changeSummary).toEqual({ same: COUNT + 1 });
      },
      STEP_TIMEOUT,
    );
  });
}
