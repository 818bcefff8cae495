// How the provider's costs grow with the stack: stacks of 100, 300 and 1,000 Sources through the
// real Pulumi CLI (Automation API, local file backend) against the real server at the spec's rate
// limits, each figure beside a stack of as many no-op dynamic resources (bench/programs/noop) in the
// same run. Per size, in this order:
//   - import + up: the Sources exist already (made through the API), `asset-delivery import
//     --format typescript` declares them in a module of the program (bench/programs/imported), and
//     `pulumi up` adopts them: GETs, PATCHes and 429s counted at a proxy in front of the server,
//     429s shown to the user. (Not the configuration format: Pulumi hands a Node.js program its
//     whole configuration in one environment variable, which the kernel caps at 128 KiB, so that
//     1,000 Sources' declarations cannot be run from Pulumi.<stack>.yaml; import refuses them there.)
//   - refresh: requests, and wall time against the no-op stack's refresh;
//   - preview of the unchanged stack: requests, and wall time against the no-op preview;
//   - up with one changed Source: PATCHes, and wall time against a no-op up with one changed resource.
// The client's pacing is on (as users run it): at the spec's 4 requests a second it spaces the list
// pages of a big account. Deployments take no time (--deploy-delay-ms 0, --deploy-lag-ms 0), so that
// what is timed is the provider. One round per size (the CPU is shared); targets are checked at
// every size for request counts and at the largest size for ratios.
//
// Where the time goes (CPU of each process, the engine's pprof): not in the provider's code but in
// what Pulumi does for each property of a resource, and a Source has 13 (7 of them outputs only)
// where the no-op has 2. The program: @pulumi/pulumi makes every property an output of four
// promises, each with a stack trace that ts-node's source-map support maps frame by frame (~1 ms a
// property; preview of 1,000: ~25 s of program CPU against ~13 s). The engine marshals, diffs and
// logs every property of every step (its verbose log is encoded and kept even when not shown:
// ~35% of its CPU; preview of 1,000: ~10 s of engine CPU against ~4 s), and the dynamic-provider
// host converts them both ways. BENCH_SAME_DATA=1 shows it: it also measures no-op dynamic
// resources carrying each Source's state (bench/programs/noop's `carried`: the same properties and
// values, no API, no provider code), which cost what the Sources cost (at 300: refresh, preview and
// up 1.05x, 0.99x, 1.00x of them), where the plain no-op costs half. BENCH_SAME_DATA=packed carries
// the same data in two properties (one object, one secret) instead, to tell the cost of the data
// from the cost of the number of properties. At 1,000 (2026-11-23): refresh 9.2 s, preview 24.3 s,
// up with one change 25.6 s, against 4.1, 15.0 and 15.1 s for the plain no-op (2.24x, 1.62x,
// 1.70x) and 9.6, 31.3 and 31.8 s for the Sources. Folding a Source's outputs into fewer
// properties would save at most that difference, and no resource that keeps a Source's data in
// the state can reach the targets' 1.2-1.25x of a no-op whose state is one string. Either mode
// adds an up of as many resources (minutes at 1,000), so it is off by default.
//
//   TS_NODE_PROJECT=bench/tsconfig.json node -r ts-node/register bench/scale.ts
//   (as `npm run bench -- scale` runs it; env BENCH_SIZES, default 100,300,1000)
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Deployment, LocalWorkspace } from "@pulumi/pulumi/automation";
import { runtime } from "@pulumi/pulumi";
import { createClient, isPlainObject, type SourceCreateAttributes } from "@asset-delivery/sdk";
import { programStack, type ProgramStack } from "../test/support/program-stack";
import { repoRoot } from "../test/support/pulumi";

// CommonJS helpers shared with the .mjs benchmarks (typed by the .d.cts files beside them).
import { startCountingProxy, type CountingProxy } from "./lib/counting-proxy.cjs";
import { check, summarize, timed } from "./lib/report.cjs";
import { createServeData, startServeProcess } from "../test/support/serve-process.cjs";

// The Pulumi programs this starts find their own TypeScript settings.
delete process.env.TS_NODE_PROJECT;

