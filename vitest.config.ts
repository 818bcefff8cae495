import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("./", import.meta.url));

// Tests import the workspace packages by name, so they run against the built `dist/` (npm test builds first).
export default defineConfig({
  resolve: {
    // Unit tests of a package's internals reach its built modules by path (`@asset-delivery/provider/dist/check`),
    // which the packages' `exports` maps rightly refuse to everyone else; a module of one package still
    // requires another only through its exports (Node resolves those requires, not this alias).
    alias: [{ find: /^@asset-delivery\/(sdk|server|provider|cli)\/dist\/(.+)$/, replacement: `${root}$1/dist/$2` }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ["default", "./test/support/summary-reporter.ts"],
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "test/tsconfig.json" },
  },
});
