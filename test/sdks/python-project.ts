// A Pulumi program in Python on the native plugin and the generated SDK (pulumi_assetdelivery), run
// by the real Pulumi CLI with this repo's Python language host (tools/pulumi-cli/cmd/pulumi-language-python)
// on a local file backend. It runs in the shared virtual environment that tools/install-python.sh
// makes (PyPI's pulumi and the SDK's wheel), named by absolute path in Pulumi.yaml's runtime options.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../support/pulumi";
import { yamlStack, type YamlStack } from "../plugin/yaml-stack";

export const PYTHON_VENV = path.join(repoRoot(), ".tools", "python", "venv");

/** Makes sure the shared venv is current (under a second when it is; ~40 s from nothing). */
export function installPythonVenv(): void {
  execFileSync("bash", [path.join(repoRoot(), "tools", "install-python.sh")], { stdio: "inherit" });
}

export interface PythonStack extends YamlStack {
  /** Rewrites __main__.py. */
  writeMain(source: string): void;
}

export async function pythonStack(
  name: string,
  stackName: string,
  main: string,
  credentials: { baseUrl: string; apiKey: string },
): Promise<PythonStack> {
  const stack = await yamlStack(name, stackName, {}, { credentials, runtime: { name: "python", options: { virtualenv: PYTHON_VENV } } });
  const writeMain = (source: string) => fs.writeFileSync(path.join(stack.workDir, "__main__.py"), source);
  writeMain(main);
  return { ...stack, writeMain };
}