const SIZES = (process.env.BENCH_SIZES ?? "100,300,1000").split(",").map(Number);
const TARGETS = {
  refreshRequests: 12,
  refreshRatio: 1.25,
  previewRequests: 0,
  previewRatio: 1.2,
  changedPatches: 1,
  upRatio: 1.2,
  importGets: 12,
  importPatches: 0,
};
const NOOP_PROGRAM = path.join(__dirname, "programs", "noop");
const IMPORTED_PROGRAM = path.join(__dirname, "programs", "imported");
/** BENCH_SAME_DATA=1: the same-data no-ops carry each property as the Source has it; =packed: in two. */
const SAME_DATA = process.env.BENCH_SAME_DATA === "1" || process.env.BENCH_SAME_DATA === "packed";
const PACKED = process.env.BENCH_SAME_DATA === "packed";
const CLI_BIN = path.join(repoRoot(), "cli", "bin", "asset-delivery.js");
/** The module import writes, in the program's work folder. */
const MODULE = "sources.ts";
/** The Sources' state that the same-data no-ops carry, in their program's work folder. */
const CARRIED = "carried.json";
const SERVE_ARGS = ["--deploy-delay-ms", "0", "--deploy-lag-ms", "0"];

/** Requests by method (GET, PATCH, ...) that passed the proxy since its last reset. */
function byMethod(proxy: CountingProxy): Record<string, number> {
  const methods: Record<string, number> = {};
  for (const [request, count] of Object.entries(proxy.counts.byRequest))
    methods[request.split(" ")[0]!] = (methods[request.split(" ")[0]!] ?? 0) + count;
  return methods;
}

/** `count` Sources of two types, as a team made them by hand. */
function handMade(size: number, count: number): SourceCreateAttributes[] {
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? { name: `Scale ${size} proxy ${i}`, deployment: { type: "webproxy", service_subdomains: [`s${size}-${i}`] } }
      : {
          name: `Scale ${size} folder ${i}`,
          deployment: {
            type: "webfolder",
            service_subdomains: [`s${size}-${i}`],
            webfolder_base_url: `https://origin.example.com/${i}/`,
            cache_ttl_error: 60,
          },
        },
  );
}

/** The dynamic resources of a stack's export as bench/programs/noop carries them: their state, secrets named. */
function carriedState(exported: Deployment): { name: string; props: Record<string, unknown>; secrets: string[] }[] {
  const resources = (exported.deployment as { resources: { urn: string; type: string; outputs?: Record<string, unknown> }[] }).resources;
  return resources
    .filter((resource) => resource.type.startsWith("pulumi-nodejs:dynamic"))
    .map(({ urn, outputs = {} }) => {
      const { __provider: _theirs, ...props } = outputs;
      const secrets = Object.keys(props).filter(
        (key) => isPlainObject(props[key]) && props[key][runtime.specialSigKey] === runtime.specialSecretSig,
      );
      for (const key of secrets) delete props[key];
      return { name: urn.split("::").pop()!, props, secrets };
    });
}

/** `asset-delivery import --stack NAME` in the program's folder, as a user runs it. */
function runImport(program: ProgramStack): Promise<string> {
  const env = { ...process.env, ...(program.stack.workspace as LocalWorkspace).envVars };
  const args = [CLI_BIN, "import", "--stack", program.stack.name, "--format", "typescript", "--out", MODULE];
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { env, cwd: program.workDir, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`import failed: ${stderr || error.message}`)) : resolve(stdout),
    ),
  );
}

