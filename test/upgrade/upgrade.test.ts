// Upgrades that never surprise: for every release recorded under test/upgrade/recorded/ (written by
// tools/record-upgrade-states.sh), this build's server opens that release's database and this
// build's packages, SDKs and plugin take over its stacks. Per recorded stack, imported into a fresh
// stack: `pulumi preview --expect-no-changes` and `pulumi refresh --preview-only --expect-no-changes`
// sending nothing but GETs, the refresh's reading every Source through the stack's proxy; one
// changed field is one PATCH carrying it to the server, with nothing replaced (no Source, no
// provider); `pulumi destroy` still retires every Source, in both accounts. And once the plugin's
// version moves past the recorded one, the new default provider's DiffConfig (a plugin tarball at a
// higher version, built here) is asked about each Source and answers that only the version changed,
// nothing to replace (read from Pulumi's log of its gRPC calls). The stacks of a version run side by
// side, each through its own counting proxy (one server per recorded database).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { listKeys, listUsers, secretKeyFileFor } from "@asset-delivery/server";
import { startCountingProxy, type CountingProxy, type ProxiedRequest } from "../support/counting-proxy";
import { pulumiWorkDir, repoRoot } from "../support/pulumi";
import { startTestServer, type TestServer } from "../support/server";
import {
  compareVersions,
  buildGoProgram,
  currentVersion,
  mainFile,
  packPackages,
  prepareWorkDir,
  programCli,
  readManifest,
  RECORDED_DIR,
  RECORDED_SECRETS,
  recordedVersions,
  UPGRADE_SERVER_KEY,
  type ProgramCli,
  type RecordedProgram,
} from "./recorded-stacks";

const STEP_TIMEOUT = 600_000;

interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  provider?: string;
  outputs?: Record<string, unknown>;
}

/** The Sources of a `pulumi stack export`: the native plugin's and the dynamic Source's. */
function exportedSources(exported: string): ExportedResource[] {
  const state = JSON.parse(exported) as { deployment: { resources?: ExportedResource[] } };
  return (state.deployment.resources ?? []).filter(
    (r) => r.type === "assetdelivery:index:Source" || r.type === "pulumi-nodejs:dynamic/assetdelivery:Source",
  );
}

/** One recorded stack, imported into a fresh stack of a fresh work folder, behind its own counting proxy. */
interface ImportedStack {
  label: string;
  program: RecordedProgram;
  stack: string;
  workDir: string;
  cli: ProgramCli;
  proxy: CountingProxy;
  /** The Sources of the recorded state: URN, id and name. */
  sources: { urn: string; id: string; name: string }[];
}

/**
 * Runs `step` and returns the requests that reached the server through the stack's proxy: their
 * count by method, and each in order (method, path, Authorization).
 */
async function counted<T>(
  stack: ImportedStack,
  step: () => Promise<T>,
): Promise<{ result: T; requests: Record<string, number>; log: readonly ProxiedRequest[] }> {
  stack.proxy.resetRequestCount();
  const result = await step();
  const requests = Object.fromEntries(
    ["GET", "POST", "PATCH", "PUT", "DELETE"].map((m) => [m, stack.proxy.requestCount(m)] as const).filter(([, n]) => n !== 0),
  );
  expect(stack.proxy.requestCount(), `${stack.label}: a request of another method`).toBe(
    Object.values(requests).reduce((a, b) => a + b, 0),
  );
  return { result, requests, log: stack.proxy.requests() };
}

/** The paths of the requests of `log` of one method. */
const pathsOf = (log: readonly ProxiedRequest[], method: string) => log.filter((r) => r.method === method).map((r) => r.path);

const sourcePath = (id: string) => `/api/v1/sources/${id}`;

/** The stack's operations of a `pulumi preview --json` other than `same`: op and URN. */
function changedSteps(previewJson: string): { op: string; urn: string }[] {
  const preview = JSON.parse(previewJson) as { steps?: { op: string; urn: string }[] };
  return (preview.steps ?? []).filter((step) => step.op !== "same").map(({ op, urn }) => ({ op, urn }));
}

