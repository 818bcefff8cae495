// The order vitest starts test files in (vitest.config.ts `sequence.sequencer`): the files known to
// take minutes first, the longest first, so that the two workers end together instead of one of them
// starting a 3-minute file when everything else is done. Vitest's own order cannot: with no results
// from an earlier run (a fresh clone, as CI's) it runs the largest files first, and the slowest
// files are among the smallest (test/faults/interrupted-runs*.test.ts are 5 lines each, their suite
// is a module of their own), and it runs every file of the project `full` before any of `minimal`.
import * as fs from "node:fs";
import * as path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The slow files, from the root, longest first: their times in `npm test` on 2 cores
 * (docs/contributing.md, 2026-11-28, and the files' own comments). Each must exist: a renamed
 * file fails the run's start rather than drop to the end unseen.
 */
export const SLOW_FILES = [
  "test/faults/hourly-budget.test.ts", // 280 s with its two shells one after the other
  "test/release/release.test.ts", // 249 s
  "test/consumer/consumer.test.ts", // about 3 min
  "test/faults/schemathesis.test.ts", // 95-299 s alone, by the machine's load
  "test/faults/interrupted-runs.test.ts", // 100-165 s each
  "test/faults/interrupted-runs-native.test.ts",
  "test/faults/interrupted-runs-minimal.test.ts",
  "test/faults/interrupted-runs-native-minimal.test.ts",
  "test/upgrade/upgrade.test.ts", // 126 s
  "test/release/arm64-plugin.test.ts", // 107 s
  "test/toolchain/language-hosts-go.test.ts", // 74 s
];

const root = path.resolve(__dirname, "..", "..");
for (const file of SLOW_FILES) {
  if (!fs.existsSync(path.join(root, file))) throw new Error(`test/support/slow-files-first.ts names ${file}, which does not exist`);
}

export default class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = SLOW_FILES.indexOf(path.relative(root, spec.moduleId).split(path.sep).join("/"));
      return at < 0 ? SLOW_FILES.length : at;
    };
    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
