// The native plugin beside the dynamic resource, on the same Sources in one run: stacks of N
// existing Sources (made through the API) taken in by each path through the real Pulumi CLI against
// the real server at the spec's rate limits, requests counted at a proxy in front of it. Per size:
//   - import: dynamic: `asset-delivery import --format typescript` then `pulumi up` (adoption);
//     native: `asset-delivery import --format pulumi-import`, `pulumi import --file` (reads only),
//     then the first `pulumi up` with the printed declarations;
//   - refresh, preview of the unchanged stack, and an up with one Source renamed (the CLI with
//     --skip-preview, as the Automation API runs the dynamic stack);
// each native time printed against the dynamic path's (aim: the plugin no slower) and against a stack
// of as many no-op dynamic resources (bench/programs/noop: what the engine costs by itself; its
// first up, which creates them, beside the import), with its requests (targets: refresh at most 12,
// preview 0, the change 1 PATCH, import 0 PATCH), and the plugin's own CPU in the refresh against
// its floor, the echo plugin (bench/echo-plugin: the plugin's gRPC server and Pulumi's bindings
// answering Read with the request's state and Diff with "no change", no work of ours), the two
// alternated on the one stack, BENCH_ECHO_ROUNDS refreshes each (default 3), medians; each one's
// start-up (CPU to its first answered call, measured on its own) printed apart and taken out of the
// ratio (target at most 1.5x at the largest size). CPU is sampled from /proc per process kind
// (engine, language host, plugin): on a machine shared with other work it moves less than wall
// time does.
//
// Measured at 100 Sources (2026-11-25, shared 2-core machine): import 7.5 s vs 15.7 s (0.48x, 0
// PATCH), refresh 1.6 vs 2.6 s (0.61x, 1 request), preview 3.1 vs 6.5 s (0.48x, 0 requests), up
// with one change 4.8 vs 8.0 s (0.60x, 1 PATCH).
// At 1,000 (2026-11-26, same machine, native vs dynamic, native vs no-op): import 393 vs 387 s
// (1.02x, 2.47x the no-op up creating 1,000; 0 PATCH), refresh 8.6 vs 11.3 s (0.76x, 1.75x; 10
// requests), preview 12.1 vs 43.2 s (0.28x, 0.65x; 0 requests), up with one change 19.3 vs 28.0 s
// (0.69x, 0.82x; 1 PATCH). Where the time goes: the import is the engine's (CPU: engine 143 s +
// 130 s, plugin 10 + 7 s): `pulumi import` and the first up each write the whole checkpoint once
// per resource (file backend: n writes of n resources, JSON + MD5), as the no-op stack's creating
// up does; in the steady state the plugin's CPU (3-6 s) is at most the engine's, and the
// dynamic path's TypeScript program and per-operation host cost more than the YAML program.
// 2026-11-28 (same machine, loaded: load average 5-9 from two other engineers' test runs), before ->
// after the plugin's CPU work (one run each): at 100, import native 28.4 -> 11.3 s (1.26x -> 0.77x
// the dynamic path's, whose own time moved with the load), refresh 2.9 -> 2.3 s (0.52x -> 0.82x),
// preview 3.8 -> 3.3 s (0.30x -> 0.36x), one change 3.8 -> 2.9 s (0.37x -> 0.42x); the refresh's
// plugin CPU 1.37 -> 1.17 s (13.7 -> 11.7 ms a Read: its start-up dominates at 100). At 1,000
// (BENCH_REFRESH_ONLY=1): refresh 10.1 -> 10.0 s, 10 requests, plugin CPU 3.83 -> 3.60 s (3.8 -> 3.6
// ms a Read against the 0.5 target: FAIL); the two plugins alternated on one stack, 4 refreshes
// each: median 3.98 -> 3.78 s. Where the plugin's CPU goes in that refresh (--cpu-prof): its
// start-up, about a sixth (the script loads the sdk, with undici and the zod schemas, and loaded
// @pulumi/pulumi's runtime for three constants, since written in core/protocol-values.ts: the
// single executable's CPU to its port fell from 0.37 to 0.34 s, medians of 5 alternated; the single
// executable, which users install, cost 3.45 s against the script's 3.58, median of 3
// alternated); then per Source two calls, the
// engine's Read and the Diff it asks after it: google-protobuf decoding their Structs (the Diff
// carries three) about a fifth, gRPC's own transport about a fifth, garbage collection a tenth, our
// handlers the rest.
// Against the echo plugin (2026-11-28, BENCH_REFRESH_ONLY=1 at 1,000, 3 refreshes each alternated,
// the plugin as provider/bin's script): without start-up, plugin 2.93 s vs echo 2.13 s, 1.38x (load
// 17-19; start-up 0.46 vs 0.16 s); a second run, with another engineer's builds and ours beside
// it, 3.28 vs 2.24 s, 1.46x (load 22-26; the plugin's three refreshes 3.36 to 4.30 s). The echo's
// 2.1 ms a Source is grpc-js and google-protobuf: what the engine's two calls cost any plugin on
// these bindings. The whole bench at 100 (same day, load 24-26): every check passed, the refresh
// 1.27x the echo plugin's CPU.
//   TS_NODE_PROJECT=bench/tsconfig.json node -r ts-node/register bench/plugin.ts
//   (as `npm run bench -- plugin` runs it; env BENCH_SIZES, default 100,1000; never the default run;
//   BENCH_REFRESH_ONLY=1: only the native `pulumi import`, its first up, a refresh and the refreshes
//   against the echo plugin, for the CPU figure; BENCH_PLUGIN_DIR=<folder>: the plugin in that folder
//   instead of provider/bin's script, e.g. the single executable unpacked from its tarball;
//   BENCH_OTHER_PLUGIN_DIR=<folder>: a second build refreshed in the same rotation; figures of
//   2026-12-02 with both in docs/contributing.md)
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { createClient, type SourceCreateAttributes } from "@asset-delivery/sdk";
import { programStack, type ProgramStack } from "../test/support/program-stack";
import { pulumiEnv, pulumiWorkDir, repoRoot } from "../test/support/pulumi";
import { PLUGIN_BIN_DIR, yamlStack, type YamlStack } from "../test/plugin/yaml-stack";
import { grpcRuntime, providerProtos } from "../provider/src/engine/grpc";

