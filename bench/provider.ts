// The provider through the real Pulumi CLI (Automation API, local file backend) against the real
// server (`asset-delivery serve`, a child process), each figure side by side with a stack of as many
// dynamic resources that do nothing (bench/programs/noop), in the same run:
//   - refresh of a 100-Source stack with the spec's rate limits on: requests reaching the server,
//     and wall time against the no-op stack's refresh;
//   - preview of the unchanged stack: requests reaching the server;
//   - up of 50 new Sources with limits off (and the client's pacing off: a deliberate limit, not
//     overhead) against the no-op stack's up of 50;
//   - up of 50 new Sources with the spec's limits on (pacing on, as users run it): no error, no 429.
// The 100 Sources are created with limits off (at the spec's 60 creates per hour it would take
// 40 minutes), then the same database is served again with the limits on. Deployments take no time
// (--deploy-delay-ms 0, --deploy-lag-ms 0), so that what is timed is the provider.
//
//   TS_NODE_PROJECT=bench/tsconfig.json node -r ts-node/register bench/provider.ts
//   (as `npm run bench -- provider` runs it; env BENCH_ROUNDS, default 3; BENCH_ONLY=refresh: the
//   refresh and preview figures only)
import * as path from "node:path";
import { programStack, TEST_PROGRAMS, type ProgramStack } from "../test/support/program-stack";
import { createServeData, startServeProcess, type ServeProcess } from "../test/support/serve-process.cjs";

// CommonJS helpers shared with the .mjs benchmarks (typed by the .d.cts files beside them).
import { startCountingProxy } from "./lib/counting-proxy.cjs";
import { check, median, summarize, type Check } from "./lib/report.cjs";

// The Pulumi programs this starts find their own TypeScript settings.
delete process.env.TS_NODE_PROJECT;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REFRESH_ONLY = process.env.BENCH_ONLY === "refresh";
const STACK_SIZE = 100;
const NEW_SOURCES = 50;
const NOOP_PROGRAM = path.join(__dirname, "programs", "noop");
const TARGETS = { refreshRequests: 3, refreshRatio: 1.3, previewRequests: 0, upRatio: 1.5 };

/** `count` webproxy Sources named after `prefix`, as the test program declares them. */
function sources(prefix: string, count: number) {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `${prefix}-${i}`,
      { name: `${prefix} ${i}`, deployment: { type: "webproxy", serviceSubdomains: [`${prefix}-${i}`] } },
    ]),
  );
}

function names(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
}

