// Fault injection (server/src/http/faults.ts): off by default; when on, a seeded share of API
// requests answers 500 or 429 (Retry-After: 1) or loses its connection before or after the handler
// commits, and what the client observes matches what the server says it injected.
import { describe, expect, it } from "vitest";
import { buildApp, openDatabase, FAULT_KINDS } from "@asset-delivery/server";
import { apiRequest, startTestServer, type ApiResponse, type TestServer } from "../support/server";
import { createDocument, minimalDeployment, uniqueLabel } from "./fixtures";

type Outcome = { kind: "response"; response: ApiResponse } | { kind: "dropped" };

async function attempt(call: () => Promise<ApiResponse>): Promise<Outcome> {
  try {
    return { kind: "response", response: await call() };
  } catch (error) {
    // fetch rejects with "fetch failed" when the socket closes without an answer.
    expect((error as Error).message).toMatch(/fetch failed/);
    return { kind: "dropped" };
  }
}

function statusesOf(outcomes: Outcome[]): (number | "dropped")[] {
  return outcomes.map((outcome) => (outcome.kind === "dropped" ? "dropped" : outcome.response.status));
}

function sourceCount(server: TestServer): number {
  return server.db.prepare("SELECT count(*) FROM sources").pluck().get() as number;
}

async function getMany(server: TestServer, count: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let i = 0; i < count; i++) outcomes.push(await attempt(() => apiRequest(`${server.url}/api/v1/sources`, { key: server.adminKey })));
  return outcomes;
}

describe("fault injection", () => {
  it("is off by default: every request is answered normally, and the app has no fault plugin", async () => {
    const server = await startTestServer();
    try {
      expect(statusesOf(await getMany(server, 30))).toEqual(Array(30).fill(200));
      expect(server.app.hasDecorator("injectedFaults")).toBe(false);
    } finally {
      await server.close();
    }
  });

  it("at rate 1 fails every API request, each failure as the server counted it; drops after commit keep the write", async () => {
    const server = await startTestServer({ faults: { rate: 1, seed: 7 } });
    try {
      const outcomes: Outcome[] = [];
      for (let i = 0; i < 40; i++) {
        const body = createDocument({ name: `faulty ${i}`, deployment: minimalDeployment("webfolder", uniqueLabel("fault")) });
        outcomes.push(await attempt(() => apiRequest(`${server.url}/api/v1/sources`, { method: "POST", key: server.adminKey, body })));
      }
      const injected = server.app.injectedFaults;
      for (const kind of FAULT_KINDS) expect(injected[kind], kind).toBeGreaterThan(0);

      const responses = outcomes.flatMap((o) => (o.kind === "response" ? [o.response] : []));
      const serverErrors = responses.filter((r) => r.status === 500);
      const rateLimited = responses.filter((r) => r.status === 429);
      expect(serverErrors.length + rateLimited.length).toBe(responses.length);
      expect(serverErrors.length).toBe(injected["server-error"]);
      expect(rateLimited.length).toBe(injected["rate-limited"]);
      for (const r of serverErrors) expect(r.body.errors[0]).toMatchObject({ status: "500", title: "InternalServerError" });
      for (const r of rateLimited) {
        expect(r.headers.get("retry-after")).toBe("1");
        expect(r.body.errors[0]).toMatchObject({ status: "429", title: "TooManyRequests" });
      }
      expect(outcomes.length - responses.length).toBe(injected["drop-before-handler"] + injected["drop-after-commit"]);
      // Only the requests dropped after the handler ran wrote anything.
      expect(sourceCount(server)).toBe(injected["drop-after-commit"]);
    } finally {
      await server.close();
    }
  });

  it("fails a seeded share of requests, the same ones for the same seed and request order", async () => {
    const runs: (number | "dropped")[][] = [];
    for (let run = 0; run < 2; run++) {
      const server = await startTestServer({ faults: { rate: 0.2, seed: 42 } });
      try {
        runs.push(statusesOf(await getMany(server, 200)));
      } finally {
        await server.close();
      }
    }
    expect(runs[1]).toEqual(runs[0]);
    const failed = runs[0]!.filter((status) => status !== 200).length;
    expect(failed).toBeGreaterThan(200 * 0.1);
    expect(failed).toBeLessThan(200 * 0.3);
  });

  it("leaves requests outside the API alone (the OpenAPI document, unauthenticated calls)", async () => {
    const server = await startTestServer({ faults: { rate: 1, seed: 1 } });
    try {
      for (let i = 0; i < 10; i++) {
        expect((await apiRequest(`${server.url}/openapi.json`)).status).toBe(200);
        expect((await apiRequest(`${server.url}/api/v1/sources`)).status).toBe(401);
      }
      expect(Object.values(server.app.injectedFaults)).toEqual([0, 0, 0, 0]);
    } finally {
      await server.close();
    }
  });

  it("refuses a rate outside 0..1 or a seed that is not an integer, naming the option", async () => {
    const base = { db: openDatabase(":memory:"), dataDir: ".", deployDelayMs: 0, rateLimits: "off" as const, secretKey: Buffer.alloc(32) };
    await expect(buildApp({ ...base, faults: { rate: 1.5, seed: 1 } })).rejects.toThrow(/faults\.rate: must be a number from 0 to 1/);
    await expect(buildApp({ ...base, faults: { rate: 0.2, seed: 0.5 } })).rejects.toThrow(/faults\.seed: must be an integer/);
    base.db.close();
  });
});
