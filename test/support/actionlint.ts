// rhysd/actionlint, the GitHub Actions workflow checker, at the version tools/actionlint/go.mod pins:
// built from its Go module into .tools/actionlint (once per test process; Go's build cache makes a
// build after the first, ~10 CPU-seconds, a link), run on a workflow's text with the configuration
// variables (`vars.NAME`) it may use declared, so that a misspelt one is a finding. Each `run:`
// script goes through shellcheck (Debian's package, which tools/install-system-packages.sh installs:
// a machine without it fails here rather than leave the scripts unchecked). Its pyflakes
// integration is off: no workflow of ours runs Python inline.
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { goBinary, goEnv } from "./go";
import { repoRoot } from "./pulumi";

const MODULE_DIR = path.join(repoRoot(), "tools", "actionlint");
const BINARY = path.join(repoRoot(), ".tools", "actionlint", "actionlint");

export interface LintProblem {
  line: number;
  column: number;
  kind: string;
  message: string;
}

/** A test's time for its first call, which builds actionlint: a minute and more on a busy machine's cold cache. */
export const ACTIONLINT_TIMEOUT = 180_000;

let built = false;

/** shellcheck's path, found on PATH as actionlint would; throws when the machine lacks it. */
function shellcheck(): string {
  const found = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, "shellcheck"))
    .find((file) => fs.existsSync(file));
  if (found === undefined)
    throw new Error("actionlint checks run: scripts with shellcheck, which is missing: bash tools/install-system-packages.sh installs it");
  return found;
}

/** Builds the binary beside its place, then renames it there: test files in other workers may be running it. */
function build(): void {
  if (built) return;
  const go = goBinary();
  const fresh = `${BINARY}.${process.pid}`;
  fs.mkdirSync(path.dirname(BINARY), { recursive: true });
  execFileSync(go, ["build", "-trimpath", "-o", fresh, "github.com/rhysd/actionlint/cmd/actionlint"], {
    cwd: MODULE_DIR,
    env: goEnv(go),
    stdio: ["ignore", "inherit", "inherit"],
  });
  fs.renameSync(fresh, BINARY);
  built = true;
}

/**
 * The problems actionlint finds in a workflow's `text` (reported under `name`); `configVariables`:
 * the names `vars.NAME` may use (undefined: any name goes unchecked, as actionlint does without a
 * configuration).
 */
export function actionlint(text: string, name: string, options: { configVariables?: string[] } = {}): LintProblem[] {
  build();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "actionlint-"));
  try {
    const config = path.join(dir, "actionlint.yaml");
    fs.writeFileSync(config, options.configVariables ? `config-variables: ${JSON.stringify(options.configVariables)}\n` : "{}\n");
    const args = [
      "-config-file",
      config,
      `-shellcheck=${shellcheck()}`,
      "-pyflakes=",
      "-format",
      "{{json .}}",
      "-stdin-filename",
      name,
      "-",
    ];
    const run = spawnSync(BINARY, args, { input: text, encoding: "utf8" });
    // 0: nothing found; 1: problems found; anything else: actionlint itself failed.
    if (run.status !== 0 && run.status !== 1)
      throw new Error(`actionlint failed (${run.status ?? run.signal}): ${run.stderr}${run.stdout}`);
    const problems = JSON.parse(run.stdout.trim() || "[]") as LintProblem[];
    return problems.map(({ line, column, kind, message }) => ({ line, column, kind, message }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
