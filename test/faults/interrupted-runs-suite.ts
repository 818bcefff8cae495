// A pipeline killed mid-run recovers with Pulumi's own commands (docs/interrupted-runs.md). The
// real CLI runs in a process group of its own and is killed with `kill -9` on the whole group at
// several points of an `up` that creates Sources, an `up` that renames every Source and a
// `destroy`; then the documented recovery runs. After it: the command succeeded, the server holds
// exactly one Source per declared Source, `preview --expect-no-changes` passes, and within seconds
// of each kill no process of the killed run is left (the provider's, which the engine starts in a
// process group of its own, included). Also: a stack copied from this one, with the same
// hostnames, is still refused and leaves the Sources untouched; and the server stopped for 30 s in
// the middle of an `up`. For each shell of the provider: the dynamic Source in a TypeScript
// program, and the native plugin's `assetdelivery:index:Source` in a YAML program. Its describes
// are sequential, so that a file can run two suites side by side (describe.concurrent), each in order.
// Its way of running and killing the CLI is shared with the shared-backend tests (test/teams/).
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Profile } from "@asset-delivery/server";
import { SOURCE_TOKEN } from "../../provider/src/tokens";
import { SOURCE_RESOURCE_TYPE } from "../../provider/src/dynamic/serialized-provider";
import { pulumiBinDir } from "../support/pulumi";
import { programStack, TEST_PROGRAMS } from "../support/program-stack";
import { startTestServer, type TestServer } from "../support/server";
import { yamlStack } from "../plugin/yaml-stack";

const STEP_TIMEOUT = 240_000;
const COUNT = 5;
/** How long the processes of a killed run may take to end. */
const ORPHAN_GRACE_MS = 8_000;
/** How long the server is down in the middle of a run. */
const OUTAGE_MS = 30_000;

interface Row {
  id: string;
  name: string;
  enabled: number;
  subdomain: string;
  annotation: string;
}

function declared(prefix: string, round: number): Record<string, unknown> {
  return Object.fromEntries(
    Array.from({ length: COUNT }, (_, i) => [
      `${prefix}-${i}`,
      { name: `Source ${i} round ${round}`, deployment: { type: "webproxy", serviceSubdomains: [`${prefix}-${i}`] } },
    ]),
  );
}

