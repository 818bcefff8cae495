// The example workflow users copy (examples/drift-review/drift.yml), checked as GitHub would read
// it: actionlint (test/support/actionlint.ts, with shellcheck on its scripts) finds no problem,
// with the configuration variables the example's README tells users to define declared (a misspelt
// one is a finding), and the Node.js it sets up is one our commands run on.
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { actionlint, ACTIONLINT_TIMEOUT } from "../support/actionlint";
import { repoRoot } from "../support/pulumi";

const WORKFLOW = path.join(repoRoot(), "examples", "drift-review", "drift.yml");
/** The configuration variables examples/drift-review/README.md tells users to define (steps 3 and 4). */
const CONFIG_VARIABLES = ["PULUMI_BACKEND_URL", "ASSET_DELIVERY_BASE_URL"];

interface Workflow {
  jobs: Record<string, { env?: Record<string, string>; steps: { uses?: string; with?: Record<string, unknown> }[] }>;
}

describe("examples/drift-review/drift.yml", () => {
  it(
    "passes actionlint and shellcheck on its run: scripts, which find a configuration variable the README does not name",
    () => {
      const text = fs.readFileSync(WORKFLOW, "utf8");
      const lint = (workflow: string) =>
        actionlint(workflow, "drift.yml", { configVariables: CONFIG_VARIABLES }).map(
          ({ line, column, kind, message }) => `${line}:${column} ${kind}: ${message}`,
        );
      expect(lint(text)).toEqual([]);
      const readme = fs.readFileSync(path.join(path.dirname(WORKFLOW), "README.md"), "utf8");
      for (const name of CONFIG_VARIABLES) expect(readme).toContain(`\`${name}\``);
      const misspelt = text.replace("vars.PULUMI_BACKEND_URL", "vars.PULUMI_BACKEND_ULR");
      expect(lint(misspelt)).toEqual([expect.stringContaining('expression: undefined configuration variable "pulumi_backend_ulr"')]);
    },
    ACTIONLINT_TIMEOUT,
  );

  it("sets up a Node.js the asset-delivery command runs on (22 or later)", () => {
    const workflow = parse(fs.readFileSync(WORKFLOW, "utf8")) as Workflow;
    const versions = Object.values(workflow.jobs).flatMap(({ steps }) =>
      steps.filter((step) => step.uses?.startsWith("actions/setup-node@")).map((step) => Number(step.with?.["node-version"])),
    );
    expect(versions).toEqual([24]);
  });

  it("passes the job's token to Pulumi, whose plugin download through api.github.com is rate-limited without one", () => {
    const workflow = parse(fs.readFileSync(WORKFLOW, "utf8")) as Workflow;
    for (const [name, job] of Object.entries(workflow.jobs)) expect(job.env?.GITHUB_TOKEN, name).toBe("${{ github.token }}");
  });
});