import { startCountingProxy, type CountingProxy } from "./lib/counting-proxy.cjs";
import { check, median, summarize, timed } from "./lib/report.cjs";
import { createServeData, startServeProcess } from "../test/support/serve-process.cjs";

delete process.env.TS_NODE_PROJECT;

const SIZES = (process.env.BENCH_SIZES ?? "100,1000").split(",").map(Number);
/** BENCH_REFRESH_ONLY=1: only what the refresh's CPU figure needs (the native stack, `pulumi import` and its first up, the refreshes). */
const REFRESH_ONLY = process.env.BENCH_REFRESH_ONLY === "1";
const IMPORTED_PROGRAM = path.join(__dirname, "programs", "imported");
const NOOP_PROGRAM = path.join(__dirname, "programs", "noop");
const CLI_BIN = path.join(repoRoot(), "cli", "bin", "asset-delivery.js");
const SERVE_ARGS = ["--deploy-delay-ms", "0", "--deploy-lag-ms", "0"];
/** The echo plugin: the plugin's gRPC stack answering Read and Diff with no work of ours (its header says how). */
const ECHO_PLUGIN_DIR = path.join(__dirname, "echo-plugin");
/**
 * The plugin measured: provider/bin's script (the npm package's), or BENCH_PLUGIN_DIR, a folder
 * holding another build of `pulumi-resource-assetdelivery` (the single executable users install, or
 * bench/plugin-startup.mjs's experimental ones).
 */
const PLUGIN_DIR = process.env.BENCH_PLUGIN_DIR ? path.resolve(process.env.BENCH_PLUGIN_DIR) : PLUGIN_BIN_DIR;
/** BENCH_OTHER_PLUGIN_DIR: a second build of the plugin refreshed in the same rotation, e.g. with a start-up snapshot. */
const OTHER_PLUGIN_DIR = process.env.BENCH_OTHER_PLUGIN_DIR ? path.resolve(process.env.BENCH_OTHER_PLUGIN_DIR) : undefined;
/** Refreshes of each plugin, alternated, for the CPU against the echo plugin (BENCH_ECHO_ROUNDS). */
const ECHO_ROUNDS = Number(process.env.BENCH_ECHO_ROUNDS ?? 3);
// echoCpuRatio: the plugin's CPU in a refresh over the echo plugin's, each without its start-up.
const TARGETS = { refreshRequests: 12, previewRequests: 0, changedPatches: 1, importPatches: 0, ratio: 1, echoCpuRatio: 1.5 };

