// Our Python language host (tools/pulumi-cli/cmd/pulumi-language-python) through the real CLI, on
// programs that need no provider: what the exec shim hands the `pulumi` package (project, stack,
// organization, root folder, dry run, config and its secrets), python3 from PATH when Pulumi.yaml
// names no virtualenv, the plugins of the installed packages, and the errors a user meets with a
// clear message.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulumiEnv, pulumiWorkDir, repoRoot, stackInitArgs } from "../support/pulumi";
import { runCli, type CliResult } from "../plugin/yaml-stack";
import { installPythonVenv, PYTHON_VENV } from "./python-project";

const STEP_TIMEOUT = 300_000;
const SECRET = "python-host-secret-value";
// The plugin's, the schema's and so the generated SDK's version.
const VERSION = (JSON.parse(fs.readFileSync(path.join(repoRoot(), "provider", "package.json"), "utf8")) as { version: string }).version;
let workDir: string;
let env: Record<string, string>;

/** The host's temporary folder in this test (TMPDIR). */
const tmpDir = () => path.join(workDir, "tmp");

/** Writes the project (Pulumi.yaml as JSON) and its files. */
function writeProject(project: Record<string, unknown>, files: Record<string, string>): void {
  fs.rmSync(path.join(workDir, "src"), { recursive: true, force: true });
  fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), JSON.stringify({ name: "python-host", ...project }));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(workDir, file)), { recursive: true });
    fs.writeFileSync(path.join(workDir, file), text);
  }
}

/** Writes the project, then runs `pulumi ARGS --stack dev` in it. */
async function inProject(project: Record<string, unknown>, files: Record<string, string>, args: string[]): Promise<CliResult> {
  writeProject(project, files);
  return runCli([...args, "--stack", "dev"], workDir, env);
}

beforeAll(async () => {
  installPythonVenv();
  workDir = pulumiWorkDir("python-host-");
  // No virtualenv option below: the host runs python3 from PATH, here the shared venv's.
  env = { ...pulumiEnv({ stateDir: path.join(workDir, ".state") }), PULUMI_PYTHON_CMD: "" };
  env.PATH = `${path.join(PYTHON_VENV, "bin")}${path.delimiter}${env.PATH}`;
  // Folders of this test's own, to see what the host leaves behind.
  env.TMPDIR = tmpDir();
  env.XDG_CACHE_HOME = path.join(workDir, "cache");
  fs.mkdirSync(tmpDir());
  fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), JSON.stringify({ name: "python-host", runtime: "python" }));
  const init = await runCli(stackInitArgs("dev", "vault"), workDir, env);
  expect(init.code, init.stderr).toBe(0);
  for (const args of [
    ["config", "set", "greeting", "hello"],
    ["config", "set", "--secret", "token", SECRET],
  ]) {
    const set = await runCli([...args, "--stack", "dev"], workDir, env);
    expect(set.code, set.stderr).toBe(0);
  }
}, STEP_TIMEOUT);

afterAll(async () => {
  await runCli(["stack", "rm", "--yes", "--force", "--stack", "dev"], workDir, env);
  fs.rmSync(workDir, { recursive: true, force: true });
}, STEP_TIMEOUT);

