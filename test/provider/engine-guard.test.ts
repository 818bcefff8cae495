// No provider process outlives its engine. @pulumi/pulumi's real dynamic-provider host is started as
// the engine starts it (engine address as argument, stdio piped, a process group of its own), loads
// the Source provider through a Check call (which installs the guard), and must end within seconds
// of the engine going away, while staying for as long as the engine answers. And a write to a
// closed stderr must never start the host's EPIPE loop (engine-guard.ts).
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as grpc from "@grpc/grpc-js";
import * as structPb from "google-protobuf/google/protobuf/struct_pb";
import * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import { SERIALIZED_PROVIDER } from "../../provider/src/dynamic/serialized-provider";
import { repoRoot } from "../support/pulumi";

const HOST = require.resolve("@pulumi/pulumi/cmd/dynamic-provider");

/**
 * A stand-in for the engine's gRPC server: it answers the health checks the guard sends (SERVING),
 * each one recorded in `events` as it is answered.
 */
async function startEngine(events: string[]): Promise<{ address: string; server: grpc.Server; checked(count: number): Promise<void> }> {
  const server = new grpc.Server();
  const waiters: { count: number; resolve: () => void }[] = [];
  let checks = 0;
  const bytes = (value: Buffer) => value;
  server.addService(
    {
      Check: {
        path: "/grpc.health.v1.Health/Check",
        requestStream: false,
        responseStream: false,
        requestSerialize: bytes,
        requestDeserialize: bytes,
        responseSerialize: bytes,
        responseDeserialize: bytes,
      },
    },
    {
      Check: (_call: unknown, callback: (error: null, answer: Buffer) => void) => {
        events.push("health check answered");
        checks++;
        for (const waiter of waiters.filter((w) => checks >= w.count)) waiter.resolve();
        callback(null, Buffer.from([0x08, 0x01])); // HealthCheckResponse { status: SERVING }
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, p) => (error ? reject(error) : resolve(p))),
  );
  return {
    address: `127.0.0.1:${port}`,
    server,
    checked: (count) => new Promise((resolve) => (checks >= count ? resolve() : waiters.push({ count, resolve }))),
  };
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/** The dynamic-provider host as the engine runs it, with the Source provider loaded. */
async function startHost(engineAddress: string): Promise<ChildProcess> {
  const host = spawn(process.execPath, [HOST, engineAddress], { cwd: repoRoot(), stdio: ["pipe", "pipe", "pipe"], detached: true });
  children.push(host);
  const port = await new Promise<string>((resolve, reject) => {
    host.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    host.once("exit", (code) => reject(new Error(`the host ended (${code}) before listening`)));
  });
  const client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const request = new providerPb.CheckRequest()
    .setUrn("urn:pulumi:dev::guard::pulumi-nodejs:dynamic/assetdelivery:Source::s")
    .setOlds(structPb.Struct.fromJavaScript({}))
    .setNews(structPb.Struct.fromJavaScript({ __provider: SERIALIZED_PROVIDER, name: "S" }));
  // Any answer will do (the inputs are incomplete): the call loads the provider, and with it the guard.
  await new Promise((resolve) => client.check(request, () => resolve(undefined)));
  client.close();
  return host;
}

/** Records the host's end in `events`: resolves once it ends after "engine gone", rejects if it ends before. */
function watchHost(host: ChildProcess, events: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    host.once("exit", (code, signal) => {
      events.push("host exited");
      if (events.includes("engine gone")) resolve();
      else reject(new Error(`the host ended (${code ?? signal}) while its engine answered; events: ${events.join(", ")}`));
    }),
  );
}

// Ordering, not time: the host is alive through checks its engine answers, and it ends after the
// engine is gone, never before. How soon it ends is bounded by the test's timeout only (the guard
// checks every second); timings belong to benchmarks.
describe("the dynamic-provider host with the Source provider loaded", () => {
  it("stays while its engine answers its health checks, and ends once the engine is gone", async () => {
    const events: string[] = [];
    const engine = await startEngine(events);
    const host = await startHost(engine.address);
    const ended = watchHost(host, events);
    await Promise.race([engine.checked(3), ended]);

    events.push("engine gone");
    engine.server.forceShutdown();
    await ended;
    const answered = events.indexOf("engine gone");
    expect(answered).toBeGreaterThanOrEqual(3);
    expect(events).toEqual([...Array<string>(answered).fill("health check answered"), "engine gone", "host exited"]);
  }, 30_000);

  // Nothing writes to the closed stderr here, so no EPIPE loop can start: that loop, and the guard
  // that prevents it, are the test of "a write to a closed stderr" below.
  it("ends once the engine is killed with its stdio pipes closed, not before", async () => {
    const events: string[] = [];
    const engine = await startEngine(events);
    const host = await startHost(engine.address);
    const ended = watchHost(host, events);
    await Promise.race([engine.checked(1), ended]);
    // What a `kill -9` of the engine does: its ends of the pipes close, its port closes.
    events.push("engine gone");
    host.stdin!.destroy();
    host.stdout!.destroy();
    host.stderr!.destroy();
    engine.server.forceShutdown();
    await ended;
    expect(events.slice(-2)).toEqual(["engine gone", "host exited"]);
  }, 30_000);
});

describe("a write to a closed stderr", () => {
  it("never becomes an uncaught exception once the guard is installed (the host would write it to stderr again, forever)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-guard-"));
    const report = path.join(dir, "uncaught.json");
    // @pulumi/pulumi 3.270's cmd/dynamic-provider handlers, then warnings written to a stderr nobody reads.
    const script = `
      const fs = require("fs");
      const seen = new Set();
      process.on("uncaughtException", (err) => { if (!seen.has(err)) { seen.add(err); console.error(err.stack || String(err)); } });
      if (process.argv.at(-1) === "guarded") require(${JSON.stringify(path.join(repoRoot(), "provider", "dist", "engine", "engine-guard.js"))}).guardProviderProcess(undefined);
      setTimeout(() => console.warn("warning: one"), 300);
      setTimeout(() => console.warn("warning: two"), 800);
      setTimeout(() => { fs.writeFileSync(${JSON.stringify(report)}, JSON.stringify(seen.size)); process.exit(0); }, 2000);
    `;
    const run = async (mode: string) => {
      const child = spawn(process.execPath, ["-e", script, mode], { stdio: ["ignore", "pipe", "pipe"] });
      children.push(child);
      child.stdout.destroy();
      child.stderr.destroy();
      await exited(child);
      return JSON.parse(fs.readFileSync(report, "utf8")) as number;
    };
    try {
      // Without the guard: the loop this test exists for (thousands of errors in a second).
      expect(await run("bare")).toBeGreaterThan(100);
      expect(await run("guarded")).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe("the engine's SIGINT", () => {
  it("runs the task given to beforeEngineShutdown to its end, then ends the process as the signal would", async () => {
    // The task answers late (as a Log call to the engine does); the process must wait for it.
    const script = `
      require(${JSON.stringify(path.join(repoRoot(), "provider", "dist", "engine", "engine-guard.js"))})
        .beforeEngineShutdown(() => new Promise((resolve) => setTimeout(() => { console.log("estimate delivered"); resolve(); }, 500)));
      console.log("ready");
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    await new Promise<void>((resolve) => child.stdout.on("data", () => stdout.includes("ready") && resolve()));
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    child.kill("SIGINT");
    expect(await ended).toBe("SIGINT");
    expect(stdout).toContain("estimate delivered");
  }, 30_000);
});