function patches(proxy: CountingProxy): number {
  return Object.entries(proxy.counts.byRequest)
    .filter(([request]) => request.startsWith("PATCH"))
    .reduce((sum, [, count]) => sum + count, 0);
}

/** The CPU seconds each kind of process working in `workDir` used (the CLI and its engine, the language host, the plugin). */
type CpuSplit = Record<"engine" | "host" | "plugin", number> & { pluginProcesses: number };

/** Linux's clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's CPU times. */
const TICKS_PER_SECOND = 100;

function processKind(pid: string, workDir: string): ProcessKind | undefined {
  try {
    if (fs.readlinkSync(`/proc/${pid}/cwd`) !== workDir) return undefined;
    const command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    if (command.includes("pulumi-resource-assetdelivery")) return "plugin";
    if (command.includes("pulumi-language-")) return "host";
    return /(^|\/)pulumi\0/.test(command) ? "engine" : undefined;
  } catch {
    return undefined; // ended, or not ours to read
  }
}

/**
 * Runs `run` and samples, every 100 ms, the CPU time of each process working in `workDir`: where a
 * command's time goes (its wall time less these is waiting: for the server, the rate limits, I/O).
 */
async function cpuSplit<T>(workDir: string, run: () => Promise<T>): Promise<{ result: T; cpu: CpuSplit }> {
  const last = new Map<string, { kind: ProcessKind; ticks: number }>();
  const sample = () => {
    for (const pid of fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
      const kind = processKind(pid, workDir);
      if (!kind) continue;
      try {
        const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        last.set(pid, { kind, ticks: Number(fields[11]) + Number(fields[12]) });
      } catch {
        // ended between the two reads: its last sample stands
      }
    }
  };
  const timer = setInterval(sample, 100);
  try {
    return { result: await run(), cpu: totals(last) };
  } finally {
    clearInterval(timer);
  }
}

type ProcessKind = "engine" | "host" | "plugin";

function totals(samples: Map<string, { kind: ProcessKind; ticks: number }>): CpuSplit {
  const cpu: CpuSplit = { engine: 0, host: 0, plugin: 0, pluginProcesses: 0 };
  for (const { kind, ticks } of samples.values()) {
    cpu[kind] += ticks / TICKS_PER_SECOND;
    if (kind === "plugin") cpu.pluginProcesses++;
  }
  return cpu;
}

const describeCpu = ({ engine, host, plugin, pluginProcesses }: CpuSplit) =>
  `CPU: engine ${engine.toFixed(1)} s, YAML host ${host.toFixed(1)} s, plugin ${plugin.toFixed(2)} s (${pluginProcesses} process${pluginProcesses === 1 ? "" : "es"})`;

function handMade(size: number): SourceCreateAttributes[] {
  return Array.from({ length: size }, (_, i) => ({
    name: `Bench ${size} ${i}`,
    deployment: { type: "webproxy", service_subdomains: [`pb${size}-${i}`], cache_ttl_value: 3600 + i },
  }));
}

function cliImport(cwd: string, env: NodeJS.ProcessEnv, stack: string, format: string, out: string): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [CLI_BIN, "import", "--stack", stack, "--format", format, "--out", out],
      { env, cwd, maxBuffer: 64 << 20 },
      (error, _o, stderr) => (error ? reject(new Error(`import failed: ${stderr || error.message}`)) : resolve()),
    ),
  );
}

