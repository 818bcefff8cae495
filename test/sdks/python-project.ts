// A Pulumi program in Python on the native plugin and the generated SDK (pulumi_assetdelivery), run
// by the real Pulumi CLI with this repo's Python language host (tools/pulumi-cli/cmd/pulumi-language-python)
// on a local file backend. By default the program runs in the shared virtual environment that
// tools/install-python.sh makes (PyPI's pulumi and the SDK's wheel), named by absolute path in
// Pulumi.yaml's runtime options.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pulumiEnv, pulumiWorkDir, repoRoot } from "../support/pulumi";
import { PLUGIN_BIN_DIR, runCli, type CliResult } from "../plugin/yaml-stack";

export const PYTHON_VENV = path.join(repoRoot(), ".tools", "python", "venv");

/** Makes sure the shared venv is current (under a second when it is; ~40 s from nothing). */
export function installPythonVenv(): void {
  execFileSync("bash", [path.join(repoRoot(), "tools", "install-python.sh")], { stdio: "inherit" });
}

export interface PythonStack {
  workDir: string;
  /** Runs `pulumi ARGS --stack NAME` in the program's folder; never throws on a failed command. */
  pulumi(args: readonly string[]): Promise<CliResult>;
  /** Like pulumi(), but throws with the output when the command fails. */
  ok(args: readonly string[]): Promise<CliResult>;
  /** Rewrites __main__.py. */
  write(main: string): void;
  exportState(): Promise<string>;
  outputs(): Promise<Record<string, unknown>>;
  remove(): Promise<void>;
}

/** Pulumi.yaml of a Python project on the plugin in provider/bin. */
export function pythonProject(name: string, virtualenv: string = PYTHON_VENV): string {
  return JSON.stringify({
    name,
    runtime: { name: "python", options: { virtualenv } },
    plugins: { providers: [{ name: "assetdelivery", path: PLUGIN_BIN_DIR }] },
  });
}

export async function pythonStack(
  name: string,
  stackName: string,
  main: string,
  credentials: { baseUrl: string; apiKey: string },
): Promise<PythonStack> {
  const workDir = pulumiWorkDir(`${name}-`);
  const env = pulumiEnv({ stateDir: path.join(workDir, ".state") });
  fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), pythonProject(name));
  const write = (next: string) => fs.writeFileSync(path.join(workDir, "__main__.py"), next);
  write(main);
  const run = (args: readonly string[]) => runCli([...args, "--stack", stackName], workDir, env);
  const ok = async (args: readonly string[]) => {
    const result = await run(args);
    if (result.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
    return result;
  };
  const init = await runCli(["stack", "init", stackName], workDir, env);
  if (init.code !== 0) throw new Error(`pulumi stack init failed:\n${init.stdout}\n${init.stderr}`);
  await ok(["config", "set", "assetdelivery:baseUrl", credentials.baseUrl]);
  await ok(["config", "set", "--secret", "assetdelivery:apiKey", credentials.apiKey]);
  return {
    workDir,
    pulumi: run,
    ok,
    write,
    exportState: async () => (await ok(["stack", "export"])).stdout,
    outputs: async () => JSON.parse((await ok(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<string, unknown>,
    async remove() {
      await run(["stack", "rm", "--yes", "--force"]);
      fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}