/** A Source's name in the program's main file (a string starting "Upgrade "), renamed: one field changed. Returns both names. */
function renameFirstSource(file: string): { from: string; to: string } {
  const text = fs.readFileSync(file, "utf8");
  const name = /(["]|name: )(Upgrade [^"\n]+)/;
  const from = name.exec(text)?.[2];
  if (from === undefined) throw new Error(`${file}: no Source name starting "Upgrade " to change`);
  fs.writeFileSync(file, text.replace(name, "$1$2 (renamed)"));
  return { from, to: `${from} (renamed)` };
}

/** Runs `each` for every stack, at most two at a time (the machine's two cores). */
async function forEachStack(stacks: readonly ImportedStack[], each: (stack: ImportedStack) => Promise<void>): Promise<void> {
  const queue = [...stacks];
  const failures: unknown[] = [];
  await Promise.all(
    [0, 1].map(async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await each(next).catch((error: unknown) => failures.push(error));
    }),
  );
  if (failures.length > 0) throw failures[0];
}

/**
 * The DiffConfig calls of a PULUMI_DEBUG_GRPC log (one JSON object a line, each call with its request
 * and response): the provider asked (the request's URN) and what it answered.
 */
function diffConfigAnswers(
  logFile: string,
): { provider: string; changes: string; diffs: string[]; replaces: string[]; errors: string[] }[] {
  const entries = fs
    .readFileSync(logFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as {
          method: string;
          progress?: string;
          request?: { urn?: string };
          response?: { changes?: string; diffs?: string[]; replaces?: string[] };
          errors?: string[];
        },
    );
  return entries
    .filter((entry) => entry.method === "/pulumirpc.ResourceProvider/DiffConfig" && entry.progress !== "request_started")
    .map((entry) => ({
      provider: entry.request?.urn ?? "",
      // protojson leaves out a zero value: DIFF_UNKNOWN.
      changes: entry.response?.changes ?? "DIFF_UNKNOWN",
      diffs: entry.response?.diffs ?? [],
      replaces: entry.response?.replaces ?? [],
      errors: entry.errors ?? [],
    }));
}

/** The next patch version after `version`. */
function higherVersion(version: string): string {
  const [major, minor, patch] = version.split(".").map(Number);
  return `${major}.${minor}.${patch! + 1}`;
}

/**
 * A plugin tarball of this build's code at `version`: the plugin as a Node script (provider/bin's,
 * beside a copy of provider/dist and a package.json saying `version`, the number the plugin reports
 * and serves its schema at), finding its dependencies through NODE_PATH (the repo's node_modules,
 * pulumiEnv). What a release at that version would hold, without building a second single executable.
 */
function higherPluginTarball(version: string, dir: string): string {
  const stage = fs.mkdtempSync(path.join(dir, `plugin-v${version}-`));
  const provider = path.join(repoRoot(), "provider");
  fs.cpSync(path.join(provider, "dist"), path.join(stage, "dist"), { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(provider, "package.json"), "utf8")) as Record<string, unknown>;
  fs.writeFileSync(path.join(stage, "package.json"), JSON.stringify({ ...manifest, version }, null, 2));
  const script = fs.readFileSync(path.join(provider, "bin", "pulumi-resource-assetdelivery"), "utf8");
  if (!script.includes('require("../dist/plugin/main.js")'))
    throw new Error("provider/bin/pulumi-resource-assetdelivery no longer loads ../dist/plugin/main.js");
  // dist/plugin/main.js reads ../../package.json: the tarball's root.
  fs.writeFileSync(
    path.join(stage, "pulumi-resource-assetdelivery"),
    script.replace('require("../dist/plugin/main.js")', 'require("./dist/plugin/main.js")'),
    {
      mode: 0o755,
    },
  );
  const tarball = `${stage}.tar.gz`;
  execFileSync("tar", ["-czf", tarball, "-C", stage, "."]);
  fs.rmSync(stage, { recursive: true, force: true });
  return tarball;
}

