// A change larger than an hour's budget, through the real Pulumi CLI, for the dynamic provider and
// the native plugin: 100 Sources renamed in one program, against the emulator at the spec's limits
// (60 updates an hour) on a shortened hour (`rateLimitHourMs`, `serve --rate-limit-hour`), the
// client given the same window through `assetdelivery:pacing`. The preview warns of the count and
// the least time without a request; `up` with a `maxWait` shorter than the run says it waits, then
// stops with the budget's message, the state recording exactly the Sources the server updated; the
// next `up` finishes the rest with no 429 shown and no Source updated twice, and a preview after it
// shows no change. Both shells share one server (an account each: the limits are per account) and
// one set-up, and run side by side. The Sources do not wait for their deployments: the engine then
// sends the writes faster than the budget allows, as it would against the real hour.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limitsWithHour } from "@asset-delivery/sdk";
import { programStack, TEST_PROGRAMS, type ProgramStack } from "../support/program-stack";
import { startTestServer, type TestServer } from "../support/server";
import { runCli, yamlStack, type CliResult, type YamlStack } from "../plugin/yaml-stack";

/** More than the hour allows: 59 sent at once, then 41 at one a second, for longer than MAX_WAIT. */
const COUNT = 100;
/**
 * The shortened hour: 60 updates a minute, one a second after a burst of 59. The engine must send
 * writes faster than that for the budget to be what limits the run: on a busy 2-core machine it
 * sent 2 to 4 updates a second, so a 24-s hour (2.5 a second) never made the dynamic provider wait.
 */
const HOUR_MS = 60_000;
const MAX_WAIT = "20s";
const STEP_TIMEOUT = 600_000;
const PACING = JSON.stringify({ limits: limitsWithHour(HOUR_MS) });

interface Shell {
  name: string;
  /** `pulumi ARGS` on the stack, never throwing. */
  cli(args: string[]): Promise<CliResult>;
  setConfig(key: string, value: string): Promise<void>;
  removeConfig(key: string): Promise<void>;
  /** Declares the COUNT Sources with this version of their names. */
  declare(version: number): Promise<void>;
  /** The declared names in the state, by Source id. */
  stateNames(): Promise<Map<string, string>>;
  apiKey: string;
}

const names = (version: number) => Array.from({ length: COUNT }, (_, i) => `Budget ${i} v${version}`);

let dbDir: string;
let server: TestServer;
let dynamic: ProgramStack;
let native: YamlStack;
const shells: Shell[] = [];
/** Each request the server answered: its account's key, method, the Source of a PATCH, the status. */
const requests: { key: string; method: string; id?: string; status: number }[] = [];

async function startServer(rateLimits: "spec" | "off"): Promise<TestServer> {
  return startTestServer({
    dbPath: path.join(dbDir, "asset-delivery.db"),
    rateLimits,
    rateLimitHourMs: HOUR_MS,
    deployDelayMs: 0,
    deployLagMs: 0,
    configure(app) {
      app.addHook("onResponse", (request, reply, done) => {
        const match = /^\/api\/v1\/sources\/(\w+)$/.exec(request.url.split("?")[0]!);
        requests.push({
          key: request.headers.authorization ?? "",
          method: request.method,
          ...(request.method === "PATCH" && match && { id: match[1]! }),
          status: reply.statusCode,
        });
        done();
      });
    },
  });
}

beforeAll(async () => {
  dbDir = fs.mkdtempSync(path.join(os.tmpdir(), "hourly-budget-"));
  // The Sources are created with the limits off (creating them is not what is tested), then the
  // server restarts on the same database with the limits on.
  server = await startServer("off");
  const dynamicKey = server.accountKey(["Account Admin"], "dynamic");
  const nativeKey = server.accountKey(["Account Admin"], "native");
  const sources = (version: number) =>
    Object.fromEntries(
      names(version).map((name, i) => [
        `d${i}`,
        { name, deployment: { type: "webproxy", serviceSubdomains: [`budget-d${i}`] }, waitForDeployment: false },
      ]),
    );
  const resources = (version: number) =>
    Object.fromEntries(
      names(version).map((name, i) => [
        `n${i}`,
        {
          type: "assetdelivery:Source",
          properties: { name, deployment: { type: "webproxy", serviceSubdomains: [`budget-n${i}`] }, waitForDeployment: false },
        },
      ]),
    );
  dynamic = await programStack(path.join(TEST_PROGRAMS, "sources"), "budget", { baseUrl: server.url, apiKey: dynamicKey });
  native = await yamlStack("budget", "budget", { resources: resources(1) }, { credentials: { baseUrl: server.url, apiKey: nativeKey } });
  const stateNames = async (exported: string) => {
    const state = JSON.parse(exported) as { deployment: { resources: { type: string; id?: string; outputs: { name?: string } }[] } };
    return new Map(state.deployment.resources.filter((r) => r.type.endsWith("Source")).map((r) => [r.id!, r.outputs.name!]));
  };
  shells.push(
    {
      name: "dynamic provider",
      apiKey: dynamicKey,
      cli: (args) => runCli([...args, "--stack", "budget"], dynamic.workDir, dynamic.env),
      setConfig: (key, value) => dynamic.set({ [key]: value }),
      removeConfig: (key) => dynamic.stack.removeConfig(key),
      declare: (version) => dynamic.set({ sources: sources(version) }),
      stateNames: async () => stateNames(JSON.stringify(await dynamic.stack.exportStack())),
    },
    {
      name: "native plugin",
      apiKey: nativeKey,
      cli: (args) => native.pulumi(args),
      setConfig: async (key, value) => void (await native.ok(["config", "set", key, value])),
      removeConfig: async (key) => void (await native.ok(["config", "rm", key])),
      declare: async (version) => native.write({ resources: resources(version) }),
      stateNames: async () => stateNames(await native.exportState()),
    },
  );
  await shells[0]!.declare(1);
  await Promise.all(
    shells.map(async (shell) => {
      await shell.setConfig("assetdelivery:pacing", "false");
      const up = await shell.cli(["up", "--yes", "--skip-preview"]);
      expect(up.code, up.stdout + up.stderr).toBe(0);
    }),
  );
  await server.close({ keepData: true });
  server = await startServer("spec");
  for (const shell of shells) {
    await shell.setConfig("assetdelivery:baseUrl", server.url);
    await shell.setConfig("assetdelivery:pacing", PACING);
    await shell.declare(2);
  }
}, STEP_TIMEOUT);