/** The native stack's program: each imported Source declared with the inputs `pulumi import` recorded. */
async function declareImported(stack: YamlStack): Promise<Record<string, { type: string; properties: unknown }>> {
  const state = JSON.parse(await stack.exportState()) as { deployment: { resources: { urn: string; type: string; inputs: unknown }[] } };
  return Object.fromEntries(
    state.deployment.resources
      .filter((r) => r.type === "assetdelivery:index:Source")
      .map((r) => [r.urn.slice(r.urn.lastIndexOf("::") + 2), { type: r.type, properties: r.inputs }]),
  );
}

/** A server holding `size` hand-made Sources (made without rate limits), then serving at the spec's, behind the proxy. */
async function seededServer(size: number, proxy: CountingProxy) {
  const data = createServeData(`asset-delivery-bench-plugin${size}-`);
  let server = await startServeProcess(data.dbPath, ["--rate-limits", "off", ...SERVE_ARGS]);
  try {
    const client = createClient({ baseUrl: server.url, apiKey: data.adminKey, pacing: false });
    const attributes = handMade(size);
    for (let i = 0; i < attributes.length; i += 20) await Promise.all(attributes.slice(i, i + 20).map((a) => client.sources.create(a)));
    await client.close();
    await server.stop();
    server = await startServeProcess(data.dbPath, ["--rate-limits", "spec", ...SERVE_ARGS]);
  } catch (error) {
    await server.stop();
    data.remove();
    throw error;
  }
  proxy.retarget(server.url);
  return {
    credentials: { baseUrl: proxy.url, apiKey: data.adminKey },
    async remove() {
      await server.stop();
      data.remove();
    },
  };
}

/**
 * The native stack's `asset-delivery import --format pulumi-import` and `pulumi import --file`, with
 * the import's CPU. `skipCheckpoints`: without the engine's checkpoint after each resource (with the
 * file backend n writes of n resources: at 1,000 on a loaded machine, past the 5 minutes the CLI is
 * given), for a stack that only the refresh after it is measured on.
 */
async function nativeImport(native: YamlStack, size: number, skipCheckpoints = false): Promise<{ seconds: number; cpu: CpuSplit }> {
  const file = path.join(native.workDir, "import.json");
  let cpu: CpuSplit | undefined;
  const { seconds } = await timed(async () => {
    await cliImport(
      native.workDir,
      { ...process.env, ...pulumiEnv({ stateDir: path.join(native.workDir, ".state") }) },
      `nat${size}`,
      "pulumi-import",
      file,
    );
    const env: Record<string, string> = skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {};
    cpu = (await cpuSplit(native.workDir, () => native.ok(["import", "--file", file, "--yes", "--generate-code=false"], { env }))).cpu;
  });
  return { seconds, cpu: cpu! };
}

/** The native refresh, its requests and CPU; the plugin's CPU (its start-up included) per Source read. */
async function nativeRefresh(native: YamlStack, proxy: CountingProxy, size: number) {
  proxy.reset();
  const refresh = await timed(() => cpuSplit(native.workDir, () => native.ok(["refresh", "--yes", "--skip-preview"])));
  const cpu = refresh.result.cpu;
  return { seconds: refresh.seconds, requests: proxy.counts.requests, cpu, pluginMsPerRead: (cpu.plugin * 1000) / size };
}

const describeRefreshCpu = (refresh: Awaited<ReturnType<typeof nativeRefresh>>) =>
  `${describeCpu(refresh.cpu)}; plugin ${refresh.pluginMsPerRead.toFixed(2)} ms a Read, its start-up included`;

/**
 * The folder the native stack's Pulumi.yaml names for the plugin: a link, so that the bench can
 * point one stack at the plugin or at the echo plugin between two refreshes (provider/bin at first).
 */
interface PluginLink {
  dir: string;
  use(pluginDir: string): void;
  remove(): void;
}

function pluginLink(): PluginLink {
  const parent = pulumiWorkDir("bench-plugin-link-");
  const dir = path.join(parent, "plugin");
  const use = (pluginDir: string) => {
    const next = `${dir}.next`;
    fs.rmSync(next, { force: true });
    fs.symlinkSync(pluginDir, next);
    fs.renameSync(next, dir);
  };
  use(PLUGIN_DIR);
  return { dir, use, remove: () => fs.rmSync(parent, { recursive: true, force: true }) };
}