describe.each(recordedVersions())("stacks recorded by v%s", (version) => {
  const recorded = path.join(RECORDED_DIR, `v${version}`);
  const manifest = readManifest(version);
  let tmp: string;
  let server: TestServer;
  let pluginDir: string;
  let pluginTarball: string;
  const stacks: ImportedStack[] = [];
  const clients = new Map<string, AssetDeliveryClient>();
  const apiKeys = new Map<string, string>();
  /** The account holding each recorded Source, by id (the server's listing of each account). */
  const accountOf = new Map<string, string>();
  /** The client of the account holding the Source `id`. */
  const clientOf = (id: string) => clients.get(accountOf.get(id)!)!;

  /**
   * The stack's Sources that no GET of `log` read: neither a GET of the Source itself nor a listing
   * of the Sources, each sent with the key of the Source's account.
   */
  const unread = (stack: ImportedStack, log: readonly ProxiedRequest[]) =>
    stack.sources
      .filter((source) => {
        const key = `Bearer ${apiKeys.get(accountOf.get(source.id)!)}`;
        return !log.some(
          (r) => r.method === "GET" && r.authorization === key && (r.path === sourcePath(source.id) || r.path === "/api/v1/sources"),
        );
      })
      .map((source) => source.urn);

  /** The GETs of `log` that read none of the stack's Sources with its account's key. */
  const strayReads = (stack: ImportedStack, log: readonly ProxiedRequest[]) =>
    log
      .filter(
        (r) =>
          !stack.sources.some(
            (source) =>
              r.authorization === `Bearer ${apiKeys.get(accountOf.get(source.id)!)}` &&
              (r.path === sourcePath(source.id) || r.path === "/api/v1/sources"),
          ),
      )
      .map((r) => `${r.method} ${r.path}`);

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), `asset-delivery-upgrade-v${version}-`));
    // A copy of the recorded database, with the key it seals secrets with beside it: the server migrates it on start.
    const dbPath = path.join(tmp, "emulator.db");
    fs.copyFileSync(path.join(recorded, "emulator.db"), dbPath);
    fs.writeFileSync(secretKeyFileFor(dbPath), `${UPGRADE_SERVER_KEY}\n`, { mode: 0o600 });
    server = await startTestServer({ dbPath, deployDelayMs: 0, deployLagMs: 0 });

    // This build's plugin as released (tools/package-plugin.sh: built once, cached), and this build's npm packages.
    pluginTarball = execFileSync("bash", [path.join(repoRoot(), "tools", "package-plugin.sh"), "--out", tmp, "linux-amd64"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
    pluginDir = path.join(tmp, "plugin");
    fs.mkdirSync(pluginDir);
    execFileSync("tar", ["-xzf", pluginTarball, "-C", pluginDir]);
    const tarballs = packPackages(fs.mkdtempSync(path.join(tmp, "packages-")));

    // Each program made ready and its stacks imported, side by side (npm install and go build overlap).
    const imported = await Promise.all(
      manifest.programs.map(async (program) => {
        const workDir = pulumiWorkDir(`upgrade-${program.name}-`);
        const from = path.join(recorded, program.name);
        for (const file of fs.readdirSync(from).filter((name) => !name.endsWith(".state.json") && !/^Pulumi\..+\.yaml$/.test(name)))
          fs.cpSync(path.join(from, file), path.join(workDir, file), { recursive: true });
        await prepareWorkDir(program.kind, workDir, tarballs);
        const ofProgram: ImportedStack[] = [];
        for (const stack of program.stacks) {
          const proxy = await startCountingProxy(server.url);
          const cli = programCli(workDir, stack, program.kind, proxy.url, pluginDir);
          await cli.ok(["stack", "init", stack]);
          fs.copyFileSync(path.join(from, `Pulumi.${stack}.yaml`), path.join(workDir, `Pulumi.${stack}.yaml`));
          const state = path.join(from, `${stack}.state.json`);
          await cli.ok(["stack", "import", "--file", state]);
          const sources = exportedSources(fs.readFileSync(state, "utf8")).map((r) => ({
            urn: r.urn,
            id: r.id!,
            name: r.outputs!.name as string,
          }));
          ofProgram.push({ label: `${program.name} (${stack})`, program, stack, workDir, cli, proxy, sources });
        }
        return ofProgram;
      }),
    );
    stacks.push(...imported.flat());
    // The API keys the stacks hold (decrypted with the recorded passphrase), by account.
    for (const stack of stacks) {
      const held = [
        [stack.program.account, "assetdelivery:apiKey"],
        ...Object.entries(stack.program.secrets)
          .filter(([, value]) => value.startsWith("account:"))
          .map(([name, value]) => [value.slice("account:".length), name]),
      ] as const;
      for (const [account, name] of held)
        if (!apiKeys.has(account)) apiKeys.set(account, (await stack.cli.ok(["config", "get", name])).stdout.trim());
    }
    for (const [account, apiKey] of apiKeys) clients.set(account, createClient({ baseUrl: server.url, apiKey, pacing: false }));
    for (const [account, client] of clients) for await (const source of client.sources.iterate()) accountOf.set(source.id, account);
    for (const source of stacks.flatMap((stack) => stack.sources))
      if (!accountOf.has(source.id)) throw new Error(`${source.urn}: Source ${source.id} is in no recorded account`);
  }, STEP_TIMEOUT);

  afterAll(async () => {
    for (const stack of stacks) {
      await stack.cli.run(["stack", "rm", "--yes", "--force"]);
      fs.rmSync(stack.workDir, { recursive: true, force: true });
      await stack.proxy.close();
    }
    for (const client of clients.values()) await client.close();
    await server?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }, STEP_TIMEOUT);

  it("no secret is in plain text in a recorded file: the write-only values, the API keys", async () => {
    expect([...apiKeys.keys()].sort()).toEqual(manifest.accounts.map((a) => a.name).sort());
    const secrets = [...Object.values(RECORDED_SECRETS), ...apiKeys.values()];
    const files = fs
      .readdirSync(recorded, { recursive: true, encoding: "utf8" })
      .filter((f) => fs.statSync(path.join(recorded, f)).isFile());
    expect(files).toContain("emulator.db");
    for (const file of files) {
      const text = fs.readFileSync(path.join(recorded, file)).toString("latin1");
      for (const secret of secrets) expect(text.includes(secret), `${file} holds a secret in plain text`).toBe(false);
    }
  });

  it("the current server opens the recorded database (its migrations run) and serves every Source, key and user", async () => {
    for (const account of manifest.accounts) {
      expect(listKeys(server.db, { account: account.name }).map((k) => k.userName)).toEqual(expect.arrayContaining(account.keyUsers));
      expect(listUsers(server.db, { account: account.name }).map((u) => u.email)).toEqual(expect.arrayContaining(account.dashboardUsers));
    }
    // Each state's Sources, read with the keys the stacks hold (the recorded keys: each answers).
    const served = new Map<string, string>();
    for (const client of clients.values())
      for (const source of (await client.sources.list({})).data) served.set(source.id, source.attributes.name);
    for (const stack of stacks) {
      expect(stack.sources.length, stack.label).toBeGreaterThan(0);
      for (const source of stack.sources) expect(served.get(source.id), `${stack.label}: ${source.urn}`).toBe(source.name);
    }
  });

  it(
    "every recorded stack: preview and refresh --preview-only show no change, and only GETs reach the server, the refresh's reading every Source",
    async () => {
      await forEachStack(stacks, async (stack) => {
        const preview = await counted(stack, () => stack.cli.run(["preview", "--expect-no-changes"]));
        expect(preview.result.code, `${stack.label}: preview\n${preview.result.stdout}\n${preview.result.stderr}`).toBe(0);
        expect(
          Object.keys(preview.requests).filter((m) => m !== "GET"),
          `${stack.label}: preview`,
        ).toEqual([]);
        const refresh = await counted(stack, () => stack.cli.run(["refresh", "--preview-only", "--expect-no-changes"]));
        expect(refresh.result.code, `${stack.label}: refresh\n${refresh.result.stdout}\n${refresh.result.stderr}`).toBe(0);
        expect(
          Object.keys(refresh.requests).filter((m) => m !== "GET"),
          `${stack.label}: refresh`,
        ).toEqual([]);
        // Each Source read from the server, through this stack's proxy, with its account's key: a refresh that
        // reached no server, or another address, read none. (A preview reads no Source: Diff needs none; its
        // GETs are the program's function calls, each a read of one of the stack's Sources.)
        expect(unread(stack, refresh.log), `${stack.label}: refresh read these Sources from no GET through ${stack.proxy.url}`).toEqual([]);
        expect(strayReads(stack, preview.log), `${stack.label}: preview`).toEqual([]);
      });
    },
    STEP_TIMEOUT,
  );

  it(
    "a plugin at a higher version than the recorded default provider's: its DiffConfig, asked once per Source, answers that only the version changed and nothing is replaced; every Source stays, under the new default provider, and nothing is written",
    async () => {
      const python = manifest.programs.find((p) => p.kind === "python");
      if (!python) throw new Error(`v${version} recorded no Python program: its SDK is what pins the default provider's version`);
      const higher = higherVersion(currentVersion());
      const home = path.join(tmp, "pulumi-home");
      const workDir = pulumiWorkDir(`upgrade-diffconfig-`);
      try {
        // A fresh plugin cache holding this build's plugin at this build's version (the SDK asks for it) and at
        // the recorded one (the recorded default provider's: a release's binaries are not at hand offline), and
        // this build's code at `higher`. Nothing on PATH.
        const versions = new Set([currentVersion(), version]);
        const env = { PULUMI_HOME: home, PULUMI_IGNORE_AMBIENT_PLUGINS: "true" };
        const from = path.join(recorded, python.name);
        for (const file of fs.readdirSync(from).filter((name) => !name.endsWith(".state.json") && !/^Pulumi\..+\.yaml$/.test(name)))
          fs.cpSync(path.join(from, file), path.join(workDir, file), { recursive: true });
        await prepareWorkDir(python.kind, workDir, []);
        const stackName = python.stacks[0]!;
        const proxy = await startCountingProxy(server.url);
        const stack: ImportedStack = {
          label: `${python.name} (${stackName}) at ${higher}`,
          program: python,
          stack: stackName,
          workDir,
          cli: programCli(workDir, stackName, python.kind, proxy.url, path.join(tmp, "no-plugin-on-path")),
          proxy,
          sources: [],
        };
        try {
          for (const v of versions) await stack.cli.ok(["plugin", "install", "resource", "assetdelivery", v, "--file", pluginTarball], env);
          await stack.cli.ok(["plugin", "install", "resource", "assetdelivery", higher, "--file", higherPluginTarball(higher, tmp)], env);
          await stack.cli.ok(["stack", "init", stackName], env);
          fs.copyFileSync(path.join(from, `Pulumi.${stackName}.yaml`), path.join(workDir, `Pulumi.${stackName}.yaml`));
          await stack.cli.ok(["stack", "import", "--file", path.join(from, `${stackName}.state.json`)], env);
          // The program now asks for the plugin at `higher` for its Sources: the default provider's version moves.
          const main = path.join(workDir, mainFile(python.kind));
          const text = fs.readFileSync(main, "utf8");
          const pinned = text.replace(/(assetdelivery\.Source\(\s*"[^"]+",)/g, `$1 opts=pulumi.ResourceOptions(version="${higher}"),`);
          expect(pinned).not.toBe(text);
          fs.writeFileSync(main, pinned);
          // The engine's gRPC calls to the plugins logged (Pulumi's PULUMI_DEBUG_GRPC): the DiffConfig calls and their answers.
          const grpcLog = path.join(tmp, "diffconfig-preview.grpc.jsonl");
          const preview = await counted(stack, () => stack.cli.ok(["preview", "--json"], { ...env, PULUMI_DEBUG_GRPC: grpcLog }));
          const steps = changedSteps(preview.result.stdout);
          const recordedSources = exportedSources(fs.readFileSync(path.join(from, `${stackName}.state.json`), "utf8"));
          // For each Source, whose default provider moves, the engine asks the new default provider (the plugin at
          // `higher`: its URN, `default_<version>` and the download URL's suffix) whether the recorded provider's
          // inputs need a replacement. Its answer: only the version changed, nothing to replace. (The calls to the
          // default provider at this build's version, which the program's function call uses, are not the move's.)
          const ofHigher = new RegExp(`::pulumi:providers:assetdelivery::default_${higher.replaceAll(".", "_")}(_|$)`);
          expect(
            diffConfigAnswers(grpcLog).filter((call) => ofHigher.test(call.provider)),
            `${stack.label}: DiffConfig calls to the plugin at ${higher}`,
          ).toEqual(
            recordedSources.map(() => ({
              provider: expect.stringMatching(ofHigher),
              changes: "DIFF_SOME",
              diffs: ["version"],
              replaces: [],
              errors: [],
            })),
          );
          // Every Source is `same`.
          expect(steps, `${stack.label}: ${JSON.stringify(steps)}`).toEqual([]);
          expect(Object.keys(preview.requests).filter((m) => m !== "GET")).toEqual([]);
          const up = await counted(stack, () => stack.cli.ok(["up", "--yes", "--skip-preview"], env));
          expect(
            Object.keys(up.requests).filter((m) => m !== "GET"),
            `${stack.label}: up`,
          ).toEqual([]);
          // The Sources are the recorded ones, now under the default provider at `higher`.
          const after = exportedSources((await stack.cli.ok(["stack", "export"], env)).stdout);
          // The same ids, in any order: the engine writes a stack's resources in the order its steps ended.
          const ids = (sources: { id?: string }[]) => sources.map((r) => r.id).sort();
          expect(ids(after)).toEqual(ids(recordedSources));
          const moved = `::default_${higher.replaceAll(".", "_")}`;
          for (const source of after) expect(source.provider, `${stack.label}: ${source.urn}`).toContain(moved);
        } finally {
          await stack.cli.run(["stack", "rm", "--yes", "--force"], env);
          await proxy.close();
        }
      } finally {
        fs.rmSync(workDir, { recursive: true, force: true });
      }
    },
    STEP_TIMEOUT,
  );

  it(
    "every recorded stack: one changed field is exactly one PATCH, nothing replaced (no Source, no provider)",
    async () => {
      await forEachStack(stacks, async (stack) => {
        let renamed: { id: string; to: string };
        if (stack.program.kind === "root") {
          const to = "Photos (renamed after the upgrade)";
          await stack.cli.ok(["config", "set", "--path", "asset-delivery:sources.photos.name", to]);
          renamed = { id: stack.sources.find((s) => s.urn.endsWith("::photos"))!.id, to };
        } else {
          const { from, to } = renameFirstSource(path.join(stack.workDir, mainFile(stack.program.kind)));
          if (stack.program.kind === "go") await buildGoProgram(stack.workDir);
          const source = stack.sources.find((s) => s.name === from);
          if (!source) throw new Error(`${stack.label}: no recorded Source named "${from}"`);
          renamed = { id: source.id, to };
        }
        const preview = await stack.cli.ok(["preview", "--json"]);
        const steps = changedSteps(preview.stdout);
        expect(
          steps.map((s) => s.op),
          `${stack.label}: ${JSON.stringify(steps)}`,
        ).toEqual(["update"]);
        const { requests, log } = await counted(stack, () => stack.cli.ok(["up", "--yes", "--skip-preview"]));
        expect(requests.PATCH, `${stack.label}: up`).toBe(1);
        expect(requests.POST ?? 0, `${stack.label}: up`).toBe(0);
        expect(
          Object.keys(requests).filter((m) => m !== "GET" && m !== "PATCH"),
          `${stack.label}: up`,
        ).toEqual([]);
        expect(pathsOf(log, "PATCH"), `${stack.label}: up`).toEqual([sourcePath(renamed.id)]);
        // The server holds the new name: the PATCH carried it.
        expect((await clientOf(renamed.id).sources.get(renamed.id)).attributes.name, `${stack.label}: ${renamed.id} on the server`).toBe(
          renamed.to,
        );
      });
    },
    STEP_TIMEOUT,
  );

  it(
    "every recorded stack: destroy still retires each Source (every one disabled on the server, in its own account)",
    async () => {
      await forEachStack(stacks, async (stack) => {
        const { requests, log } = await counted(stack, () => stack.cli.ok(["destroy", "--yes", "--skip-preview"]));
        expect(requests.POST ?? 0, `${stack.label}: destroy`).toBe(0);
        expect(requests.PATCH, `${stack.label}: destroy`).toBe(stack.sources.length);
        expect(pathsOf(log, "PATCH").sort(), `${stack.label}: destroy`).toEqual(stack.sources.map((s) => sourcePath(s.id)).sort());
      });
      const sources = stacks.flatMap((stack) => stack.sources);
      expect(new Set(sources.map((s) => accountOf.get(s.id))), "the recorded Sources' accounts").toEqual(
        new Set(manifest.accounts.map((a) => a.name)),
      );
      for (const source of sources)
        expect((await clientOf(source.id).sources.get(source.id)).attributes.enabled, `${source.urn} (${accountOf.get(source.id)})`).toBe(
          false,
        );
    },
    STEP_TIMEOUT,
  );
});

// Without a recorded release the suite above would run nothing: the first one is v0.1.0, and no
// recorded release is newer than this build (a build is never older than what its users run).
it("the releases' states are recorded, none newer than this build", () => {
  expect(recordedVersions()).toContain("0.1.0");
  expect(compareVersions(recordedVersions().at(-1)!, currentVersion())).toBeLessThanOrEqual(0);
});
