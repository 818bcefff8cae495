// The recorded stacks of each release (test/upgrade/recorded/v<version>/, written by
// tools/record-upgrade-states.sh) and what both the recording and the upgrade test do with them:
// the programs, the accounts and values they were recorded with, and a program's work folder made
// ready to run as a team runs it (its packages installed, its virtualenv, its Go build).
//
// A recorded version's folder holds, beside manifest.json (its programs, stacks, accounts, users):
//   emulator.db            the emulator's database the Sources live in (secrets sealed with UPGRADE_SERVER_KEY)
//   schema.json            the plugin's schema of that release
//   api/<package>.api.txt  the exported TypeScript API of @asset-delivery/sdk and /provider (api-report.ts)
//   <program>/             the program's files, Pulumi.<stack>.yaml (secrets encrypted with
//                          UPGRADE_PASSPHRASE) and <stack>.state.json (`pulumi stack export`)
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { pulumiEnv, repoRoot } from "../support/pulumi";
import { PYTHON_VENV } from "../sdks/python-project";
import { goMod, GO_SDK_DIR } from "../sdks/go-project";
import { runCli, type CliResult } from "../plugin/yaml-stack";

export const RECORDED_DIR = path.join(repoRoot(), "test", "upgrade", "recorded");
export const PROGRAMS_DIR = path.join(repoRoot(), "test", "upgrade", "programs");

/** Not a secret: the passphrase of the recorded stacks' config and state (Pulumi's passphrase provider). */
export const UPGRADE_PASSPHRASE = "asset-delivery-upgrade-states";
/** Not a secret: the key the recorded emulator seals its stored secrets with (ASSET_DELIVERY_SECRET_KEY). */
export const UPGRADE_SERVER_KEY = "7570677261646573207265636f7264656420627920746865207465737473212e";

/** Test values of the write-only fields the programs set: never in plain text in a recorded file. */
export const RECORDED_SECRETS = {
  s3SecretKey: "upgrade-s3-secret-Zq81xWv",
  gcsSecretKey: "upgrade-gcs-secret-Lm02Hbt",
  azureSasString: "sv=2024-11-04&sig=upgradeAzureSig93Kd",
  spacesSecretKey: "upgrade-spaces-secret-Pq55Ry",
  originPassword: "upgrade-origin-password-Tx4",
  handshake: "upgrade-handshake-0123456789abcd",
  signingKey: "upgrade-signing-key-0123456789ab",
} as const;

export type SecretName = keyof typeof RECORDED_SECRETS | `account:${string}`;

export type ProgramKind = "typescript-dynamic" | "root" | "yaml" | "python" | "go";

export interface RecordedProgram {
  /** Its folder under recorded/v<version>/. */
  name: string;
  kind: ProgramKind;
  stacks: string[];
  /** The account whose key is the stack's `assetdelivery:apiKey`. */
  account: string;
  /**
   * Secret config of every stack: config key (a path when it holds a dot) -> the name of a
   * RECORDED_SECRETS value, or `account:<name>` for that account's key (names only: the manifest
   * records these).
   */
  secrets: Record<string, SecretName>;
  /** Secret config of one stack, likewise. */
  stackSecrets?: Record<string, Record<string, SecretName>>;
}

export interface RecordedManifest {
  version: string;
  /**
   * The commit whose code was recorded: HEAD when the recording ran (tools/set-version.sh records
   * with the version bump it made, not yet committed; the recording's own commit holds both), an
   * ancestor of the commit that adds the folder (recorded-history.ts checks both).
   */
  sourceCommit: string;
  programs: RecordedProgram[];
  /** Accounts, each with the user names of its keys, and the dashboard users' e-mails. */
  accounts: { name: string; keyUsers: string[]; dashboardUsers: string[] }[];
}

export const TEAM_ACCOUNT = "upgrade-team";
export const SECOND_ACCOUNT = "upgrade-second";