/** The CPU seconds (user and system) process `pid` has used so far. */
function processCpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** The CPU a plugin's process uses from its start to its first answered call (GetPluginInfo, as the engine's first). */
function startupCpu(pluginDir: string): Promise<number> {
  const grpc = grpcRuntime();
  const protos = providerProtos();
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(pluginDir, "pulumi-resource-assetdelivery"), [], { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    let asked = false;
    child.once("error", reject);
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const port = /^(\d+)\n/.exec(out)?.[1];
      if (!port || asked) return;
      asked = true;
      const client = new protos.providerGrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      client.getPluginInfo(new protos.empty.Empty(), (error) => {
        const seconds = processCpuSeconds(child.pid!);
        client.close();
        child.stdin.end();
        if (error) reject(error);
        else child.once("exit", () => resolve(seconds));
      });
    });
  });
}

type EchoComparison = Awaited<ReturnType<typeof againstEcho>>;

/**
 * The plugin's CPU in a refresh of the unchanged stack against the echo plugin's (bench/echo-plugin:
 * the same gRPC server and bindings, Read echoing the state and Diff answering "no change"), the
 * two alternated on the one stack, ECHO_ROUNDS refreshes each (with BENCH_OTHER_PLUGIN_DIR, that
 * build too, in the same rotation); each plugin's start-up (CPU to its first answered call, measured
 * on its own beside each refresh) is reported apart and taken out of the ratio: medians of the rounds.
 */
async function againstEcho(native: YamlStack, link: PluginLink, proxy: CountingProxy) {
  const plugins: Record<PluginName, string> = { plugin: PLUGIN_DIR, echo: ECHO_PLUGIN_DIR, other: OTHER_PLUGIN_DIR ?? "" };
  const names: PluginName[] = OTHER_PLUGIN_DIR ? ["plugin", "echo", "other"] : ["plugin", "echo"];
  const runs = Object.fromEntries(names.map((name) => [name, { refresh: [] as number[], start: [] as number[], wall: [] as number[] }]));
  const loads: number[] = [];
  let echoRequests = 0;
  try {
    for (let round = 0; round < ECHO_ROUNDS; round++) {
      const shift = round % names.length;
      for (const name of [...names.slice(shift), ...names.slice(0, shift)]) {
        link.use(plugins[name]);
        runs[name]!.start.push(await startupCpu(plugins[name]));
        proxy.reset();
        const refresh = await timed(() => cpuSplit(native.workDir, () => native.ok(["refresh", "--yes", "--skip-preview"])));
        const cpu = refresh.result.cpu;
        if (cpu.pluginProcesses !== 1) throw new Error(`the ${name}'s refresh ran ${cpu.pluginProcesses} plugin processes, not 1`);
        if (name === "echo") echoRequests += proxy.counts.requests;
        runs[name]!.refresh.push(cpu.plugin);
        runs[name]!.wall.push(refresh.seconds);
        loads.push(os.loadavg()[0]!);
      }
    }
  } finally {
    link.use(PLUGIN_DIR);
  }
  if (echoRequests !== 0) throw new Error(`the echo plugin's refreshes sent ${echoRequests} requests to the server`);
  const figures = (name: PluginName) => {
    const refresh = median(runs[name]!.refresh);
    const start = median(runs[name]!.start);
    return { refresh, start, calls: refresh - start, wall: median(runs[name]!.wall) };
  };
  const plugin = figures("plugin");
  const echo = figures("echo");
  const other = OTHER_PLUGIN_DIR ? figures("other") : undefined;
  return { plugin, echo, other, ratio: plugin.calls / echo.calls, loads, runs };
}

type PluginName = "plugin" | "echo" | "other";

const seconds = (values: number[]) => `${values.map((s) => s.toFixed(2)).join(", ")} s`;

