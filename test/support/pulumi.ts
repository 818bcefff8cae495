// Repo-local Pulumi CLI for end-to-end tests (Automation API).
//
// The CLI (the version tools/pulumi-cli/go.mod pins, built offline by `bash tools/install-pulumi.sh`)
// lives in <repo>/.tools/pulumi/bin together with the Node.js language host and the dynamic-provider
// plugin; CI's oldest-pair run points PULUMI_CLI_ROOT at <repo>/.tools/pulumi-oldest instead
// (`bash tools/install-pulumi.sh oldest`). These helpers point the Automation API at it and keep every Pulumi file inside the repo
// (PULUMI_HOME in .tools/pulumi/home, stack state in .pulumi-state or a folder of your choice).
//
//   const cmd = await pulumiCommand();
//   const stack = await LocalWorkspace.createOrSelectStack(
//     { stackName: "dev", workDir: programDir },
//     { pulumiCommand: cmd, envVars: pulumiEnv({ stateDir }) },
//   );
//
// tools/pulumi-env.sh sets the same variables for a shell.

import * as fs from "node:fs";
import * as path from "node:path";
import { PulumiCommand } from "@pulumi/pulumi/automation";

/** The Pulumi CLI version a wrapper module pins (`tools/pulumi-cli/go.mod`, or `oldest/go.mod`). */
function pinnedCliVersion(module: "newest" | "oldest"): string {
  const goMod = path.join(repoRoot(), "tools", "pulumi-cli", ...(module === "oldest" ? ["oldest"] : []), "go.mod");
  const pinned = /^(?:require)?\s*github\.com\/pulumi\/pulumi\/pkg\/v3 v(\d+\.\d+\.\d+)$/m.exec(fs.readFileSync(goMod, "utf8"));
  if (!pinned) throw new Error(`${goMod} pins no github.com/pulumi/pulumi/pkg/v3`);
  return pinned[1]!;
}

/** Dev stacks only: the well-known passphrase used when PULUMI_CONFIG_PASSPHRASE is not set. Not a secret. */
export const DEV_CONFIG_PASSPHRASE = "asset-delivery-dev";

/**
 * Where a test's stack keeps its secrets: `"vault"`, Pulumi's hashivault provider against the tests'
 * Vault transit engine (test/support/vault-transit.ts, started by vitest's globalSetup: it saves the
 * passphrase's key derivation, 1.0 s of CPU in every command); `"passphrase"`, as a user's stack
 * does, for the tests that meet Pulumi as a user does or are about the passphrase itself.
 */
export type StackSecrets = "vault" | "passphrase";

/** The tests' Vault transit key that Pulumi's hashivault provider names. */
const VAULT_SECRETS_PROVIDER = "hashivault://asset-delivery-tests";

/** `--secrets-provider` for `pulumi stack init`, or the Automation API's `secretsProvider`: undefined for the passphrase. */
export function stackSecretsProvider(secrets: StackSecrets): string | undefined {
  if (secrets === "passphrase") return undefined;
  if (!process.env.VAULT_ADDR || !process.env.VAULT_TOKEN)
    throw new Error(
      "VAULT_ADDR and VAULT_TOKEN are not set: run the tests through vitest.config.ts, whose globalSetup starts the Vault transit engine",
    );
  return VAULT_SECRETS_PROVIDER;
}

/** `pulumi stack init NAME` with its secrets provider. */
export function stackInitArgs(stackName: string, secrets: StackSecrets): string[] {
  const provider = stackSecretsProvider(secrets);
  return ["stack", "init", stackName, ...(provider ? ["--secrets-provider", provider] : [])];
}

/** Absolute path of the repository root. */
export function repoRoot(): string {
  return path.resolve(__dirname, "..", "..");
}

/**
 * `<repo>/.tools/pulumi`, or `$PULUMI_CLI_ROOT` when set: the `root` that `PulumiCommand.get` expects
 * (it runs `<root>/bin/pulumi`).
 */
export function pulumiRoot(): string {
  return process.env.PULUMI_CLI_ROOT ? path.resolve(process.env.PULUMI_CLI_ROOT) : path.join(repoRoot(), ".tools", "pulumi");
}

/** The version the CLI under pulumiRoot() must have: the newest pin, or the oldest one for PULUMI_CLI_ROOT. */
export function expectedCliVersion(): string {
  return pinnedCliVersion(process.env.PULUMI_CLI_ROOT ? "oldest" : "newest");
}

/** `<repo>/.tools/pulumi/bin`: the CLI and its bundled plugins. */
export function pulumiBinDir(): string {
  return path.join(pulumiRoot(), "bin");
}

export interface PulumiEnvOptions {
  /** Folder for a local file backend (created if missing). Default: `<repo>/.pulumi-state`. */
  stateDir?: string;
  /** Full backend URL; wins over `stateDir`. */
  backendUrl?: string;
  /** Passphrase for stack secrets. Default: `$PULUMI_CONFIG_PASSPHRASE`, else DEV_CONFIG_PASSPHRASE. */
  passphrase?: string;
}

