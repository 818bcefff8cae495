// The workflows: actionlint (test/support/actionlint.ts, rhysd/actionlint built from its Go module,
// with shellcheck on the run: scripts) finds nothing in .github/workflows/, and finds a broken one. The release builds with the script the
// rehearsal runs (test/release/release.test.ts), so what is rehearsed is what is published; it starts
// every platform's binary (`verify`) before publishing anything, and installs what it published
// afterwards. CI runs the project's own .ci/run on every push and pull request, one run per branch at a time.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { actionlint, ACTIONLINT_TIMEOUT } from "../support/actionlint";
import { repoRoot } from "../support/pulumi";

const WORKFLOWS = path.join(repoRoot(), ".github", "workflows");
const read = (name: string) => fs.readFileSync(path.join(WORKFLOWS, name), "utf8");

interface Job {
  needs?: string | string[];
  "runs-on": string;
  strategy?: { matrix: { include?: Record<string, string>[]; runner?: string[]; language?: string[] } };
  steps: { uses?: string; run?: string; with?: Record<string, unknown> }[];
}
interface Workflow {
  on: Record<string, unknown>;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  jobs: Record<string, Job>;
}
const needs = (job: Job) => (typeof job.needs === "string" ? [job.needs] : (job.needs ?? []));

/** No configuration variables: the workflows use none, so any `vars.NAME` is a finding. */
const lintProblems = (text: string, name: string) =>
  actionlint(text, `.github/workflows/${name}`, { configVariables: [] }).map(
    ({ line, column, kind, message }) => `${line}:${column} ${kind}: ${message}`,
  );

describe(".github/workflows", () => {
  it.each(["release.yml", "ci.yml"])(
    "%s passes actionlint and shellcheck on its run: scripts, which do find a broken workflow and a broken script",
    (name) => {
      const text = read(name);
      expect(lintProblems(text, name)).toEqual([]);
      const broken = text.replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latest\n    timeout-minutes: soon");
      expect(broken).not.toBe(text);
      expect(lintProblems(broken, name).join("\n")).toContain("syntax-check");
      // An unquoted expansion in a step's script: shellcheck's SC2086.
      const script = text.replace(/^(\s+)run: ([^|>].*)$/m, "$1run: cd $HOME && $2");
      expect(script).not.toBe(text);
      expect(lintProblems(script, name).join("\n")).toMatch(/shellcheck reported issue in this script: SC2086/);
    },
    ACTIONLINT_TIMEOUT,
  );

  it(
    "actionlint reports a runner label that GitHub does not host",
    () => {
      const text = read("release.yml").replace("runs-on: ${{ matrix.runner }}", "runs-on: macos-14-large-typo");
      expect(lintProblems(text, "release.yml").join("\n")).toContain('runner-label: label "macos-14-large-typo" is unknown');
    },
    ACTIONLINT_TIMEOUT,
  );
});

describe(".github/workflows/release.yml", () => {
  const text = read("release.yml");
  const workflow = parse(text) as Workflow;

  it("builds with tools/build-release.sh, publishes what it built, and tags the Go module sdks/go/vX.Y.Z", () => {
    expect(text).toContain("run: bash tools/build-release.sh dist/release");
    expect(text).toContain("npm publish --provenance");
    expect(text).toContain("pypa/gh-action-pypi-publish");
    expect(text).toContain('git tag "sdks/go/${GITHUB_REF_NAME}"');
    expect(text).toContain("dist/release/plugin/SHA256SUMS");
  });

  it("signs each file of the Java SDK's Maven layout and uploads it to Maven Central with the secrets docs/releasing.md names", () => {
    const runs = workflow.jobs["maven-central"]!.steps.map((step) => step.run ?? "").join("\n");
    expect(runs).toContain("find dist/release/maven");
    expect(runs).toContain("--armor --detach-sign");
    expect(runs).toContain("https://central.sonatype.com/api/v1/publisher/upload");
    const releasing = fs.readFileSync(path.join(repoRoot(), "docs", "releasing.md"), "utf8");
    for (const secret of text.match(/secrets\.MAVEN_[A-Z_]+/g)!) expect(releasing).toContain(secret.slice("secrets.".length));
  });

  it("starts every binary not started in the build job on its own platform's runner before anything is published", () => {
    const verify = workflow.jobs.verify!;
    expect(verify.strategy!.matrix.include).toEqual([
      { runner: "ubuntu-24.04-arm", platform: "linux-arm64" },
      { runner: "macos-15-intel", platform: "darwin-amd64" },
      { runner: "macos-14", platform: "darwin-arm64" },
      { runner: "windows-latest", platform: "windows-amd64" },
    ]);
    const runs = verify.steps.map((step) => step.run ?? "").join("\n");
    expect(runs).toContain("sha256sum -c SHA256SUMS");
    expect(runs).toContain(
      'bash tools/verify/plugin.sh "dist/release/plugin/pulumi-resource-assetdelivery-${GITHUB_REF_NAME}-${{ matrix.platform }}.tar.gz"',
    );
    // Publishing starts from the GitHub release, and the GitHub release needs verify.
    expect(needs(workflow.jobs["github-release"]!)).toContain("verify");
    for (const publish of ["npm", "pypi", "maven-central", "go-tag"]) expect(needs(workflow.jobs[publish]!)).toEqual(["github-release"]);
  });

  it("installs each language's SDK from the real registries after publishing, on Linux, macOS and Windows", () => {
    const after = workflow.jobs["after-publish"]!;
    expect(needs(after).sort()).toEqual(["go-tag", "maven-central", "npm", "pypi"]);
    expect(after.strategy!.matrix.language).toEqual(["typescript", "python", "go", "java", "yaml"]);
    expect(after.strategy!.matrix.runner).toEqual(["ubuntu-latest", "macos-14", "windows-latest"]);
    expect(after.steps.map((step) => step.run ?? "").join("\n")).toContain('bash tools/verify/published.sh "${{ matrix.language }}"');
  });
});

describe(".github/workflows/ci.yml", () => {
  const workflow = parse(read("ci.yml")) as Workflow;

  it("runs .ci/run on every push and pull request, one run per branch or pull request at a time", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push"]);
    expect(workflow.concurrency).toEqual({ group: "ci-${{ github.event.pull_request.number || github.ref }}", "cancel-in-progress": true });
    expect(workflow.jobs.ci!.steps.at(-1)!.run).toBe("bash .ci/run");
  });

  it("caches npm's, Go's and pip's downloads and the Pulumi CLI build", () => {
    const steps = workflow.jobs.ci!.steps;
    expect(steps.find((step) => step.uses?.startsWith("actions/setup-node@"))!.with).toMatchObject({ cache: "npm" });
    expect(steps.find((step) => step.uses?.startsWith("actions/setup-go@"))!.with!["cache-dependency-path"]).toContain(
      "tools/pulumi-cli/go.sum",
    );
    const cached = steps.filter((step) => step.uses?.startsWith("actions/cache@")).map((step) => String(step.with!.path));
    expect(cached).toEqual(["~/.cache/pip", ".tools/maven/repository", ".tools/pulumi\n.tools/pulumi-oldest\n"]);
  });
});