const describeEcho = ({ plugin, echo, other, ratio, loads, runs }: EchoComparison) =>
  `plugin CPU against the echo plugin, median of ${ECHO_ROUNDS} refreshes each, alternated: plugin ${plugin.refresh.toFixed(2)} s ` +
  `(start-up ${plugin.start.toFixed(2)} s), echo ${echo.refresh.toFixed(2)} s (start-up ${echo.start.toFixed(2)} s); ` +
  `without start-up ${plugin.calls.toFixed(2)} vs ${echo.calls.toFixed(2)} s = ${ratio.toFixed(2)}x; ` +
  (other
    ? `${OTHER_PLUGIN_DIR}: ${other.refresh.toFixed(2)} s (start-up ${other.start.toFixed(2)} s), without start-up ` +
      `${other.calls.toFixed(2)} s = ${(other.calls / echo.calls).toFixed(2)}x the echo's; `
    : "") +
  `load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} (refreshes' CPU: ` +
  Object.entries(runs)
    .map(([name, run]) => `${name} ${seconds(run.refresh)}`)
    .join(", ") +
  `); wall time of the refresh, medians: plugin ${plugin.wall.toFixed(2)} s, echo ${echo.wall.toFixed(2)} s` +
  (other ? `, other ${other.wall.toFixed(2)} s` : "") +
  ` (${Object.entries(runs)
    .map(([name, run]) => `${name} ${seconds(run.wall)}`)
    .join(", ")})`;

/** BENCH_REFRESH_ONLY: the native stack imported by `pulumi import` alone, then refreshed, then against the echo plugin. */
async function measureRefreshOnly(size: number, proxy: CountingProxy, nativeStacks: YamlStack[]) {
  const seeded = await seededServer(size, proxy);
  const link = pluginLink();
  try {
    const native = await yamlStack(
      `bench-plugin-${size}`,
      `nat${size}`,
      {},
      { credentials: seeded.credentials, pluginPath: link.dir, secrets: "passphrase" },
    );
    nativeStacks.push(native);
    const imported = await nativeImport(native, size, true);
    console.log(`  ${size}: pulumi import ${imported.seconds.toFixed(1)} s (no checkpoint per resource), ${describeCpu(imported.cpu)}`);
    // The first up with the imported Sources declared, as a user's after an import: it records their
    // checked inputs (the import's lack the defaults), so that each refreshed Source's Diff is "no
    // change", as in every refresh after it.
    native.write({ resources: await declareImported(native) });
    await native.ok(["up", "--yes", "--skip-preview"], { env: { PULUMI_SKIP_CHECKPOINTS: "true" } });
    const refresh = await nativeRefresh(native, proxy, size);
    console.log(`  ${size}: refresh native ${refresh.seconds.toFixed(1)} s (${refresh.requests} req); ${describeRefreshCpu(refresh)}`);
    const echo = await againstEcho(native, link, proxy);
    console.log(`  ${size}: ${describeEcho(echo)}`);
    return { size, refresh: { ...refresh, echo } };
  } finally {
    link.remove();
    await seeded.remove();
  }
}

