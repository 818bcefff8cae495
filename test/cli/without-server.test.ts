// The `asset-delivery` command installed without @asset-delivery/server (an optional peer): what a
// CI job that only reviews drift installs. The API commands run; the server's commands stop with
// how to install it, exit code 1. A project folder in the OS temp folder holds the built command
// and links to its other dependencies, so that the server is out of Node's reach.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const SERVER_COMMANDS = ["serve", "accounts", "keys", "demo", "reports", "usage", "users"];
/** The server version the command names: its peer dependency, which tools/set-version.sh moves with each release. */
const SERVER_PEER = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "cli", "package.json"), "utf8")) as { peerDependencies: Record<string, string> }
).peerDependencies["@asset-delivery/server"]!;

let project: string;
let bin: string;

function link(target: string, at: string): void {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at, "dir");
}

beforeAll(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-no-server-"));
  const modules = path.join(project, "node_modules");
  const cli = path.join(modules, "@asset-delivery", "cli");
  fs.mkdirSync(cli, { recursive: true });
  for (const entry of ["package.json", "bin", "dist"])
    fs.cpSync(path.join(REPO_ROOT, "cli", entry), path.join(cli, entry), { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(cli, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
  };
  // Every dependency and the required peer, but not the optional server.
  const needed = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)].filter(
    (name) => name !== "@asset-delivery/server",
  );
  for (const name of needed) link(fs.realpathSync(path.join(REPO_ROOT, "node_modules", name)), path.join(modules, name));
  bin = path.join(cli, "bin", "asset-delivery.js");
});
afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

function run(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: project,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, ASSET_DELIVERY_API_KEY: "", ASSET_DELIVERY_BASE_URL: "" },
  });
}

describe("asset-delivery without @asset-delivery/server", () => {
  it("is really out of reach of the installed command", () => {
    const resolve = spawnSync(process.execPath, ["-e", 'require.resolve("@asset-delivery/server")'], { cwd: path.dirname(bin) });
    expect(resolve.status).not.toBe(0);
  });

  it("lists every command, the server's marked as needing it", () => {
    const help = run("--help");
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^ {2}drift\s+Review drift/m);
    expect(help.stdout).toMatch(/^ {2}purge\s+Purge assets/m);
    for (const name of SERVER_COMMANDS)
      expect(help.stdout).toMatch(new RegExp(`  ${name}\\s+\\(needs @asset-delivery/server, not installed\\)`));
  });

  it.each(SERVER_COMMANDS)("%s stops with how to install the server, exit code 1", (name) => {
    const result = run(name);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toContain(`asset-delivery ${name} needs the package @asset-delivery/server`);
    expect(result.stderr).toContain(`npm install --save-dev @asset-delivery/server@${SERVER_PEER}`);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it.each(["drift", "import", "purge"])("%s runs: its usage, and its own error when no API key is set", (name) => {
    const usage = run(name, "--help");
    expect(usage.status, usage.stderr).toBe(0);
    expect(usage.stdout).toContain(`asset-delivery ${name}`);
    const result = run(name);
    expect(result.stderr).not.toContain("@asset-delivery/server");
    expect(result.stderr).not.toMatch(/MODULE_NOT_FOUND|Cannot find module/);
    expect([1, 2]).toContain(result.status);
  });
});
