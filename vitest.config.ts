import { existsSync, readFileSync } from "node:fs";
import * as nodeModule from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const root = fileURLToPath(new URL("./", import.meta.url));
const workspaces = ["sdk", "server", "provider", "cli", "policy"];

/** Each declared export of a workspace package (`@asset-delivery/provider/core`) as its source module. */
function sourceAliases(): { find: RegExp; replacement: string }[] {
  return workspaces.flatMap((name) => {
    const { exports } = JSON.parse(readFileSync(`${root}${name}/package.json`, "utf8")) as {
      exports: Record<string, string | { default?: string; require?: string }>;
    };
    return Object.entries(exports)
      .filter(([subpath]) => subpath !== "./package.json" && !subpath.startsWith("./dist/"))
      .map(([subpath, target]) => {
        const built = typeof target === "string" ? target : (target.default ?? target.require ?? "");
        const escaped = `@asset-delivery/${name}${subpath.slice(1)}`.replace(/[/.-]/g, "\\$&");
        return {
          find: new RegExp(`^${escaped}$`),
          replacement: `${root}${name}/${built.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")}`,
        };
      });
  });
}

// Node's compile cache (V8's code for each module, on disk, used only while the file's content is the
// same), for this process, the workers, and everything the tests start, which inherits the variable:
// the tests start thousands of Node processes (Pulumi programs and hosts, the plugin, the CLI, the
// servers) that load the same modules, @pulumi/pulumi alone 0.8 s of CPU uncached, 0.5 s cached.
// Measured 2026-11-28 on the plugin's lifecycle file, side by side: 48.3 s of CPU without, 40.2 s with.
// (Node reads the variable from 22.1; this process's own call needs 22.8.)
process.env["NODE_COMPILE_CACHE"] ??= path.join(root, ".tools", "node-compile-cache");
if ("enableCompileCache" in nodeModule) nodeModule.enableCompileCache(process.env["NODE_COMPILE_CACHE"]);

// The order vitest starts test files in: the files known to take minutes first, the longest first,
// so that the two workers end together instead of one of them starting a 3-minute file when
// everything else is done. Vitest's own order cannot: with no results from an earlier run (a fresh
// clone, as CI's) it runs the largest files first, and the slowest files are among the smallest
// (test/faults/interrupted-runs*.test.ts are a few lines each, their suite a module of its own), and
// it runs every file of the project `full` before any of `minimal`.

/**
 * The slow files, from the root, longest first: their times in `npm test` on 2 cores
 * (the rehearsal of 2026-11-28 in docs/contributing.md). Each must exist: a renamed file
 * fails the run's start rather than drop to the end unseen.
 */
const SLOW_FILES = [
  "test/faults/interrupted-runs.test.ts", // 197 s: two suites side by side
  "test/release/release.test.ts", // 196 s
  "test/faults/interrupted-runs-minimal.test.ts", // 173 s
  "test/faults/hourly-budget.test.ts", // 158 s at 150 Sources, 124 s at 100 (2026-11-29); two shells side by side
  "test/upgrade/upgrade.test.ts", // 149 s
  "test/plugin/terraform-migration.test.ts", // 146 s
  "test/release/arm64-plugin.test.ts", // 106 s
  "test/faults/schemathesis.test.ts", // 70-300 s, by the machine's load
  "test/consumer/consumer.test.ts", // 80 s
  "test/toolchain/language-hosts-go.test.ts", // 70 s
];
for (const file of SLOW_FILES) {
  if (!existsSync(`${root}${file}`)) throw new Error(`vitest.config.ts: SLOW_FILES names ${file}, which does not exist`);
}

class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = SLOW_FILES.indexOf(path.relative(root, spec.moduleId).split(path.sep).join("/"));
      return at < 0 ? SLOW_FILES.length : at;
    };
    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// Tests run on the packages' source: a workspace package imported by name (`@asset-delivery/server`,
// `@asset-delivery/sdk/node-version`) resolves to its `src/` here, inside the source modules too, so
// each module loads once and unit tests need no build. Only what runs in another process uses the
// built `dist/` (npm test builds first): the `asset-delivery` command and `serve` children, the
// report generation process, Pulumi's hosts, the consumer tests' installed packages.
export default defineConfig({
  resolve: {
    // A module of one package still requires another only through its exports; unit tests of a
    // package's internals import its source by relative path.
    alias: sourceAliases(),
  },
  test: {
    pool: "forks",
    maxWorkers: 2,
    // Each worker runs its files one after another in one process, so that the modules they share
    // (the server, the sdk, zod, Fastify, the test support) load once a worker, not once a file: the
    // suite's files spent 224 s importing them, isolated. Module state lives on into later files:
    // the tests close what they start, restore what they spy on and set back the env they set, and
    // the dynamic runtime's one core per worker starts a new run at each configure (its hand-overs,
    // write budget and listings: test/provider/core-shape.test.ts shows two files' runs apart); measured
    // 2026-11-29 on test/sdk, server and dashboard (75 files): 454 -> 388 s of CPU, all passing.
    isolate: false,
    // The slowest files start first, so that the two workers end together.
    sequence: { sequencer: SlowFilesFirst },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // The tests' stacks keep their secrets with Pulumi's hashivault provider against this engine.
    globalSetup: ["./test/support/vault-transit-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "full",
          include: ["test/**/*.test.ts"],
          typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "test/tsconfig.json" },
        },
      },
      {
        // Every client of the server (SDK, CLI, provider, drift) once more against the minimal
        // profile, which sends only what the spec promises, as the real service: the servers these
        // tests start read ASSET_DELIVERY_PROFILE (test/support/server.ts, `serve`). The server's own
        // tests choose their profile per test; the two suites below run per profile in files of their own.
        extends: true,
        test: {
          name: "minimal",
          include: ["test/{sdk,cli,provider,drift}/**/*.test.ts"],
          exclude: [
            "test/provider/e2e/source-lifecycle*.test.ts",
            "test/provider/e2e/hand-over.test.ts",
            "test/provider/e2e/engine-options.test.ts", // the engine's options: nothing a profile changes
            "test/drift/drift-*.test.ts",
            "test/provider/examples-types.test.ts", // tsc of the examples: no server, nothing a profile changes
          ],
          env: { ASSET_DELIVERY_PROFILE: "minimal" },
        },
      },
    ],
  },
});