/** Every process below `pid` (its children, theirs, ...), from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Alive and not a zombie. */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
  } catch {
    return "";
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface CliResult {
  code: number | null;
  output: string;
}

/** Which shell of the provider the stack's Sources run in. */
export type Shell = "dynamic" | "native";

/** A stack whose runs are killed: its declared Sources set by `declare`, its commands run by the CLI directly. */
export interface KilledStack {
  name: string;
  workDir: string;
  env: Record<string, string>;
  /** The project, whose folder holds the checkpoint in the file backend. */
  project: string;
  /** The Source's resource type in the state. */
  sourceType: string;
  /**
   * A language host of Pulumi's own that watches its engine only every five minutes (rpcutil.Healthcheck):
   * it may outlive the kill, idle; every other process, the provider's above all, must end within ORPHAN_GRACE_MS.
   */
  slowHost?: RegExp;
  /** The provider's processes, by their command line. */
  provider: RegExp;
  declare(sources: Record<string, unknown>): Promise<void>;
  remove(): Promise<void>;
}

const DYNAMIC_PROJECT = "provider-e2e-sources";
/** The dynamic Source's provider: @pulumi/pulumi's dynamic-provider host, its shell wrapper and `node …/cmd/dynamic-provider`. */
export const DYNAMIC_PROVIDER = /pulumi-resource-pulumi-nodejs|[\\/]cmd[\\/]dynamic-provider/;
const NATIVE_PROJECT = "plugin-interrupted";

/** The test program `sources` (TypeScript, the dynamic Source), its Sources from the stack's config. */
async function dynamicStack(name: string, credentials: { baseUrl: string; apiKey: string }): Promise<KilledStack> {
  const program = await programStack(path.join(TEST_PROGRAMS, "sources"), name, credentials);
  await program.set({ "assetdelivery:pacing": "false" });
  return {
    name,
    workDir: program.workDir,
    env: program.env,
    project: DYNAMIC_PROJECT,
    sourceType: SOURCE_RESOURCE_TYPE,
    provider: DYNAMIC_PROVIDER,
    declare: (sources) => program.set({ sources }),
    remove: () => program.remove(),
  };
}

/** A YAML program on the native plugin, rewritten with the Sources declared. */
async function nativeStack(name: string, credentials: { baseUrl: string; apiKey: string }): Promise<KilledStack> {
  const stack = await yamlStack(NATIVE_PROJECT, name, {}, { credentials });
  await stack.ok(["config", "set", "assetdelivery:pacing", "false"]);
  return {
    name,
    workDir: stack.workDir,
    env: stack.env,
    project: NATIVE_PROJECT,
    sourceType: SOURCE_TOKEN,
    // pulumi-yaml v1.25.0's cmd/pulumi-language-yaml/main.go: rpcutil.Healthcheck(ctx, engineAddress, 5*time.Minute, cancel).
    slowHost: /\/pulumi-language-yaml /,
    provider: /\/pulumi-resource-assetdelivery /,
    declare: async (sources) =>
      stack.write({
        resources: Object.fromEntries(Object.entries(sources).map(([key, properties]) => [key, { type: SOURCE_TOKEN, properties }])),
      }),
    remove: () => stack.remove(),
  };
}

/** A `pulumi` command of the stack, in a process group of its own as a CI job runs it. */
export function startPulumi(program: KilledStack, args: string[]) {
  const child = spawn(path.join(pulumiBinDir(), "pulumi"), [...args, "--stack", program.name, "--non-interactive"], {
    cwd: program.workDir,
    env: { ...process.env, ...program.env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<CliResult>((resolve) => child.on("close", (code) => resolve({ code, output })));
  return { child, done };
}

export async function pulumi(program: KilledStack, ...args: string[]): Promise<CliResult> {
  return startPulumi(program, args).done;
}

export async function succeeds(program: KilledStack, ...args: string[]): Promise<string> {
  const result = await pulumi(program, ...args);
  expect(result.code, `pulumi ${args.join(" ")}:\n${result.output}`).toBe(0);
  return result.output;
}

/** CPU time a process has used (clock ticks), from /proc; 0 once it has ended. */
function cpuTicks(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(fields[11]) + Number(fields[12]); // utime, stime
  } catch {
    return 0;
  }
}

export interface Killed {
  /** The provider's processes the run had when it was killed. */
  providers: string[];
  /** Processes of the run still running ORPHAN_GRACE_MS after the kill, besides the stack's idle language host. */
  left: string[];
  /** Processes of the run (the idle language host included) that used CPU in the second after that. */
  busy: string[];
  output: string;
}

/**
 * Runs `args` and kills its whole process group with SIGKILL once `when` holds; returns the
 * processes of the run that outlived the kill by ORPHAN_GRACE_MS, and those still using CPU then (none expected).
 */
export async function killWhen(program: KilledStack, args: string[], when: () => boolean): Promise<Killed> {
  const run = startPulumi(program, args);
  const deadline = Date.now() + 120_000;
  let finished = false;
  void run.done.then(() => (finished = true));
  while (!when()) {
    if (finished) throw new Error(`pulumi ${args.join(" ")} ended before the kill point:\n${(await run.done).output}`);
    if (Date.now() > deadline) throw new Error(`pulumi ${args.join(" ")}: the kill point never came`);
    await sleep(20);
  }
  const processes = descendants(run.child.pid!);
  const commands = new Map(processes.map((pid) => [pid, commandLine(pid)]));
  process.kill(-run.child.pid!, "SIGKILL");
  const { output } = await run.done;
  const killedAt = Date.now();
  const awaited = processes.filter((pid) => !program.slowHost?.test(commands.get(pid)!));
  while (awaited.some(running) && Date.now() - killedAt < ORPHAN_GRACE_MS) await sleep(100);
  const describe = (pid: number) => `${pid} ${commands.get(pid)}`;
  const left = awaited.filter(running).map(describe);
  const remaining = processes.filter(running);
  const ticks = new Map(remaining.map((pid) => [pid, cpuTicks(pid)]));
  if (remaining.length > 0) await sleep(1_000);
  // More than 5 ticks (50 ms of CPU) in a second: a loop, not a process waiting for its health check.
  const busy = remaining.filter((pid) => running(pid) && cpuTicks(pid) - ticks.get(pid)! > 5).map(describe);
  for (const pid of processes.filter(running)) process.kill(pid, "SIGKILL"); // not to leave them to the next test
  const providers = processes.map(describe).filter((text) => program.provider.test(text));
  return { providers, left, busy, output };
}

/**
 * Nothing of the killed run left, and nothing spinning (the processes of a killed destroy once did).
 * Every kill comes after the provider has sent a request, so its processes were among the run's.
 */
export function expectNothingLeft(killed: Killed): void {
  expect(killed.providers, "the provider's processes at the kill").not.toEqual([]);
  expect(killed.left, "processes of the killed run still running").toEqual([]);
  expect(killed.busy, "processes of the killed run using CPU").toEqual([]);
}

/** The ids of the Sources the stack's state holds. */
export async function sourcesInState(program: KilledStack): Promise<string[]> {
  const { deployment } = JSON.parse(await succeeds(program, "stack", "export")) as {
    deployment: { resources?: { type: string; id?: string }[] };
  };
  return (deployment.resources ?? []).filter((r) => r.type === program.sourceType).map((r) => r.id ?? "");
}

/** The stack's checkpoint in its file backend. */
function checkpoint(program: KilledStack): string {
  return path.join(program.workDir, ".state", ".pulumi", "stacks", program.project, `${program.name}.json`);
}

/** The documented recovery for a file backend (docs/interrupted-runs.md), before the command is run again. */
async function recover(program: KilledStack): Promise<void> {
  // A kill while the backend wrote the checkpoint can leave an empty `<checkpoint>.attrs` beside it.
  const state = path.join(program.workDir, ".state", ".pulumi");
  for (const file of fs.readdirSync(state, { recursive: true, encoding: "utf8" })) {
    const full = path.join(state, file);
    if (file.endsWith(".attrs") && fs.statSync(full).size === 0) fs.rmSync(full);
  }
  await succeeds(program, "cancel", "--yes");
  await succeeds(program, "refresh", "--clear-pending-creates", "--yes", "--skip-preview");
}

/** The interrupted runs of a stack of the `shell`'s Sources, against a server answering in `profile` (server/src/http/profile.ts). */
export function interruptedRunsSuite(profile: Profile, shell: Shell = "dynamic"): void {
  const stackOf = shell === "dynamic" ? dynamicStack : nativeStack;
  const title = `${profile} profile, ${shell === "dynamic" ? "dynamic Source" : "native plugin, YAML"}`;
  let server: TestServer;
  let program: KilledStack;
  let copy: KilledStack | undefined;
  /** A POST held after it committed, until released: a create that landed and was never answered. */
  let holdPosts = false;
  const held: (() => void)[] = [];
  /** A PATCH held before its handler, until released, then refused: a retirement sent and never applied. */
  let holdPatches = false;
  const heldPatches: (() => void)[] = [];
  const release = () => {
    for (const resume of [...held.splice(0), ...heldPatches.splice(0)]) resume();
  };

  const rows = (): Row[] =>
    server.db
      .prepare(
        `SELECT id, name, enabled, json_extract(deployment, '$.service_subdomains[0]') AS subdomain,
                json_extract(deployment, '$.annotation') AS annotation FROM sources ORDER BY subdomain`,
      )
      .all() as Row[];

  /** Exactly one Source per declared one, as declared, and the stack's ids are theirs. */
  async function expectConverged(sources: Record<string, unknown>, enabled = true): Promise<void> {
    const all = rows().filter((row) => row.subdomain in sources);
    expect(all.map((row) => row.subdomain)).toEqual(Object.keys(sources).sort());
    for (const row of all) {
      expect(row.name).toBe((sources[row.subdomain] as { name: string }).name);
      expect(Boolean(row.enabled)).toBe(enabled);
    }
    if (enabled) {
      expect((await sourcesInState(program)).sort()).toEqual(all.map((row) => row.id).sort());
      await succeeds(program, "preview", "--expect-no-changes");
    }
  }

  const serverOptions = {
    profile,
    deployDelayMs: 400,
    configure(app: TestServer["app"]) {
      app.addHook("onSend", async (request, _reply, payload) => {
        if (holdPosts && request.method === "POST" && request.url.startsWith("/api/v1/sources")) {
          await new Promise<void>((resolve) => held.push(resolve));
        }
        return payload;
      });
      app.addHook("preHandler", async (request) => {
        if (holdPatches && request.method === "PATCH" && request.url.startsWith("/api/v1/sources/")) {
          await new Promise<void>((resolve) => heldPatches.push(resolve));
          throw new Error("held until its run was killed, then refused: not applied");
        }
      });
    },
  };

  beforeAll(async () => {
    server = await startTestServer(serverOptions);
    program = await stackOf("prod", { baseUrl: server.url, apiKey: server.adminKey });
  }, STEP_TIMEOUT);

  afterAll(async () => {
    release();
    await copy?.remove();
    await program?.remove();
    await server?.close();
    if (server) fs.rmSync(path.dirname(server.dbPath), { recursive: true, force: true });
  });

  const posts = () => server.requestCount("POST", "/api/v1/sources");
  const patches = () => server.requestCount("PATCH", /^\/api\/v1\/sources\//);

  describe.sequential(`kill -9 of the pulumi process group, then the documented recovery (${title})`, () => {
    // Each seed: an up creating Sources, an up renaming them all, a destroy, each killed at its own point.
    const seeds = [
      { prefix: "ka", creates: "after the first create was answered", killCreates: () => posts() >= 1, renamesDone: 1, retiresDone: 2 },
      {
        prefix: "kb",
        creates: "while a create that landed is unanswered",
        killCreates: () => held.length >= 1,
        renamesDone: 3,
        retiresDone: 0,
      },
    ];
    for (const seed of seeds) {
      it(
        `${seed.prefix}: an up creating ${COUNT} Sources killed ${seed.creates}`,
        async () => {
          const sources = declared(seed.prefix, 1);
          await program.declare(sources);
          server.resetRequestCount();
          holdPosts = seed.prefix === "kb";
          const killed = await killWhen(program, ["up", "--yes", "--skip-preview"], seed.killCreates).finally(() => {
            holdPosts = false;
            release();
          });
          expectNothingLeft(killed);
          // What a kill while the file backend wrote the checkpoint leaves (docs/interrupted-runs.md): the mend is part of the recovery.
          if (seed.prefix === "kb") fs.writeFileSync(`${checkpoint(program)}.attrs`, "");
          await recover(program);
          await succeeds(program, "up", "--yes", "--skip-preview");
          await expectConverged(sources);
        },
        STEP_TIMEOUT,
      );

      it(
        `${seed.prefix}: an up renaming every Source killed after ${seed.renamesDone} renames`,
        async () => {
          const sources = declared(seed.prefix, 2);
          await program.declare(sources);
          server.resetRequestCount();
          const killed = await killWhen(program, ["up", "--yes", "--skip-preview"], () => patches() >= seed.renamesDone);
          expectNothingLeft(killed);
          await recover(program);
          await succeeds(program, "up", "--yes", "--skip-preview");
          await expectConverged(sources);
        },
        STEP_TIMEOUT,
      );

      it(
        seed.retiresDone > 0
          ? `${seed.prefix}: a destroy killed after ${seed.retiresDone} retirements`
          : `${seed.prefix}: a destroy killed with its first retirement sent and none applied`,
        async () => {
          const sources = declared(seed.prefix, 2);
          server.resetRequestCount();
          // None applied: the first retirement is held before the server applies it, and refused after the kill.
          holdPatches = seed.retiresDone === 0;
          let killed: Killed;
          try {
            killed = await killWhen(program, ["destroy", "--yes", "--skip-preview"], () =>
              holdPatches ? heldPatches.length >= 1 : patches() >= seed.retiresDone,
            );
            if (holdPatches)
              expect(
                rows().filter((row) => row.subdomain in sources && !row.enabled),
                "retired at the kill",
              ).toEqual([]);
          } finally {
            holdPatches = false;
            release();
          }
          expectNothingLeft(killed);
          await recover(program);
          await succeeds(program, "destroy", "--yes", "--skip-preview");
          // Retired, not duplicated: the same Sources, disabled, and none in the stack.
          await expectConverged(sources, false);
          expect(await sourcesInState(program)).toEqual([]);
        },
        STEP_TIMEOUT,
      );
    }
  });

  describe.sequential(`the Sources of another stack (${title})`, () => {
    it(
      "a stack copied from this one, with the same hostnames and names, is refused and leaves its Sources untouched",
      async () => {
        const sources = declared("kc", 1);
        await program.declare(sources);
        await succeeds(program, "up", "--yes", "--skip-preview");
        const before = rows();
        copy = await stackOf("staging", { baseUrl: server.url, apiKey: server.adminKey });
        await copy.declare(sources);
        const refused = await pulumi(copy, "up", "--yes", "--skip-preview");
        expect(refused.code).not.toBe(0);
        expect(refused.output).toMatch(
          /"kc-\d": it is held by Source \w+ \("Source \d round 1"\), and no change of this run releases it.*not a Source created for this resource by an interrupted run/,
        );
        expect(rows()).toEqual(before);
        expect(await sourcesInState(copy)).toEqual([]);
      },
      STEP_TIMEOUT,
    );
  });

  describe.sequential(`the API unreachable for ${OUTAGE_MS / 1000} s in the middle of an up (${title})`, () => {
    it(
      "the up completes or fails with a clear message, the state holds nothing the server lacks, and a rerun converges",
      async () => {
        const sources = { ...declared("kc", 1), ...declared("kd", 1) };
        await program.declare(sources);
        server.resetRequestCount();
        const run = startPulumi(program, ["up", "--yes", "--skip-preview"]);
        let ended = false;
        void run.done.then(() => (ended = true));
        while (posts() < 1) await sleep(20);
        const { port } = new URL(server.url);
        await server.close({ keepData: true });
        // The outage hits a running up: its provider had sent a create and was still there when the server went away.
        expect(ended, "the up had ended before the server went away").toBe(false);
        const running = descendants(run.child.pid!).map(commandLine);
        expect(
          running.filter((command) => program.provider.test(command)),
          "the provider's processes when the server went away",
        ).not.toEqual([]);
        await sleep(OUTAGE_MS);
        server = await startTestServer({ ...serverOptions, dbPath: server.dbPath, port: Number(port) });
        const { code, output } = await run.done;
        if (code !== 0)
          expect(output).toMatch(/connection failed \(ECONNREFUSED\): the API could not be reached and the request was not sent/);
        const onServer = new Set(rows().map((row) => row.id));
        for (const id of await sourcesInState(program)) expect(onServer).toContain(id);

        await succeeds(program, "up", "--yes", "--skip-preview");
        await expectConverged(sources);
      },
      STEP_TIMEOUT,
    );
  });
}
