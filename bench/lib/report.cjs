// How benchmarks judge and print: a ratio measured side by side against its target, and the one
// summary line each benchmark ends with. CommonJS, so that the .mjs benchmarks and the TypeScript
// one (run by ts-node) share it.
"use strict";

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A measured figure against a target: "at least" (ratios of speed) or "at most" (ratios of time, counts). */
function check(label, value, target, { atMost = false, unit = "x", describe } = {}) {
  const pass = atMost ? value <= target : value >= target;
  const shown = unit === "x" ? `${value.toFixed(2)}x` : `${value}${unit}`;
  const targetShown = unit === "x" ? `${target}` : `${target}${unit}`;
  return {
    pass,
    text: `${label} ${shown}${describe ? ` ${describe}` : ""} (target ${atMost ? "<=" : ">="} ${targetShown}) ${pass ? "PASS" : "FAIL"}`,
  };
}

/** Prints `bench <name>: <check>; <check>` and sets the exit code when any check failed. */
function summarize(name, checks) {
  console.log(`bench ${name}: ${checks.map((c) => c.text).join("; ")}`);
  if (checks.some((c) => !c.pass)) process.exitCode = 1;
}

/** Runs `run` and gives its result with the seconds it took. */
async function timed(run) {
  const started = performance.now();
  const result = await run();
  return { seconds: (performance.now() - started) / 1000, result };
}

module.exports = { median, check, summarize, timed };
