// The Go tests of our language hosts (tools/pulumi-cli/cmd/...: flags, the engine health check, Run,
// code generation, the folders they write in), run by `go test` within `npm test`, so that it is the
// whole suite as the README says. `-trimpath` as tools/install-pulumi.sh builds the hosts, so the
// compile cache it filled is reused; the environment is the one that script builds in. One vitest
// test per Go package; a failure quotes each failed Go test's own output, and a skipped Go test fails
// its package unless ALLOWED_SKIPS names it with the reason it may skip.
import { spawn, spawnSync } from "node:child_process";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { goBinary, goEnv } from "../support/go";
import { repoRoot } from "../support/pulumi";

const MODULE_DIR = path.join(repoRoot(), "tools", "pulumi-cli");
const PACKAGES = "./cmd/...";
/** Compiling the hosts' tests and running them: ~12 CPU-seconds with a warm cache, 92 s measured at a load of 30. */
const GO_TEST_TIMEOUT_MS = 600_000;

/**
 * The Go tests that may skip (`<package>.<Test>`, a subtest as `Test/sub`), each with why: none. A
 * skip depends on the machine (its user, what it has installed), so one that is not listed here
 * would let a check go unrun unseen.
 */
const ALLOWED_SKIPS: Readonly<Record<string, string>> = {};

const GO = goBinary();
const GO_ENV = goEnv(GO);

/** The packages of tools/pulumi-cli/cmd that have tests (`go list` reads the module, compiles nothing). */
function packagesWithTests(): string[] {
  const listed = spawnSync(GO, ["list", "-f", "{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}", PACKAGES], {
    cwd: MODULE_DIR,
    env: GO_ENV,
    encoding: "utf8",
  });
  if (listed.status !== 0)
    throw new Error(`go list ${PACKAGES} in ${MODULE_DIR} failed (${listed.status ?? listed.signal}):\n${listed.stderr}`);
  return listed.stdout.split("\n").filter(Boolean);
}

/** One line of `go test -json` (test2json). */
interface TestEvent {
  Action: string;
  Package?: string;
  ImportPath?: string;
  Test?: string;
  Output?: string;
}

interface PackageResult {
  /** pass, fail or skip, as go test ended the package; undefined when it never said. */
  action?: string;
  /** Each test's outcome and output, by name. */
  tests: Map<string, { action?: string; output: string }>;
  /** Output outside any test: the build's errors, a panic, the closing lines. */
  output: string;
}

/** Runs `go test -json` over the packages once; its events grouped by package. */
async function goTest(): Promise<Map<string, PackageResult>> {
  const child = spawn(GO, ["test", "-json", "-trimpath", "-count=1", PACKAGES], { cwd: MODULE_DIR, env: GO_ENV });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", () => resolve());
  });
  const results = new Map<string, PackageResult>();
  const resultOf = (name: string) => {
    let result = results.get(name);
    if (!result) results.set(name, (result = { tests: new Map(), output: "" }));
    return result;
  };
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const event = JSON.parse(line) as TestEvent;
    const name = event.Package ?? event.ImportPath;
    if (name === undefined) continue;
    const result = resultOf(name);
    if (event.Test === undefined) {
      if (event.Output !== undefined) result.output += event.Output;
      if (["pass", "fail", "skip"].includes(event.Action)) result.action = event.Action;
      continue;
    }
    let test = result.tests.get(event.Test);
    if (!test) result.tests.set(event.Test, (test = { output: "" }));
    if (event.Output !== undefined) test.output += event.Output;
    if (["pass", "fail", "skip"].includes(event.Action)) test.action = event.Action;
  }
  // What go test said outside its JSON (a module that does not load, say) goes with every package.
  if (stderr.trim() !== "") for (const result of results.values()) result.output += stderr;
  if (results.size === 0) throw new Error(`go test ${PACKAGES} reported no package:\n${stderr}${stdout}`);
  return results;
}

const packages = packagesWithTests();
let results: Map<string, PackageResult>;
beforeAll(async () => {
  results = await goTest();
}, GO_TEST_TIMEOUT_MS);

describe(`go test ${PACKAGES} in tools/pulumi-cli (the language hosts)`, () => {
  it("has Go tests to run", () => {
    expect(packages.length).toBeGreaterThan(0);
  });

  it.each(packages)("%s passes", (name) => {
    const result = results.get(name);
    if (!result) throw new Error(`go test said nothing of ${name}`);
    const tests = [...result.tests];
    const skipped = tests.filter(([, test]) => test.action === "skip");
    for (const [test] of skipped.filter(([test]) => ALLOWED_SKIPS[`${name}.${test}`] !== undefined))
      console.warn(`${name}: ${test} skipped, as allowed: ${ALLOWED_SKIPS[`${name}.${test}`]}`);
    // Each skip not allowed, with the reason the Go test gave (its output but go test's own `=== RUN` and `--- SKIP` lines).
    const reason = (output: string) =>
      output
        .split("\n")
        .filter((line) => line.trim() !== "" && !/^\s*(===|---) /.test(line))
        .map((line) => line.trim())
        .join(" ");
    expect(
      skipped.filter(([test]) => ALLOWED_SKIPS[`${name}.${test}`] === undefined).map(([test, { output }]) => `${test}: ${reason(output)}`),
      `Go tests of ${name} skipped that ALLOWED_SKIPS does not name`,
    ).toEqual([]);
    const failed = tests.filter(([, test]) => test.action === "fail");
    // Each failed test's output, or the package's own (a build error, a panic outside any test).
    const report =
      failed.length > 0 ? failed.map(([test, { output }]) => `--- ${test}\n${output.trimEnd()}`).join("\n\n") : result.output.trimEnd();
    expect(
      failed.map(([test]) => test),
      report,
    ).toEqual([]);
    expect(result.action, report).toBe("pass");
    expect(tests.filter(([, test]) => test.action === "pass").length, report).toBeGreaterThan(0);
  });
});