/** The programs recorded now (an older version's manifest says which were recorded then). */
export const PROGRAMS: RecordedProgram[] = [
  {
    name: "typescript-dynamic",
    kind: "typescript-dynamic",
    stacks: ["prod"],
    account: TEAM_ACCOUNT,
    secrets: {
      s3SecretKey: "s3SecretKey",
      gcsSecretKey: "gcsSecretKey",
      azureSasString: "azureSasString",
      spacesSecretKey: "spacesSecretKey",
    },
  },
  {
    name: "yaml-native",
    kind: "yaml",
    stacks: ["prod"],
    account: TEAM_ACCOUNT,
    secrets: {
      secondApiKey: `account:${SECOND_ACCOUNT}`,
      originPassword: "originPassword",
      handshake: "handshake",
      signingKey: "signingKey",
    },
  },
  {
    name: "python-native",
    kind: "python",
    stacks: ["prod"],
    account: TEAM_ACCOUNT,
    secrets: { azureSasString: "azureSasString", spacesSecretKey: "spacesSecretKey" },
  },
  { name: "go-native", kind: "go", stacks: ["prod"], account: TEAM_ACCOUNT, secrets: { gcsSecretKey: "gcsSecretKey" } },
  {
    name: "root-example",
    kind: "root",
    stacks: ["dev", "prod"],
    account: TEAM_ACCOUNT,
    secrets: {},
    stackSecrets: { prod: { "sourceSecrets.assets.s3SecretKey": "s3SecretKey" } },
  },
];

/** Where the retire-then-adopt block of a program starts and ends (a line holding each marker). */
export const RETIRED_BLOCK = { begin: "upgrade:retired-then-adopted:begin", end: "upgrade:retired-then-adopted:end" };

/** The program's main file, the one that may hold a RETIRED_BLOCK. */
export function mainFile(kind: ProgramKind): string {
  return { "typescript-dynamic": "index.ts", root: "index.ts", yaml: "Pulumi.yaml", python: "__main__.py", go: "main.go" }[kind];
}

/** The providers' version of this checkout (the plugin's, the SDKs', the npm packages'). */
export function currentVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(repoRoot(), "provider", "package.json"), "utf8")) as { version: string }).version;
}

/** Orders versions X.Y.Z by their numbers. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number)) as [number[], number[]];
  return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
}

/** The recorded versions, oldest first. */
export function recordedVersions(): string[] {
  if (!fs.existsSync(RECORDED_DIR)) return [];
  return fs
    .readdirSync(RECORDED_DIR)
    .filter((name) => /^v\d+\.\d+\.\d+$/.test(name))
    .map((name) => name.slice(1))
    .sort(compareVersions);
}

export function readManifest(version: string): RecordedManifest {
  return JSON.parse(fs.readFileSync(path.join(RECORDED_DIR, `v${version}`, "manifest.json"), "utf8")) as RecordedManifest;
}

/**
 * The `@asset-delivery/sdk` and `/provider` tarballs `npm publish` would upload, from the built
 * dist/ (npm test builds first), packed into `dir`.
 */
export function packPackages(dir: string): string[] {
  const stdout = execFileSync(
    "npm",
    ["pack", "--json", "--ignore-scripts", "--pack-destination", dir, "--workspace=sdk", "--workspace=provider"],
    { cwd: repoRoot(), encoding: "utf8" },
  );
  return (JSON.parse(stdout) as { filename: string }[]).map(({ filename }) => path.join(dir, path.basename(filename)));
}

