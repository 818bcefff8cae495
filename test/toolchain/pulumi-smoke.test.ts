// Smoke test of the repo-local Pulumi toolchain (tools/install-pulumi.sh): the real CLI v3.259.0
// driven by the Automation API, a local file backend in a temp dir, and one dynamic resource whose
// provider writes a file. Two ways in:
//  - an inline program (runs in this process; the CLI talks back to it, no language host), and
//  - a TypeScript program folder with Pulumi.yaml (runtime nodejs), run by our
//    pulumi-language-nodejs host — the way end-to-end tests of real programs run.
// Each goes up -> preview (expect no changes) -> refresh -> destroy.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, type PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedCliVersion, pulumiCommand, pulumiEnv, pulumiRoot, pulumiWorkDir } from "../support/pulumi";
import { SmokeFile } from "./smoke-program/smoke-file";

// The first run of a program folder type-checks and compiles it with ts-node: give it room.
const STEP_TIMEOUT = 240_000;

// The program folder, copied into a work folder for the second way in; the inline program uses its resource.
const SMOKE_PROGRAM = path.join(__dirname, "smoke-program");

async function runLifecycle(stack: Stack, target: string, content: string): Promise<void> {
  const up = await stack.up();
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
  expect(up.outputs.filePath?.value).toBe(target);
  expect(fs.readFileSync(target, "utf8")).toBe(content);

  // Fails (throws) if the program would change anything.
  const preview = await stack.preview({ expectNoChanges: true });
  expect(preview.changeSummary).toEqual({ same: 2 });

  const refresh = await stack.refresh();
  expect(refresh.summary.result).toBe("succeeded");
  expect(fs.existsSync(target)).toBe(true);

  const destroy = await stack.destroy();
  expect(destroy.summary.result).toBe("succeeded");
  expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
  expect(fs.existsSync(target)).toBe(false);
}

describe("Pulumi toolchain (CLI from .tools/pulumi via the Automation API)", () => {
  let cli: PulumiCommand;
  let tmp: string;
  const workDirs: string[] = [];
  const stacks: Stack[] = [];

  beforeAll(async () => {
    cli = await pulumiCommand();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-smoke-"));
  });

  afterAll(async () => {
    for (const stack of stacks) {
      await stack.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
    }
    for (const dir of [tmp, ...workDirs]) {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is the pinned CLI, with its bundled plugins beside it", () => {
    expect(cli.version?.version).toBe(expectedCliVersion());
    expect(cli.command).toBe(path.join(pulumiRoot(), "bin", "pulumi"));
    const bin = path.dirname(cli.command);
    for (const plugin of ["pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]) {
      expect(fs.existsSync(path.join(bin, plugin)), plugin).toBe(true);
    }
  });

  it(
    "inline program: up, preview without changes, refresh, destroy",
    async () => {
      const stateDir = path.join(tmp, "inline-state");
      const target = path.join(tmp, "inline.txt");
      const workDir = pulumiWorkDir("smoke-inline-");
      workDirs.push(workDir);
      const stack = await LocalWorkspace.createOrSelectStack(
        {
          stackName: "smoke",
          projectName: "pulumi-smoke-inline",
          program: async () => {
            const file = new SmokeFile("smoke-file", { path: target, content: "inline" });
            return { filePath: file.id };
          },
        },
        { pulumiCommand: cli, workDir, envVars: pulumiEnv({ stateDir }) },
      );
      stacks.push(stack);
      await runLifecycle(stack, target, "inline");
    },
    STEP_TIMEOUT,
  );

  it(
    "program folder (TypeScript, runtime nodejs): up, preview without changes, refresh, destroy",
    async () => {
      const stateDir = path.join(tmp, "program-state");
      const target = path.join(tmp, "program.txt");
      // Under <repo>/.data so that Node resolves @pulumi/pulumi from the repo's node_modules.
      const workDir = pulumiWorkDir("smoke-program-");
      workDirs.push(workDir);
      fs.cpSync(SMOKE_PROGRAM, workDir, { recursive: true });
      fs.writeFileSync(
        path.join(workDir, "package.json"),
        JSON.stringify({ name: "pulumi-smoke-program", private: true, main: "index.ts" }, null, 2),
      );

      const stack = await LocalWorkspace.createOrSelectStack(
        { stackName: "smoke", workDir },
        { pulumiCommand: cli, envVars: pulumiEnv({ stateDir }) },
      );
      stacks.push(stack);
      await stack.setAllConfig({
        path: { value: target },
        content: { value: "program" },
      });
      await runLifecycle(stack, target, "program");
    },
    STEP_TIMEOUT,
  );
});