async function measureSize(size: number, proxy: CountingProxy, dynamicStacks: ProgramStack[], nativeStacks: YamlStack[]) {
  const seeded = await seededServer(size, proxy);
  const link = pluginLink();
  try {
    const credentials = seeded.credentials;

    const dynamic = await programStack(IMPORTED_PROGRAM, `dyn${size}`, credentials);
    dynamicStacks.push(dynamic);
    const native = await yamlStack(`bench-plugin-${size}`, `nat${size}`, {}, { credentials, pluginPath: link.dir, secrets: "passphrase" });
    nativeStacks.push(native);
    const noop = await programStack(NOOP_PROGRAM, `noop${size}`, credentials);
    dynamicStacks.push(noop);
    const noopNames = Array.from({ length: size }, (_, i) => `noop-${i}`);
    await noop.set({ names: noopNames });
    const noopCreate = await timed(() => noop.stack.up());

    // Import.
    const dynEnv = { ...process.env, ...(dynamic.stack.workspace as LocalWorkspace).envVars };
    proxy.reset();
    const dynImport = await timed(async () => {
      await cliImport(dynamic.workDir, dynEnv, dynamic.stack.name, "typescript", "sources.ts");
      await dynamic.stack.up();
    });
    const dynImportPatches = patches(proxy);
    proxy.reset();
    const natImport = await nativeImport(native, size);
    native.write({ resources: await declareImported(native) });
    // The first up with the imported Sources declared, as the dynamic path's adoption is an up: it
    // records what `pulumi import` did not (we take it to be the program's source positions), which makes each
    // unchanged resource a checkpoint write, once: with the file backend, n writes of n resources.
    const natAdopt = await timed(() => cpuSplit(native.workDir, () => native.ok(["up", "--yes", "--skip-preview"])));
    const natImportPatches = patches(proxy);
    const natImportSeconds = natImport.seconds + natAdopt.seconds;
    console.log(
      `  ${size}: import dynamic ${dynImport.seconds.toFixed(1)} s (${dynImportPatches} PATCH), native ${natImportSeconds.toFixed(1)} s (${natImportPatches} PATCH; pulumi import ${natImport.seconds.toFixed(1)} s, ${describeCpu(natImport.cpu)}; first up ${natAdopt.seconds.toFixed(1)} s, ${describeCpu(natAdopt.result.cpu)}), no-op up creating ${size} ${noopCreate.seconds.toFixed(1)} s`,
    );

    // Refresh.
    proxy.reset();
    const dynRefresh = await timed(() => dynamic.stack.refresh());
    const dynRefreshRequests = proxy.counts.requests;
    const natRefresh = await nativeRefresh(native, proxy, size);
    const noopRefresh = await timed(() => noop.stack.refresh());
    console.log(
      `  ${size}: refresh dynamic ${dynRefresh.seconds.toFixed(1)} s (${dynRefreshRequests} req), native ${natRefresh.seconds.toFixed(1)} s (${natRefresh.requests} req), no-op ${noopRefresh.seconds.toFixed(1)} s; native ${describeRefreshCpu(natRefresh)}`,
    );
    const echo = await againstEcho(native, link, proxy);
    console.log(`  ${size}: ${describeEcho(echo)}`);

    // Preview of the unchanged stacks.
    proxy.reset();
    const dynPreview = await timed(() => dynamic.stack.preview({ expectNoChanges: true }));
    const dynPreviewRequests = proxy.counts.requests;
    proxy.reset();
    const natPreview = await timed(() => cpuSplit(native.workDir, () => native.ok(["preview", "--expect-no-changes"])));
    const natPreviewRequests = proxy.counts.requests;
    const noopPreview = await timed(() => noop.stack.preview({ expectNoChanges: true }));
    console.log(
      `  ${size}: preview dynamic ${dynPreview.seconds.toFixed(1)} s (${dynPreviewRequests} req), native ${natPreview.seconds.toFixed(1)} s (${natPreviewRequests} req), no-op ${noopPreview.seconds.toFixed(1)} s; native ${describeCpu(natPreview.result.cpu)}`,
    );

    // Up with one Source renamed on each side.
    const module = path.join(dynamic.workDir, "sources.ts");
    fs.writeFileSync(module, fs.readFileSync(module, "utf8").replace(/^( {2}name: "[^"]*)"/m, '$1 (renamed)"'));
    proxy.reset();
    const dynChanged = await timed(() => dynamic.stack.up());
    const dynChangedPatches = patches(proxy);
    const resources = await declareImported(native);
    const first = Object.values(resources)[0]!.properties as { name: string };
    first.name = `${first.name} (renamed)`;
    native.write({ resources });
    proxy.reset();
    const natChanged = await timed(() => cpuSplit(native.workDir, () => native.ok(["up", "--yes", "--skip-preview"])));
    const natChangedPatches = patches(proxy);
    await noop.set({ names: noopNames, touched: noopNames[0] });
    const noopChanged = await timed(() => noop.stack.up());
    console.log(
      `  ${size}: up with one change dynamic ${dynChanged.seconds.toFixed(1)} s (${dynChangedPatches} PATCH), native ${natChanged.seconds.toFixed(1)} s (${natChangedPatches} PATCH), no-op ${noopChanged.seconds.toFixed(1)} s; native ${describeCpu(natChanged.result.cpu)}`,
    );

    /** The native time against the dynamic path's and against the no-op stack's. */
    const ratios = (nat: number, dyn: number, noop: number) => ({ ratio: nat / dyn, noopRatio: nat / noop });
    return {
      size,
      import: { ...ratios(natImportSeconds, dynImport.seconds, noopCreate.seconds), patches: natImportPatches },
      refresh: {
        ...ratios(natRefresh.seconds, dynRefresh.seconds, noopRefresh.seconds),
        requests: natRefresh.requests,
        echo,
      },
      preview: { ...ratios(natPreview.seconds, dynPreview.seconds, noopPreview.seconds), requests: natPreviewRequests },
      changed: { ...ratios(natChanged.seconds, dynChanged.seconds, noopChanged.seconds), patches: natChangedPatches },
    };
  } finally {
    link.remove();
    await seeded.remove();
  }
}

async function main(): Promise<void> {
  const proxy: CountingProxy = await startCountingProxy("http://127.0.0.1:9");
  const dynamicStacks: ProgramStack[] = [];
  const nativeStacks: YamlStack[] = [];
  const results = [];
  const refreshOnly = [];
  try {
    for (const size of SIZES) {
      if (REFRESH_ONLY) refreshOnly.push(await measureRefreshOnly(size, proxy, nativeStacks));
      else results.push(await measureSize(size, proxy, dynamicStacks, nativeStacks));
      for (const made of dynamicStacks.splice(0)) await made.remove();
      for (const made of nativeStacks.splice(0)) await made.remove();
    }
  } finally {
    for (const made of dynamicStacks) await made.remove();
    for (const made of nativeStacks) await made.remove();
    await proxy.close();
  }
  /** The plugin's CPU in the largest size's refresh against the echo plugin's, start-up apart. */
  const cpuCheck = (largest: { size: number; refresh: { echo: EchoComparison } }) =>
    check(`native refresh plugin CPU / echo plugin CPU at ${largest.size}`, largest.refresh.echo.ratio, TARGETS.echoCpuRatio, {
      atMost: true,
      describe: `(start-up apart: plugin ${largest.refresh.echo.plugin.start.toFixed(2)} s, echo ${largest.refresh.echo.echo.start.toFixed(2)} s)`,
    });
  if (REFRESH_ONLY) {
    const largest = refreshOnly[refreshOnly.length - 1]!;
    summarize("plugin (refresh only)", [
      check("native refresh requests (max)", Math.max(...refreshOnly.map((r) => r.refresh.requests)), TARGETS.refreshRequests, {
        atMost: true,
        unit: "",
      }),
      cpuCheck(largest),
    ]);
    return;
  }
  console.log("\nsize  native/dynamic, native/no-op: import  refresh (req)  preview (req)  one change (PATCH)");
  const both = (r: { ratio: number; noopRatio: number }) => `${r.ratio.toFixed(2)}x, ${r.noopRatio.toFixed(2)}x`;
  for (const r of results) {
    console.log(
      `${String(r.size).padStart(5)}  ${both(r.import)} (${r.import.patches} PATCH)  ${both(r.refresh)} (${r.refresh.requests})  ` +
        `${both(r.preview)} (${r.preview.requests})  ${both(r.changed)} (${r.changed.patches})`,
    );
  }
  const largest = results[results.length - 1]!;
  summarize("plugin", [
    check("native refresh requests (max)", Math.max(...results.map((r) => r.refresh.requests)), TARGETS.refreshRequests, {
      atMost: true,
      unit: "",
    }),
    check("native preview requests (max)", Math.max(...results.map((r) => r.preview.requests)), TARGETS.previewRequests, {
      atMost: true,
      unit: "",
    }),
    check("native one-change PATCHes (max)", Math.max(...results.map((r) => r.changed.patches)), TARGETS.changedPatches, {
      atMost: true,
      unit: "",
    }),
    check("native import PATCHes (max)", Math.max(...results.map((r) => r.import.patches)), TARGETS.importPatches, {
      atMost: true,
      unit: "",
    }),
    check(`refresh at ${largest.size}`, largest.refresh.ratio, TARGETS.ratio, { atMost: true, describe: "dynamic" }),
    check(`preview at ${largest.size}`, largest.preview.ratio, TARGETS.ratio, { atMost: true, describe: "dynamic" }),
    check(`up with one change at ${largest.size}`, largest.changed.ratio, TARGETS.ratio, { atMost: true, describe: "dynamic" }),
    cpuCheck(largest),
  ]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
