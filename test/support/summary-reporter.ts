// Ends every run with one plain line, `N passed, N failed[, N skipped]`, which CI reads whatever the
// test runner (vitest's own summary is not among the formats it knows).
import type { Reporter, TestModule } from "vitest/node" with { "resolution-mode": "import" };

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") counts.passed += 1;
        else if (state === "failed") counts.failed += 1;
        else counts.skipped += 1;
      }
      // A file that fails to load (or to type-check) has no tests to count but is a failure.
      if (module.state() === "failed" && ![...module.children.allTests()].some((t) => t.result().state === "failed")) counts.failed += 1;
    }
    counts.failed += unhandledErrors.length;
    const skipped = counts.skipped ? `, ${counts.skipped} skipped` : "";
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed${skipped}\n`);
  }
}