describe("pulumi-language-python", () => {
  it(
    "runs the program with python3 from PATH, the runtime configured from the run request, secrets kept secret; names the SDK's plugin",
    async () => {
      const main = `import sys
import pulumi

config = pulumi.Config()
pulumi.export("python", sys.executable)
pulumi.export("names", [pulumi.get_organization(), pulumi.get_project(), pulumi.get_stack()])
pulumi.export("root", pulumi.get_root_directory())
pulumi.export("dryRun", pulumi.runtime.is_dry_run())
pulumi.export("greeting", config.require("greeting"))
pulumi.export("token", config.require_secret("token"))
pulumi.export("tokenIsSecret", pulumi.runtime.is_config_secret("python-host:token"))
`;
      const up = await inProject({ runtime: "python" }, { "__main__.py": main }, ["up", "--yes"]);
      expect(up.code, up.stdout + up.stderr).toBe(0);
      expect(up.stdout).not.toContain(SECRET);
      // The engine ends its host with SIGKILL: the exec shim is written once into the user's cache,
      // and nothing is left per run in the temporary folder.
      expect(fs.readdirSync(tmpDir()).filter((name) => name.startsWith("pulumi-language-python"))).toEqual([]);
      expect(fs.readdirSync(path.join(workDir, "cache", "pulumi-language-python"))).toEqual([
        expect.stringMatching(/^pulumi-language-python-exec-[0-9a-f]{16}\.py$/),
      ]);
      const out = await runCli(["stack", "output", "--json", "--show-secrets", "--stack", "dev"], workDir, env);
      const outputs = JSON.parse(out.stdout) as Record<string, unknown>;
      expect(outputs.python).toBe(path.join(PYTHON_VENV, "bin", "python3"));
      expect(outputs).toMatchObject({
        names: ["organization", "python-host", "dev"],
        root: fs.realpathSync(workDir),
        dryRun: false,
        greeting: "hello",
        token: SECRET,
        tokenIsSecret: true,
      });
      const exported = await runCli(["stack", "export", "--stack", "dev"], workDir, env);
      expect(exported.stdout).not.toContain(SECRET);

      // What the engine learns of the program: the plugin the installed SDK names in its pulumi-plugin.json
      // (GetRequiredPackages), and the packages installed (GetProgramDependencies).
      const about = await runCli(["about", "--json", "--stack", "dev"], workDir, env);
      expect(about.code, about.stderr).toBe(0);
      const { plugins, dependencies } = JSON.parse(about.stdout) as {
        plugins: { name: string; version: string; kind: string }[];
        dependencies: { name: string; version: string }[];
      };
      expect(plugins).toContainEqual({ name: "assetdelivery", version: VERSION, kind: "resource" });
      expect(dependencies).toContainEqual({ name: "pulumi-assetdelivery", version: VERSION });
    },
    STEP_TIMEOUT,
  );

  it(
    "runs a stack that has no config at all",
    async () => {
      writeProject({ runtime: "python" }, { "__main__.py": 'import pulumi\n\npulumi.export("config", pulumi.Config().get("missing"))\n' });
      expect((await runCli(stackInitArgs("bare", "vault"), workDir, env)).code).toBe(0);
      const preview = await runCli(["preview", "--stack", "bare"], workDir, env);
      expect(preview.code, preview.stdout + preview.stderr).toBe(0);
      await runCli(["stack", "rm", "--yes", "--force", "--stack", "bare"], workDir, env);
    },
    STEP_TIMEOUT,
  );

  it(
    "stops before the program on a wrong runtime option, a type error (typechecker: mypy) and a folder without __main__.py",
    async () => {
      const badOption = await inProject({ runtime: { name: "python", options: { toolchain: "conda" } } }, {}, ["preview"]);
      expect(badOption.code).not.toBe(0);
      expect(badOption.stdout + badOption.stderr).toContain(
        'Pulumi.yaml runtime.options.toolchain: must be pip, poetry or uv, not "conda"',
      );

      const typeError = await inProject(
        { runtime: { name: "python", options: { typechecker: "mypy" } } },
        { "__main__.py": 'count: int = "three"\n' },
        ["preview"],
      );
      expect(typeError.code).not.toBe(0);
      expect(typeError.stdout + typeError.stderr).toContain("Incompatible types in assignment");
      expect(typeError.stdout + typeError.stderr).toContain("mypy failed");

      const noMain = await inProject({ runtime: "python", main: "src" }, { "src/helpers.py": "VALUE = 1\n" }, ["preview"]);
      expect(noMain.code).not.toBe(0);
      expect(noMain.stdout + noMain.stderr).toContain("unable to find main python program `__main__.py`");
      expect(noMain.stdout + noMain.stderr).not.toContain("non-zero exit code");
    },
    STEP_TIMEOUT,
  );
});
