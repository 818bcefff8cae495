// The release workflow: actionlint (test/support/actionlint.ts) finds
// nothing in .github/workflows/release.yml, and its build step runs the script the rehearsal runs
// (test/release/release.test.ts), so what is rehearsed is what is published.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { actionlint, ACTIONLINT_TIMEOUT } from "../support/actionlint";
import { repoRoot } from "../support/pulumi";

const WORKFLOW = path.join(repoRoot(), ".github", "workflows", "release.yml");

describe(".github/workflows/release.yml", () => {
  it(
    "passes actionlint, which does find a broken workflow",
    () => {
      // No configuration variables: the workflow uses none, so any `vars.NAME` would be a finding.
      const lint = (text: string, name: string) => actionlint(text, name, { configVariables: [] });
      const text = fs.readFileSync(WORKFLOW, "utf8");
      expect(lint(text, ".github/workflows/release.yml")).toEqual([]);
      const broken = text.replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latest\n    timeout-minutes: soon");
      expect(lint(broken, ".github/workflows/release.yml").map((problem) => problem.kind)).toContain("syntax-check");
    },
    ACTIONLINT_TIMEOUT,
  );

  it("builds with tools/build-release.sh, publishes what it built, and tags the Go module sdks/go/vX.Y.Z", () => {
    const text = fs.readFileSync(WORKFLOW, "utf8");
    expect(text).toContain("run: bash tools/build-release.sh dist/release");
    expect(text).toContain("npm publish --provenance");
    expect(text).toContain("pypa/gh-action-pypi-publish");
    expect(text).toContain('git tag "sdks/go/${GITHUB_REF_NAME}"');
    expect(text).toContain("dist/release/plugin/SHA256SUMS");
  });
});
