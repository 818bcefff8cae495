// The server survives garbage collection while idle on the primary runtime. better-sqlite3 before
// 13 aborted the process on Node >= 24.19 (`Assertion failed: (env) != nullptr` in
// RemoveEnvironmentCleanupHook, from Statement::~Statement) when a collection outside any request
// finalized a dropped statement. Here `serve` runs with a full collection every 20 ms, run by V8 as a
// task of its own outside any JavaScript call (with better-sqlite3 12.6.2 it aborts at once), while
// requests create and drop statements (list queries with new filter and sort combinations), then
// idles, then must still answer.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest } from "../support/server";
import { createServeData, startServeProcess, type ServeData, type ServeProcess } from "../support/serve-process.cjs";

const GC_OFTEN = path.join(__dirname, "fixtures", "collect-garbage-often.cjs");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("serve under idle garbage collection", () => {
  let data: ServeData;
  let serve: ServeProcess;

  beforeAll(async () => {
    data = createServeData("asset-delivery-idle-gc-");
    serve = await startServeProcess(data.dbPath, ["--rate-limits", "off"], { env: { NODE_OPTIONS: `--expose-gc --require ${GC_OFTEN}` } });
  });
  afterAll(async () => {
    await serve?.stop();
    data?.remove();
  });

  it("keeps answering after statements are dropped and collected between requests", async () => {
    const get = (query: string) => apiRequest(`${serve.url}/api/v1/sources?${query}`, { key: data.adminKey });
    const sorts = ["name", "-name", "enabled", "-date_deployed", "name,-enabled"];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 40; i++) {
        const response = await get(`filter[name]=n${round}-${i}&sort=${sorts[i % sorts.length]}&page[size]=${1 + (i % 7)}`);
        expect(response.status).toBe(200);
      }
      await sleep(1_500); // idle: ~75 collections with no request in flight
      expect(serve.child.exitCode, serve.output()).toBeNull();
    }
    const after = await get("page[size]=5");
    expect(after.status).toBe(200);
    expect(serve.child.exitCode, serve.output()).toBeNull();
    expect(serve.child.signalCode, serve.output()).toBeNull();
  }, 60_000);
});