async function seconds(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  const data = createServeData("asset-delivery-bench-provider-");
  const stacks: ProgramStack[] = [];
  const serveArgs = (limits: "spec" | "off") => ["--rate-limits", limits, "--deploy-delay-ms", "0", "--deploy-lag-ms", "0"];
  let server: ServeProcess = await startServeProcess(data.dbPath, serveArgs("off"));
  // The stacks' one address, whichever server runs behind it; it counts the requests that pass.
  const proxy = await startCountingProxy(server.url);
  const serveWith = async (limits: "spec" | "off") => {
    await server.stop();
    server = await startServeProcess(data.dbPath, serveArgs(limits));
    proxy.retarget(server.url);
  };
  const stack = async (program: string, name: string, config: Record<string, unknown>) => {
    const made = await programStack(program, name, { baseUrl: proxy.url, apiKey: data.adminKey });
    stacks.push(made);
    await made.set(config);
    return made;
  };
  const sourcesProgram = path.join(TEST_PROGRAMS, "sources");
  const checks: Check[] = [];
  // Up of new Sources, limits off against the no-op stack, then at the spec's limits.
  const measureUps = async () => {
    // Limits off, against up of as many no-op resources.
    await serveWith("off");
    const up = { sources: [] as number[], noop: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      const fresh = await stack(sourcesProgram, `new${round}`, {
        "assetdelivery:pacing": "false",
        sources: sources(`new${round}`, NEW_SOURCES),
      });
      const freshNoop = await stack(NOOP_PROGRAM, `noop${round}`, { names: names(`noop${round}`, NEW_SOURCES) });
      up.sources.push(await seconds(() => fresh.stack.up()));
      up.noop.push(await seconds(() => freshNoop.stack.up()));
      console.log(
        `  up of ${NEW_SOURCES} round ${round + 1}: sources ${up.sources.at(-1)!.toFixed(1)} s, no-op ${up.noop.at(-1)!.toFixed(1)} s`,
      );
    }

    // Up of new Sources with the spec's limits and the client's pacing on.
    await serveWith("spec");
    const paced = await stack(sourcesProgram, "spec50", { sources: sources("spec", NEW_SOURCES) });
    proxy.reset();
    let shown = "";
    let failure: string | undefined;
    const pacedSeconds = await seconds(() =>
      paced.stack.up({ onOutput: (text: string) => (shown += text) }).catch((error: Error) => {
        failure = error.message;
      }),
    );
    const refused = proxy.counts.byStatus[429] ?? 0;
    const rateLimitShown = /\b429\b|TooManyRequests|rate limit/i.test(shown + (failure ?? ""));
    console.log(
      `  up of ${NEW_SOURCES} at the spec's limits: ${pacedSeconds.toFixed(1)} s, ${failure ? `failed: ${failure.slice(0, 300)}` : "succeeded"}; server answered 429 ${refused} times; shown to the user: ${rateLimitShown ? "yes" : "no"}`,
    );

    const upSources = median(up.sources);
    const upNoop = median(up.noop);
    console.log(`up of ${NEW_SOURCES}: sources ${upSources.toFixed(1)} s, no-op ${upNoop.toFixed(1)} s (medians)`);
    return [
      check("up", upSources / upNoop, TARGETS.upRatio, { atMost: true, describe: "no-op" }),
      check("up at spec limits: errors + 429s shown", (failure ? 1 : 0) + (rateLimitShown ? 1 : 0), 0, { atMost: true, unit: "" }),
    ];
  };
  try {
    // Setup, not timed: the 100-Source stack and its no-op twin.
    const big = await stack(sourcesProgram, "sources100", { "assetdelivery:pacing": "false", sources: sources("bench", STACK_SIZE) });
    const bigNoop = await stack(NOOP_PROGRAM, "noop100", { names: names("noop", STACK_SIZE) });
    for (const made of [big, bigNoop]) await made.stack.up();
    console.log(`provider: stacks of ${STACK_SIZE} created; ${ROUNDS} rounds each`);

    // Refresh and preview with the spec's limits on the server. (The stack keeps the configuration
    // it was created with, pacing off: a refresh runs with the provider configuration in the state,
    // and at 3 requests or fewer pacing never waits.)
    await serveWith("spec");
    const refresh = { sources: [] as number[], noop: [] as number[], requests: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      proxy.reset();
      refresh.sources.push(await seconds(() => big.stack.refresh()));
      refresh.requests.push(proxy.counts.requests);
      refresh.noop.push(await seconds(() => bigNoop.stack.refresh()));
      console.log(
        `  refresh round ${round + 1}: sources ${refresh.sources.at(-1)!.toFixed(1)} s (${proxy.counts.requests} requests: ${JSON.stringify(proxy.counts.byRequest)}), no-op ${refresh.noop.at(-1)!.toFixed(1)} s`,
      );
    }
    proxy.reset();
    const previewSeconds = await seconds(() => big.stack.preview({ expectNoChanges: true }));
    const previewRequests = proxy.counts.requests;
    console.log(`  preview: ${previewSeconds.toFixed(1)} s, ${previewRequests} requests`);

    const refreshSources = median(refresh.sources);
    const refreshNoop = median(refresh.noop);
    checks.push(
      check("refresh requests", Math.max(...refresh.requests), TARGETS.refreshRequests, { atMost: true, unit: "" }),
      check("refresh", refreshSources / refreshNoop, TARGETS.refreshRatio, { atMost: true, describe: "no-op" }),
      check("preview requests", previewRequests, TARGETS.previewRequests, { atMost: true, unit: "" }),
    );
    console.log(`refresh of ${STACK_SIZE}: sources ${refreshSources.toFixed(1)} s, no-op ${refreshNoop.toFixed(1)} s (medians)`);
    if (!REFRESH_ONLY) checks.push(...(await measureUps()));
  } finally {
    for (const made of stacks) await made.remove();
    await proxy.close();
    await server.stop();
    data.remove();
  }
  summarize("provider", checks);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
