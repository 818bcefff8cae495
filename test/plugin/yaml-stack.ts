// A Pulumi YAML program that uses the native plugin, run by the real Pulumi CLI (the repo's, with
// Pulumi YAML's language host beside it) on a local file backend. The program is written as an
// object and saved as JSON, which YAML reads as it is; with YAML code pasted in (what `pulumi
// import` prints), each top-level member is a line of its own and each resource a line below
// `resources:`, the pasted resources after them. By default the engine finds the plugin
// through `plugins.providers[].path` (the package's bin folder); `pluginPath: false` leaves it to
// PATH or the plugin cache. With `runtime` (`nodejs`, ...) the project is of another language: its
// Pulumi.yaml is written the same way, the program's files by the caller.
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pulumiBinDir, pulumiEnv, pulumiWorkDir, repoRoot, stackInitArgs, type StackSecrets } from "../support/pulumi";

export const PLUGIN_BIN_DIR = path.join(repoRoot(), "provider", "bin");

export interface YamlProgram {
  config?: Record<string, unknown>;
  resources?: Record<string, unknown>;
  variables?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command started, for a test that interrupts it (`interrupt()`: Ctrl-C, the engine's SIGINT). */
export interface StartedCli {
  interrupt(): void;
  /** What it printed so far, stdout and stderr as they came. */
  output(): string;
  /** Its exit code once it ended (null when killed by a signal). */
  ended: Promise<number | null>;
}

export interface YamlStack {
  workDir: string;
  /** The environment of every command (the CLI, the stack's file backend): for running the CLI directly. */
  env: Record<string, string>;
  /** Runs `pulumi ARGS --stack NAME` in the program's folder; never throws on a failed command. */
  pulumi(args: readonly string[], options?: { env?: Record<string, string> }): Promise<CliResult>;
  /** Starts `pulumi ARGS --stack NAME --non-interactive` there, without waiting for it. */
  start(args: readonly string[]): StartedCli;
  /** Like pulumi(), but throws with the output when the command fails. */
  ok(args: readonly string[], options?: { env?: Record<string, string> }): Promise<CliResult>;
  /**
   * Rewrites the program; `pasted`: YAML code declaring resources (a `resources:` section, as
   * `pulumi import` prints it) added to the program's as a user pastes it.
   */
  write(program: YamlProgram, pasted?: string): void;
  /** `pulumi stack export`: the state as the backend would give it to anyone who asks. */
  exportState(): Promise<string>;
  outputs(): Promise<Record<string, unknown>>;
  remove(): Promise<void>;
}

export interface YamlStackOptions {
  /** Where the plugin is found from the program (default: the package's bin folder); false: not in the program. */
  pluginPath?: string | false;
  /** Extra environment of every command (PULUMI_HOME for a fresh plugin cache, PATH, ...). */
  env?: Record<string, string>;
  /** The program's folder (default: a fresh one under <repo>/.data/pulumi). */
  workDir?: string;
  /** The stack's config: `assetdelivery:baseUrl` and a secret `assetdelivery:apiKey` when given. */
  credentials?: { baseUrl: string; apiKey: string };
  /** The project's runtime (default `yaml`); for another, the program's files are written beside Pulumi.yaml. */
  runtime?: string | { name: string; options?: Record<string, unknown> };
  /** Where the stack keeps its secrets (default `"vault"`, the tests' engine). */
  secrets?: StackSecrets;
}

export function runCli(args: readonly string[], cwd: string, env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      path.join(pulumiBinDir(), "pulumi"),
      [...args, "--non-interactive", "--color=never"],
      { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The native Source of this name in a `pulumi stack export`: its inputs and outputs as stored (secrets as ciphertext objects). */
export function exportedSource(exported: string, name: string): { inputs: any; outputs: any } {
  const state = JSON.parse(exported) as { deployment: { resources: { type: string; inputs: any; outputs: any }[] } };
  const source = state.deployment.resources.find((r) => r.type === "assetdelivery:index:Source" && r.outputs.name === name);
  if (!source) throw new Error(`no Source named ${JSON.stringify(name)} in the exported state`);
  return source;
}

/** The result of `pulumi ARGS`, or an error with its output when it failed. */
function succeeded(args: readonly string[], result: CliResult): CliResult {
  if (result.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return result;
}

/**
 * The dev stack of a native example copied into workDir, with the config each takes (`baseUrl`, and
 * `apiKey` and `originPassword` set with --secret). Returns `pulumi ARGS --stack dev` there, which
 * throws with the output when the command fails.
 */
export async function exampleDevStack(
  workDir: string,
  credentials: { baseUrl: string; apiKey: string },
  originPassword: string,
): Promise<(args: readonly string[]) => Promise<CliResult>> {
  const env = pulumiEnv({ stateDir: path.join(workDir, ".state") });
  const cli = async (args: readonly string[]) => succeeded(args, await runCli([...args, "--stack", "dev"], workDir, env));
  succeeded(["stack", "init"], await runCli(stackInitArgs("dev", "vault"), workDir, env));
  await cli(["config", "set", "baseUrl", credentials.baseUrl]);
  await cli(["config", "set", "--secret", "apiKey", credentials.apiKey]);
  await cli(["config", "set", "--secret", "originPassword", originPassword]);
  return cli;
}

/**
 * The resources of printed YAML code, as lines to paste below a program's `resources:`: the code
 * must be one `resources:` section (comments and blank lines aside), each line below it indented.
 */
export function pastedResources(code: string): string[] {
  const lines = code.split("\n").filter((line) => line.trim() !== "" && !line.trimStart().startsWith("#"));
  if (lines[0] !== "resources:" || lines.slice(1).some((line) => !line.startsWith("  ")))
    throw new Error(`not a single resources: section of YAML:\n${code}`);
  return lines.slice(1);
}

/** Pulumi.yaml's text: JSON, or with `pasted` resources each member and resource on a line of its own. */
function projectText(project: Record<string, unknown>, pasted: string | undefined): string {
  if (pasted === undefined) return JSON.stringify(project, null, 2);
  const { resources = {}, ...members } = project as { resources?: Record<string, unknown> };
  return [
    ...Object.entries(members).map(([key, value]) => `${key}: ${JSON.stringify(value)}`),
    "resources:",
    ...Object.entries(resources).map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`),
    ...pastedResources(pasted),
    "",
  ].join("\n");
}

export async function yamlStack(name: string, stackName: string, program: YamlProgram, options: YamlStackOptions = {}): Promise<YamlStack> {
  const workDir = options.workDir ?? pulumiWorkDir(`${name}-`);
  fs.mkdirSync(workDir, { recursive: true });
  const env = { ...pulumiEnv({ stateDir: path.join(workDir, ".state") }), ...options.env };
  const write = (next: YamlProgram, pasted?: string) => {
    const plugins =
      options.pluginPath === false
        ? {}
        : { plugins: { providers: [{ name: "assetdelivery", path: options.pluginPath ?? PLUGIN_BIN_DIR }] } };
    fs.writeFileSync(
      path.join(workDir, "Pulumi.yaml"),
      projectText({ name, runtime: options.runtime ?? "yaml", ...plugins, ...next }, pasted),
    );
  };
  write(program);
  const run = (args: readonly string[], more?: { env?: Record<string, string> }) =>
    runCli([...args, "--stack", stackName], workDir, { ...env, ...more?.env });
  const ok = async (args: readonly string[], more?: { env?: Record<string, string> }) => succeeded(args, await run(args, more));
  const init = await runCli(stackInitArgs(stackName, options.secrets ?? "vault"), workDir, env);
  if (init.code !== 0) throw new Error(`pulumi stack init failed:\n${init.stdout}\n${init.stderr}`);
  if (options.credentials) {
    await ok(["config", "set", "assetdelivery:baseUrl", options.credentials.baseUrl]);
    await ok(["config", "set", "--secret", "assetdelivery:apiKey", options.credentials.apiKey]);
  }
  return {
    workDir,
    env,
    pulumi: run,
    start(args) {
      const child = spawn(path.join(pulumiBinDir(), "pulumi"), [...args, "--stack", stackName, "--non-interactive"], {
        cwd: workDir,
        env: { ...process.env, ...env },
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      return {
        interrupt: () => void child.kill("SIGINT"),
        output: () => output,
        ended: new Promise((resolve) => child.on("close", resolve)),
      };
    },
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
