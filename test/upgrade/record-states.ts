// Records the stacks of this release for the upgrade test (test/upgrade/upgrade.test.ts): run by
// tools/record-upgrade-states.sh (which tools/set-version.sh calls) on the code being released.
//
// One emulator on a fresh database (its stored secrets sealed with UPGRADE_SERVER_KEY) with two
// accounts; each program of recorded-stacks.ts's PROGRAMS run by the real Pulumi CLI as a team runs
// it (TypeScript with the packed packages installed by npm, Python in the virtualenv with the SDK's
// wheel, Go on the SDK module, YAML; the native ones on this checkout's plugin), a program with a
// retire-then-adopt block `up` three times (with it, without it: the Source retired, with it again:
// adopted); then, per stack, the program, its config and `pulumi stack export` copied into
// test/upgrade/recorded/v<version>/, with the database (compacted), the plugin's schema, the
// exported TypeScript API of @asset-delivery/sdk and /provider (api-report.ts) and, in
// manifest.json, the commit whose code was recorded (HEAD; set-version.sh's version bump on top).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { createKey, createUser, ensureAccount, startServer } from "@asset-delivery/server";
import { pulumiBinDir, repoRoot } from "../support/pulumi";
import { apiReports } from "./api-report";
import {
  currentVersion,
  mainFile,
  packPackages,
  prepareWorkDir,
  programCli,
  PROGRAMS,
  PROGRAMS_DIR,
  RECORDED_DIR,
  RECORDED_SECRETS,
  RETIRED_BLOCK,
  SECOND_ACCOUNT,
  TEAM_ACCOUNT,
  typescriptDependencies,
  UPGRADE_SERVER_KEY,
  type RecordedManifest,
  type RecordedProgram,
} from "./recorded-stacks";

const PLUGIN_DIR = path.join(repoRoot(), "provider", "bin");
/** Files of a work folder that are not the team's program: installed, built or Pulumi's own. */
const NOT_RECORDED = new Set(["node_modules", "package-lock.json", "venv", "bin", ".state", "go.sum"]);

function log(message: string): void {
  process.stderr.write(`[record-upgrade-states] ${message}\n`);
}

/** The program's source files: the root example's own files, or its folder under programs/. */
function programFiles(program: RecordedProgram): { dir: string; files: string[] } {
  if (program.kind === "root")
    return { dir: repoRoot(), files: ["Pulumi.yaml", "index.ts", ...program.stacks.map((s) => `Pulumi.${s}.yaml`)] };
  const dir = path.join(PROGRAMS_DIR, program.name);
  return { dir, files: fs.readdirSync(dir) };
}

/** The ids of the resources of a `pulumi stack export` that have one, sorted. */
function sourceIds(exported: string): string[] {
  const state = JSON.parse(exported) as { deployment: { resources?: { type: string; id?: string }[] } };
  return (state.deployment.resources ?? [])
    .filter((r) => !r.type.startsWith("pulumi:") && r.id)
    .map((r) => r.id!)
    .sort();
}

/** The main file without its retire-then-adopt block, or undefined when it has none. */
function withoutRetiredBlock(text: string): string | undefined {
  const lines = text.split("\n");
  const begin = lines.findIndex((line) => line.includes(RETIRED_BLOCK.begin));
  const end = lines.findIndex((line) => line.includes(RETIRED_BLOCK.end));
  if (begin < 0 && end < 0) return undefined;
  if (begin < 0 || end < begin) throw new Error(`unbalanced ${RETIRED_BLOCK.begin} / ${RETIRED_BLOCK.end} markers`);
  return [...lines.slice(0, begin), ...lines.slice(end + 1)].join("\n");
}

