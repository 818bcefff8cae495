// The app's guarantees at build time and in failure: every API route declares a permission, a 5xx
// hides its cause from the client but logs it under the request id, keys never reach the log.
import { Writable } from "node:stream";
import { buildApp, createAccount, createKey, defineRoute, openMigratedDatabase, type AppOptions } from "@asset-delivery/server";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function appWith(options: Partial<AppOptions> = {}) {
  const db = openMigratedDatabase(":memory:");
  closers.push(async () => db.close());
  const app = await buildApp({ db, dataDir: ".", deployDelayMs: 10, rateLimits: "off", secretKey: Buffer.alloc(32, 7), ...options });
  closers.push(() => app.close());
  return { app, db };
}

function logSink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logger: { level: "info", stream } };
}

describe("app", () => {
  it("refuses to start when an API route declares no permission", async () => {
    const { app } = await appWith();
    expect(() => app.get("/api/v1/unguarded", async () => ({ ok: true }))).toThrow(/GET \/api\/v1\/unguarded declares no permission/);
    // Inside a plugin, the same refusal makes startup fail.
    const second = (await appWith()).app;
    second.register(async (scope) => {
      scope.post("/v1/unguarded", async () => ({ ok: true }));
    });
    await expect(second.ready()).rejects.toThrow(/POST \/v1\/unguarded declares no permission/);
  });

  it("answers a failure with a 500 that hides its cause, logged with the request id", async () => {
    const sink = logSink();
    const { app, db } = await appWith({ logger: sink.logger });
    defineRoute(app, {
      route: { method: "GET", path: "/api/v1/explode", endpointClass: "default" },
      permission: "any",
      response: z.unknown(),
      status: 200,
      summary: "fails on purpose",
      handler() {
        throw new Error("database password is hunter2");
      },
    });
    createAccount(db, { name: "boom" });
    const { key } = createKey(db, { account: "boom", permissions: ["Purge"] });
    const response = await app.inject({ method: "GET", url: "/api/v1/explode", headers: { authorization: `Bearer ${key}` } });
    expect(response.statusCode).toBe(500);
    const error = response.json().errors[0];
    expect(error).toMatchObject({ status: "500", title: "InternalServerError", id: response.headers["x-request-id"] });
    expect(error.detail).toContain(response.headers["x-request-id"]);
    expect(response.body).not.toContain("hunter2");
    const logged = sink.lines.map((line) => JSON.parse(line)).find((entry) => entry.err?.message?.includes("hunter2"));
    expect(logged).toMatchObject({ reqId: response.headers["x-request-id"], level: 50 });
    expect(sink.lines.join("\n")).not.toContain(key);
  });

  it("rejects a secret key that is not 32 bytes", async () => {
    await expect(appWith({ secretKey: Buffer.alloc(16) })).rejects.toThrow(/32 bytes/);
  });
});
