// `npm run bench`: every benchmark in turn, each in its own process (they start servers and load
// them; running them side by side would measure each other). Exits non-zero when any target is
// missed or a benchmark fails; the summary lines are repeated at the end.
//
//   node bench/run-all.mjs [name ...]   (names: server, sdk, reports-stall, provider, scale, plugin, dashboard-flood, dashboard-soak, terraform-import, plugin-startup; default all but scale, plugin, dashboard-soak, terraform-import and plugin-startup)
import { spawn } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
// How each benchmark is started: the TypeScript one under ts-node (it shares the test helpers that
// drive Pulumi), with its own tsconfig.
const BENCHMARKS = {
  server: { args: [path.join(here, "server.mjs")], env: {} },
  sdk: { args: [path.join(here, "sdk.mjs")], env: {} },
  "reports-stall": { args: [path.join(here, "reports-stall.mjs")], env: {} },
  provider: {
    args: ["-r", "ts-node/register", path.join(here, "provider.ts")],
    env: { TS_NODE_PROJECT: path.join(here, "tsconfig.json") },
  },
  // Not in the default run: 1,000-Source stacks take long on a shared machine. `npm run bench -- scale`.
  scale: {
    args: ["-r", "ts-node/register", path.join(here, "scale.ts")],
    env: { TS_NODE_PROJECT: path.join(here, "tsconfig.json") },
    optIn: true,
  },
  // Not in the default run either: the native plugin beside the dynamic resource on the same Sources. `npm run bench -- plugin`.
  plugin: {
    args: ["-r", "ts-node/register", path.join(here, "plugin.ts")],
    env: { TS_NODE_PROJECT: path.join(here, "tsconfig.json") },
    optIn: true,
  },
  // The API's p99 beside a dashboard flood (moved out of the test suite: a timing). `npm run bench -- dashboard-flood`.
  "dashboard-flood": {
    args: ["-r", "ts-node/register", path.join(here, "dashboard-flood.ts")],
    env: { TS_NODE_PROJECT: path.join(here, "tsconfig.json") },
  },
  // What an anonymous client can make the server keep: memory after 10,000 hostile tries of each
  // kind beside ordinary ones (CPU-heavy). `npm run bench -- dashboard-soak`.
  "dashboard-soak": {
    args: ["--expose-gc", "-r", "ts-node/register", path.join(here, "dashboard-soak.ts")],
    env: { TS_NODE_PROJECT: path.join(here, "tsconfig.json") },
    optIn: true,
  },
  // `import --from-terraform` of 1,000 S3 Sources with their secrets (a minute of Source creation first). `npm run bench -- terraform-import`.
  "terraform-import": {
    args: ["-r", "ts-node/register", path.join(here, "terraform-import.ts")],
    env: { TS_NODE_PROJECT: path.join(here, "tsconfig.json") },
    optIn: true,
  },
  // The single-executable plugin's start-up beside the Node script's. `npm run bench -- plugin-startup`.
  "plugin-startup": { args: [path.join(here, "plugin-startup.mjs")], env: {}, optIn: true },
};

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in BENCHMARKS));
if (unknown.length) {
  console.error(`unknown benchmark ${unknown.join(", ")}: choose from ${Object.keys(BENCHMARKS).join(", ")}`);
  process.exit(2);
}

function run(name) {
  return new Promise((resolve) => {
    const { args, env } = BENCHMARKS[name];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
    let lastLine = "";
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      const lines = chunk.toString().trim().split("\n");
      lastLine = lines[lines.length - 1] || lastLine;
    });
    child.on("exit", (code, signal) =>
      resolve({ name, ok: code === 0, summary: lastLine.startsWith("bench ") ? lastLine : `bench ${name}: failed (${code ?? signal})` }),
    );
  });
}

const results = [];
for (const name of chosen.length ? chosen : Object.keys(BENCHMARKS).filter((name) => !BENCHMARKS[name].optIn)) {
  console.log(`\n==> bench ${name}`);
  results.push(await run(name));
}
console.log("\n==> summary");
for (const result of results) console.log(result.summary);
process.exitCode = results.every((result) => result.ok) ? 0 : 1;