async function measureSize(size: number, proxy: CountingProxy, stacks: ProgramStack[]) {
  const data = createServeData(`asset-delivery-bench-scale${size}-`);
  let server = await startServeProcess(data.dbPath, ["--rate-limits", "off", ...SERVE_ARGS]);
  try {
    // Setup, not timed: the account's Sources, made through the API with the limits off.
    const client = createClient({ baseUrl: server.url, apiKey: data.adminKey, pacing: false });
    const attributes = handMade(size, size);
    for (let i = 0; i < attributes.length; i += 20) await Promise.all(attributes.slice(i, i + 20).map((a) => client.sources.create(a)));
    await client.close();
    await server.stop();
    server = await startServeProcess(data.dbPath, ["--rate-limits", "spec", ...SERVE_ARGS]);
    proxy.retarget(server.url);

    const sources = await programStack(IMPORTED_PROGRAM, `scale${size}`, { baseUrl: proxy.url, apiKey: data.adminKey });
    stacks.push(sources);
    const noop = await programStack(NOOP_PROGRAM, `noop${size}`, { baseUrl: proxy.url, apiKey: data.adminKey });
    stacks.push(noop);
    const noopNames = Array.from({ length: size }, (_, i) => `noop-${i}`);
    await noop.set({ names: noopNames });
    await noop.stack.up();

    // Import + up: adoption of every existing Source.
    proxy.reset();
    const imported = await timed(() => runImport(sources));
    const importRequests = proxy.counts.requests;
    proxy.reset();
    let shown = "";
    const adopted = await timed(() => sources.stack.up({ onOutput: (text: string) => (shown += text) }));
    const methods = byMethod(proxy);
    const adoption = {
      GET: methods.GET ?? 0,
      PATCH: methods.PATCH ?? 0,
      refused: proxy.counts.byStatus[429] ?? 0,
      // A refused request as the sdk words it ("failed with 429 TooManyRequests"); a bare 429 also
      // matches resource names (scale-1000-proxy-429).
      shown: /failed with 429\b|TooManyRequests|rate limit/i.test(shown),
    };
    const creates = adopted.result.summary.resourceChanges?.create ?? 0;
    console.log(
      `  ${size}: import ${imported.seconds.toFixed(1)} s (${importRequests} requests); up adopting ${creates - 1}: ${adopted.seconds.toFixed(1)} s, ` +
        `GET ${adoption.GET}, PATCH ${adoption.PATCH}, 429 ${adoption.refused}${adoption.shown ? " (shown)" : ""} ${JSON.stringify(proxy.counts.byRequest)}`,
    );

    // Setup, not timed: no-ops carrying the Sources' state.
    let sameData: ProgramStack | undefined;
    if (SAME_DATA) {
      sameData = await programStack(NOOP_PROGRAM, `data${size}`, { baseUrl: proxy.url, apiKey: data.adminKey });
      stacks.push(sameData);
      fs.writeFileSync(path.join(sameData.workDir, CARRIED), JSON.stringify(carriedState(await sources.stack.exportStack())));
      await sameData.set({ carried: CARRIED, packed: PACKED });
      await sameData.stack.up();
    }
    /** ", same-data no-op X s (the Sources Y×)" when measured. */
    const sameDataFigure = async (operation: (stack: ProgramStack) => Promise<unknown>, sourcesSeconds: number) => {
      if (!sameData) return "";
      const measured = await timed(() => operation(sameData));
      const label = PACKED ? "same-data no-op in two properties" : "same-data no-op";
      return `, ${label} ${measured.seconds.toFixed(1)} s (the Sources ${(sourcesSeconds / measured.seconds).toFixed(2)}x)`;
    };

    // Refresh, Sources then no-op.
    proxy.reset();
    const refresh = await timed(() => sources.stack.refresh());
    const refreshRequests = proxy.counts.requests;
    const noopRefresh = await timed(() => noop.stack.refresh());
    const refreshSameData = await sameDataFigure((stack) => stack.stack.refresh(), refresh.seconds);
    console.log(
      `  ${size}: refresh ${refresh.seconds.toFixed(1)} s (${refreshRequests} requests: ${JSON.stringify(proxy.counts.byRequest)}), no-op ${noopRefresh.seconds.toFixed(1)} s${refreshSameData}`,
    );

    // Preview of the unchanged stacks.
    proxy.reset();
    const preview = await timed(() => sources.stack.preview({ expectNoChanges: true }));
    const previewRequests = proxy.counts.requests;
    const noopPreview = await timed(() => noop.stack.preview({ expectNoChanges: true }));
    const previewSameData = await sameDataFigure((stack) => stack.stack.preview({ expectNoChanges: true }), preview.seconds);
    console.log(
      `  ${size}: preview ${preview.seconds.toFixed(1)} s (${previewRequests} requests), no-op ${noopPreview.seconds.toFixed(1)} s${previewSameData}`,
    );

    // Up with one changed resource on each side.
    const module = path.join(sources.workDir, MODULE);
    fs.writeFileSync(module, fs.readFileSync(module, "utf8").replace(/^( {2}name: "[^"]*)"/m, '$1 (renamed)"'));
    await noop.set({ names: noopNames, touched: noopNames[0] });
    proxy.reset();
    const changed = await timed(() => sources.stack.up());
    const changedPatches = byMethod(proxy).PATCH ?? 0;
    const noopChanged = await timed(() => noop.stack.up());
    const changedSameData = await sameDataFigure((stack) => {
      // The same change as the Sources': the first one's display name.
      const file = path.join(stack.workDir, CARRIED);
      const carried = JSON.parse(fs.readFileSync(file, "utf8")) as ReturnType<typeof carriedState>;
      carried[0]!.props.name = `${String(carried[0]!.props.name)} (renamed)`;
      fs.writeFileSync(file, JSON.stringify(carried));
      return stack.stack.up();
    }, changed.seconds);
    console.log(
      `  ${size}: up with one change ${changed.seconds.toFixed(1)} s (${changedPatches} PATCH, ${proxy.counts.requests} requests), no-op ${noopChanged.seconds.toFixed(1)} s${changedSameData}`,
    );

    return {
      size,
      import: {
        seconds: imported.seconds + adopted.seconds,
        gets: adoption.GET,
        patches: adoption.PATCH,
        refused: adoption.refused,
        shown: adoption.shown,
      },
      refresh: { requests: refreshRequests, ratio: refresh.seconds / noopRefresh.seconds },
      preview: { requests: previewRequests, ratio: preview.seconds / noopPreview.seconds },
      changed: { patches: changedPatches, ratio: changed.seconds / noopChanged.seconds },
    };
  } finally {
    await server.stop();
    data.remove();
  }
}

async function main(): Promise<void> {
  const proxy: CountingProxy = await startCountingProxy("http://127.0.0.1:9");
  const stacks: ProgramStack[] = [];
  const results = [];
  try {
    for (const size of SIZES) {
      results.push(await measureSize(size, proxy, stacks));
      for (const made of stacks.splice(0)) await made.remove();
    }
  } finally {
    for (const made of stacks) await made.remove();
    await proxy.close();
  }
  console.log("\nsize   refresh req  ratio | preview req  ratio | one change PATCH  ratio | import+up GET PATCH 429");
  for (const r of results) {
    console.log(
      `${String(r.size).padStart(5)}  ${String(r.refresh.requests).padStart(11)}  ${r.refresh.ratio.toFixed(2)}x | ${String(r.preview.requests).padStart(11)}  ${r.preview.ratio.toFixed(2)}x | ` +
        `${String(r.changed.patches).padStart(16)}  ${r.changed.ratio.toFixed(2)}x | ${String(r.import.gets).padStart(13)} ${String(r.import.patches).padStart(5)} ${String(r.import.refused).padStart(3)}`,
    );
  }
  const largest = results[results.length - 1]!;
  const checks = [
    check("refresh requests (max)", Math.max(...results.map((r) => r.refresh.requests)), TARGETS.refreshRequests, {
      atMost: true,
      unit: "",
    }),
    check(`refresh at ${largest.size}`, largest.refresh.ratio, TARGETS.refreshRatio, { atMost: true, describe: "no-op" }),
    check("preview requests (max)", Math.max(...results.map((r) => r.preview.requests)), TARGETS.previewRequests, {
      atMost: true,
      unit: "",
    }),
    check(`preview at ${largest.size}`, largest.preview.ratio, TARGETS.previewRatio, { atMost: true, describe: "no-op" }),
    check("one-change PATCHes (max)", Math.max(...results.map((r) => r.changed.patches)), TARGETS.changedPatches, {
      atMost: true,
      unit: "",
    }),
    check(`up with one change at ${largest.size}`, largest.changed.ratio, TARGETS.upRatio, { atMost: true, describe: "no-op" }),
    check("import+up GETs (max)", Math.max(...results.map((r) => r.import.gets)), TARGETS.importGets, { atMost: true, unit: "" }),
    check(
      "import+up PATCHes + 429s shown",
      Math.max(...results.map((r) => r.import.patches + (r.import.shown ? 1 : 0))),
      TARGETS.importPatches,
      { atMost: true, unit: "" },
    ),
  ];
  summarize("scale", checks);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