async function recordProgram(
  program: RecordedProgram,
  work: string,
  out: string,
  ctx: { version: string; baseUrl: string; keys: Record<string, string>; tarballs: string[] },
): Promise<void> {
  const workDir = path.join(work, program.name);
  const { dir, files } = programFiles(program);
  fs.mkdirSync(workDir, { recursive: true });
  for (const file of files) fs.cpSync(path.join(dir, file), path.join(workDir, file), { recursive: true });
  if (program.kind === "typescript-dynamic") {
    const manifest = { name: program.name, private: true, main: "index.ts", dependencies: typescriptDependencies(ctx.version) };
    fs.writeFileSync(path.join(workDir, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
  } else if (program.kind === "python") {
    fs.writeFileSync(path.join(workDir, "requirements.txt"), `pulumi_assetdelivery==${ctx.version}\n`);
  } else if (program.kind === "go") {
    fs.writeFileSync(
      path.join(workDir, "go.mod"),
      `module upgrade-go\n\nrequire github.com/asset-delivery/asset-delivery-as-code/sdks/go v${ctx.version}\n`,
    );
  }
  // The program as the team wrote it, before it is prepared to run here.
  const recorded = path.join(out, program.name);
  fs.mkdirSync(recorded, { recursive: true });
  for (const file of fs.readdirSync(workDir).filter((name) => !NOT_RECORDED.has(name) && !/^Pulumi\..+\.yaml$/.test(name)))
    fs.cpSync(path.join(workDir, file), path.join(recorded, file), { recursive: true });
  await prepareWorkDir(program.kind, workDir, ctx.tarballs);

  const main = path.join(workDir, mainFile(program.kind));
  const full = fs.readFileSync(main, "utf8");
  const retired = withoutRetiredBlock(full);
  for (const stack of program.stacks) {
    const cli = programCli(workDir, stack, program.kind, ctx.baseUrl, PLUGIN_DIR);
    // The root example's stack files hold its plain config already; `stack init` keeps them.
    await cli.ok(["stack", "init", stack]);
    await cli.ok(["config", "set", "--secret", "assetdelivery:apiKey", ctx.keys[program.account]!]);
    for (const [key, value] of Object.entries({ ...program.secrets, ...program.stackSecrets?.[stack] })) {
      const secret = value.startsWith("account:")
        ? ctx.keys[value.slice("account:".length)]!
        : RECORDED_SECRETS[value as keyof typeof RECORDED_SECRETS];
      await cli.ok(["config", "set", "--secret", ...(key.includes(".") ? ["--path"] : []), key, secret]);
    }
    log(`${program.name} (${stack}): pulumi up`);
    await cli.ok(["up", "--yes", "--skip-preview"]);
    if (retired !== undefined) {
      log(`${program.name} (${stack}): the block retired, then adopted again`);
      const created = sourceIds((await cli.ok(["stack", "export"])).stdout);
      fs.writeFileSync(main, retired);
      await cli.ok(["up", "--yes", "--skip-preview"]);
      fs.writeFileSync(main, full);
      await cli.ok(["up", "--yes", "--skip-preview"]);
      const adopted = sourceIds((await cli.ok(["stack", "export"])).stdout);
      if (adopted.join() !== created.join())
        throw new Error(`${program.name} (${stack}): the retired Source was not adopted again: ${created.join()} then ${adopted.join()}`);
    }
    await cli.ok(["preview", "--expect-no-changes"]);
    fs.copyFileSync(path.join(workDir, `Pulumi.${stack}.yaml`), path.join(recorded, `Pulumi.${stack}.yaml`));
    const exported = (await cli.ok(["stack", "export"])).stdout;
    fs.writeFileSync(path.join(recorded, `${stack}.state.json`), JSON.stringify(JSON.parse(exported), null, 1) + "\n");
  }
}

async function main(): Promise<void> {
  const version = currentVersion();
  const out = path.join(RECORDED_DIR, `v${version}`);
  if (fs.existsSync(out) && !process.argv.includes("--force"))
    throw new Error(`${path.relative(repoRoot(), out)} exists: a release's recorded states are kept as they were (--force replaces them)`);
  // The commit whose code is recorded (recorded-history.ts ties the folder to it).
  const sourceCommit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repoRoot(), encoding: "utf8" }).trim();
  fs.mkdirSync(path.join(repoRoot(), ".data"), { recursive: true });
  const work = fs.mkdtempSync(path.join(repoRoot(), ".data", "upgrade-record-"));
  const staged = path.join(work, "recorded");
  fs.mkdirSync(staged);
  process.env.ASSET_DELIVERY_SECRET_KEY = UPGRADE_SERVER_KEY;
  const dbPath = path.join(work, "emulator.db");
  const server = await startServer({ port: 0, dbPath, rateLimits: "off", deployDelayMs: 0, deployLagMs: 0 });
  try {
    const keys: Record<string, string> = {};
    const accounts: RecordedManifest["accounts"] = [];
    for (const name of [TEAM_ACCOUNT, SECOND_ACCOUNT]) {
      ensureAccount(server.db, { name, plan: "enterprise", video: true });
      keys[name] = createKey(server.db, { account: name, permissions: ["Account Admin"], userName: `${name}-pulumi` }).key;
      const email = `admin@${name}.example.com`;
      await createUser(server.db, { account: name, email, permissions: ["Account Admin"] });
      accounts.push({ name, keyUsers: [`${name}-pulumi`], dashboardUsers: [email] });
    }
    const tarballs = packPackages(fs.mkdtempSync(path.join(work, "tarballs-")));
    for (const program of PROGRAMS) await recordProgram(program, work, staged, { version, baseUrl: server.url, keys, tarballs });

    const schema = execFileSync(
      path.join(pulumiBinDir(), "pulumi"),
      ["package", "get-schema", path.join(PLUGIN_DIR, "pulumi-resource-assetdelivery")],
      {
        encoding: "utf8",
        env: { ...process.env, PULUMI_HOME: path.join(work, "pulumi-home"), PULUMI_SKIP_UPDATE_CHECK: "true" },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    fs.writeFileSync(path.join(staged, "schema.json"), JSON.stringify(JSON.parse(schema), null, 2) + "\n");
    fs.mkdirSync(path.join(staged, "api"));
    for (const [pkg, lines] of Object.entries(apiReports()))
      fs.writeFileSync(path.join(staged, "api", `${pkg}.api.txt`), lines.join("\n") + "\n");
    const manifest: RecordedManifest = { version, sourceCommit, programs: PROGRAMS, accounts };
    fs.writeFileSync(path.join(staged, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
    // The database as one compact file (no WAL beside it).
    server.db.exec(`VACUUM INTO '${path.join(staged, "emulator.db").replaceAll("'", "''")}'`);
  } finally {
    await server.close();
  }
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.renameSync(staged, out);
  fs.rmSync(work, { recursive: true, force: true });
  log(`recorded ${path.relative(repoRoot(), out)}`);
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