/**
 * Environment for running the repo-local CLI, as an object for `LocalWorkspace`'s `envVars`
 * (or `child_process` `env`, merged over `process.env`). Mirrors tools/pulumi-env.sh:
 * PATH (CLI folder first), PULUMI_HOME, PULUMI_BACKEND_URL, PULUMI_SKIP_UPDATE_CHECK and
 * PULUMI_CONFIG_PASSPHRASE, plus NODE_PATH (repo node_modules, for the dynamic-provider plugin), Go's
 * GOGC and GOMEMLIMIT (below) and, when the run has them, VAULT_ADDR and VAULT_TOKEN (StackSecrets).
 * PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK is never set.
 * Creates PULUMI_HOME and the state folder if they do not exist.
 */
export function pulumiEnv(opts: PulumiEnvOptions = {}): Record<string, string> {
  const root = repoRoot();
  const home = path.join(pulumiRoot(), "home");
  fs.mkdirSync(home, { recursive: true });

  let backendUrl = opts.backendUrl;
  if (backendUrl === undefined) {
    const stateDir = path.resolve(opts.stateDir ?? path.join(root, ".pulumi-state"));
    fs.mkdirSync(stateDir, { recursive: true });
    backendUrl = `file://${stateDir}`;
  }

  const env: Record<string, string> = {
    PATH: [pulumiBinDir(), process.env.PATH ?? ""].filter((p) => p !== "").join(path.delimiter),
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: backendUrl,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    // The dynamic-provider plugin (pulumi-resource-pulumi-nodejs) finds @pulumi/pulumi with
    // require.resolve from its current directory, which for inline programs is the calling process's
    // cwd: with the repo's node_modules on NODE_PATH it works from anywhere.
    NODE_PATH: [path.join(root, "node_modules"), process.env.NODE_PATH ?? ""].filter((p) => p !== "").join(path.delimiter),
    // Go's collector off until a process holds 1 GiB, for the CLI and the Go processes it starts (its
    // hosts, a Go program's build): the tests run some 2,000 short commands, whose collections are
    // work for nothing, and the limit still bounds a long run. Measured 2026-11-29, side by side:
    // `pulumi stack output` 0.26 -> 0.21 s of CPU, a YAML program's `preview` 0.72 -> 0.60 s.
    GOGC: "off",
    GOMEMLIMIT: "1GiB",
  };
  // The tests' Vault transit engine, for the stacks that keep their secrets there (StackSecrets).
  if (process.env.VAULT_ADDR) env.VAULT_ADDR = process.env.VAULT_ADDR;
  if (process.env.VAULT_TOKEN) env.VAULT_TOKEN = process.env.VAULT_TOKEN;
  if (opts.passphrase !== undefined) {
    env.PULUMI_CONFIG_PASSPHRASE = opts.passphrase;
  } else if (process.env.PULUMI_CONFIG_PASSPHRASE) {
    env.PULUMI_CONFIG_PASSPHRASE = process.env.PULUMI_CONFIG_PASSPHRASE;
  } else if (!process.env.PULUMI_CONFIG_PASSPHRASE_FILE) {
    env.PULUMI_CONFIG_PASSPHRASE = DEV_CONFIG_PASSPHRASE;
  }
  return env;
}

/**
 * The repo-local CLI for the Automation API (`pulumiCommand` option of LocalWorkspace).
 * `PulumiCommand.get({ root: <repo>/.tools/pulumi })` (it runs `<root>/bin/pulumi version`), then
 * checks it is the pinned version (expectedCliVersion) or newer.
 * Throws with a hint to run tools/install-pulumi.sh when the CLI is missing.
 */
export async function pulumiCommand(): Promise<PulumiCommand> {
  const cli = path.join(pulumiBinDir(), "pulumi");
  if (!fs.existsSync(cli)) {
    throw new Error(`Pulumi CLI not found at ${cli}: run \`bash tools/install-pulumi.sh\` first.`);
  }
  // `version` would want a semver.SemVer object, and `semver` is no direct dependency of this repo:
  // let get() run its own check (CLI >= the SDK's minimum, same major) and compare with our pin here.
  const cmd = await PulumiCommand.get({ root: pulumiRoot() });
  const expected = expectedCliVersion();
  if (cmd.version === null || cmd.version.compare(expected) < 0) {
    throw new Error(
      `Pulumi CLI at ${cli} is ${cmd.version?.version ?? "of unknown version"}; ` +
        `need >= ${expected}: run \`bash tools/install-pulumi.sh\`.`,
    );
  }
  return cmd;
}

/**
 * A fresh, empty folder under `<repo>/.data/pulumi/` (git-ignored) for a program or workspace.
 * Being inside the repo matters: Node resolves `@pulumi/pulumi` from there by walking up to
 * `<repo>/node_modules`, and so does the dynamic-provider plugin, which the CLI starts in the
 * program's folder. A folder under the OS temp dir would not find them.
 */
export function pulumiWorkDir(prefix = "work-"): string {
  const parent = path.join(repoRoot(), ".data", "pulumi");
  fs.mkdirSync(parent, { recursive: true });
  return fs.mkdtempSync(path.join(parent, prefix));
}
