import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

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
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ["default", "./test/support/summary-reporter.ts"],
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
          exclude: ["test/provider/e2e/source-lifecycle*.test.ts", "test/provider/e2e/hand-over.test.ts", "test/drift/drift-*.test.ts"],
          env: { ASSET_DELIVERY_PROFILE: "minimal" },
        },
      },
    ],
  },
});