afterAll(async () => {
  await dynamic?.remove();
  await native?.remove();
  await server?.close();
  if (dbDir) fs.rmSync(dbDir, { recursive: true, force: true });
});

/**
 * What the spec's limits give, worked out here rather than by the module under test: 60 updates an
 * hour, on the shortened hour 60 a minute; the client sends 59 at once (its bucket, one less than
 * the limit), then one every 60 s / 60 = 1 s, so the other 41 take 41 s.
 */
const LEAST_TIME = "41 s";

// The two shells side by side, each its steps in order: each spends its own account's budget, and
// the waits for it (wall-clock time, most of the run) pass for both at once.
describe.concurrent(`${COUNT} Sources renamed against 60 updates a minute`, () => {
  for (const index of [0, 1])
    describe(index === 0 ? "dynamic provider" : "native plugin", () => {
      const shell = () => shells[index]!;
      const ofShell = () => requests.filter((r) => r.key === `Bearer ${shell().apiKey}`);
      const sent = (status?: number) =>
        ofShell().filter((r) => r.method === "PATCH" && r.id !== undefined && (status === undefined || r.status === status));

      it.sequential(
        `${index === 0 ? "dynamic provider" : "native plugin"}: preview warns of ${COUNT} updates and the least time, sending nothing`,
        async () => {
          const before = ofShell().length;
          const preview = await shell().cli(["preview"]);
          expect(preview.code, preview.stdout + preview.stderr).toBe(0);
          expect(preview.stdout).toContain(
            `${COUNT} updates: at 60 per minute this update takes at least ${LEAST_TIME} (59 at once, then one every 1 s)`,
          );
          // Once, in the diagnostics (the display also shows it as it comes): both shells warn as the
          // engine ends their process.
          const estimates = preview.stdout.split("Diagnostics:")[1]!.match(/\d+ updates: at 60 per minute/g) ?? [];
          expect(estimates).toEqual([`${COUNT} updates: at 60 per minute`]);
          expect(ofShell().slice(before)).toEqual([]);
        },
        STEP_TIMEOUT,
      );

      it.sequential(
        `${index === 0 ? "dynamic provider" : "native plugin"}: up with maxWait shows progress, stops with the budget's message, the state recording exactly the updated Sources; the next up finishes with no 429 shown and no Source updated twice`,
        async () => {
          await shell().setConfig("assetdelivery:maxWait", MAX_WAIT);
          const started = Date.now();
          const stopped = await shell().cli(["up", "--yes"]);
          const firstMs = Date.now() - started;
          const output = stopped.stdout + stopped.stderr;
          expect(stopped.code, output).not.toBe(0);
          expect(output).toContain(`${COUNT} updates: at 60 per minute`); // up's own preview
          expect(output).toMatch(
            /waiting for the hourly update budget \(60 per minute\): \d+ updates sent, \d+ waiting; the next at \d\d:\d\d:\d\d UTC/,
          );
          expect(output).toMatch(
            /the hourly update budget is spent; at least \d+ writes remain; run `pulumi up` again after \d\d:\d\d UTC/,
          );
          const updated = new Set(sent(200).map((p) => p.id));
          expect(updated.size).toBeGreaterThanOrEqual(59);
          expect(updated.size).toBeLessThan(COUNT);
          const recorded = await shell().stateNames();
          const renamed = [...recorded].filter(([, name]) => name.endsWith(" v2")).map(([id]) => id);
          expect(new Set(renamed)).toEqual(updated);

          await shell().removeConfig("assetdelivery:maxWait");
          const resumedAt = Date.now();
          const finished = await shell().cli(["up", "--yes"]);
          const secondMs = Date.now() - resumedAt;
          expect(finished.code, finished.stdout + finished.stderr).toBe(0);
          expect(finished.stdout + finished.stderr).not.toMatch(/\b429\b|TooManyRequests|Rate limit exceeded/);
          // Every Source updated exactly once over the two runs; at most one request refused (the
          // second run's first look at a budget the first had spent).
          const ok = sent(200).map((p) => p.id);
          expect(ok).toHaveLength(COUNT);
          expect(new Set(ok).size).toBe(COUNT);
          expect(sent(429).length).toBeLessThanOrEqual(1);
          const final = await shell().stateNames();
          expect([...final.values()].sort()).toEqual(names(2).sort());

          const check = await shell().cli(["preview", "--expect-no-changes"]);
          expect(check.code, check.stdout + check.stderr).toBe(0);
          console.log(
            `${shell().name}: first up ${(firstMs / 1000).toFixed(1)} s (stopped after ${updated.size} updates), second up ${(secondMs / 1000).toFixed(1)} s; ` +
              `least time at the limits 41 s; 429s ${sent(429).length}`,
          );
        },
        STEP_TIMEOUT,
      );
    });
});