/** The dependencies a team's TypeScript project declares, at `version` of ours. */
export function typescriptDependencies(version: string): Record<string, string> {
  const root = JSON.parse(fs.readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  return {
    "@asset-delivery/provider": version,
    "@asset-delivery/sdk": version,
    "@pulumi/pulumi": root.devDependencies["@pulumi/pulumi"]!,
    "@types/node": root.devDependencies["@types/node"]!,
    typescript: root.devDependencies.typescript!,
  };
}

/**
 * Makes `workDir` (the program's files already there) runnable with this checkout's packages, SDKs
 * and plugin, as a team that upgraded has it: for TypeScript, `tarballs` (this checkout's packs)
 * installed with npm; for Python, the shared virtualenv (tools/install-python.sh: PyPI's pulumi and
 * the SDK's wheel) as `venv`; for Go, go.mod on the repo's SDK and the program built once.
 */
export async function prepareWorkDir(kind: ProgramKind, workDir: string, tarballs: readonly string[]): Promise<void> {
  if (kind === "typescript-dynamic") {
    const manifest = JSON.parse(fs.readFileSync(path.join(workDir, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const registry = Object.entries(manifest.dependencies)
      .filter(([name]) => !name.startsWith("@asset-delivery/"))
      .map(([name, range]) => `${name}@${range}`);
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--no-save", ...tarballs, ...registry], {
      cwd: workDir,
      env: userEnv(),
    });
  } else if (kind === "python") {
    fs.symlinkSync(PYTHON_VENV, path.join(workDir, "venv"), "dir");
  } else if (kind === "go") {
    fs.writeFileSync(path.join(workDir, "go.mod"), goMod("upgrade-go"));
    fs.copyFileSync(path.join(GO_SDK_DIR, "go.sum"), path.join(workDir, "go.sum"));
    await buildGoProgram(workDir);
    const project = path.join(workDir, "Pulumi.yaml");
    const text = fs.readFileSync(project, "utf8");
    if (!/^runtime: go$/m.test(text)) throw new Error(`${project}: expected "runtime: go"`);
    fs.writeFileSync(project, text.replace(/^runtime: go$/m, "runtime:\n  name: go\n  options:\n    binary: bin/program"));
  }
}

/** Builds the Go program of `workDir` into bin/program, which its Pulumi.yaml runs (Go's build cache: seconds). */
export async function buildGoProgram(workDir: string): Promise<void> {
  await run("go", ["build", "-o", path.join("bin", "program"), "."], { cwd: workDir });
}

const run = promisify(execFile);

/** The environment of a user's shell: no npm variables of the `npm test` running this. */
function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || /^npm_config_(registry|cache)$/i.test(key)),
  );
}

export interface ProgramCli {
  /** `pulumi ARGS --stack STACK` in the program's folder; never throws. */
  run(args: readonly string[], env?: Record<string, string>): Promise<CliResult>;
  /** Like run(), but throws with the output when the command fails. */
  ok(args: readonly string[], env?: Record<string, string>): Promise<CliResult>;
}

/**
 * The Pulumi CLI for one stack of a program in `workDir` (its file backend in workDir/.state): the
 * recorded passphrase, the service's address from ASSET_DELIVERY_BASE_URL (so that no address is
 * in a recorded state), and the plugin found first on PATH in `pluginDir`.
 */
export function programCli(workDir: string, stack: string, kind: ProgramKind, baseUrl: string, pluginDir: string): ProgramCli {
  const base = pulumiEnv({ stateDir: path.join(workDir, ".state"), passphrase: UPGRADE_PASSPHRASE });
  const env: Record<string, string> = {
    ...base,
    PATH: [pluginDir, base.PATH].join(path.delimiter),
    ASSET_DELIVERY_BASE_URL: baseUrl,
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    // The team's project finds its packages in its own node_modules only.
    ...(kind === "typescript-dynamic" ? { NODE_PATH: "" } : {}),
  };
  // `stack init` names its stack itself; `plugin` commands have none.
  const ofStack = (args: readonly string[]) => args[0] !== "plugin" && !(args[0] === "stack" && args[1] === "init");
  const run = (args: readonly string[], more: Record<string, string> = {}) =>
    runCli(ofStack(args) ? [...args, "--stack", stack] : args, workDir, { ...env, ...more });
  return {
    run,
    async ok(args, more) {
      const result = await run(args, more);
      if (result.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
      return result;
    },
  };
}
