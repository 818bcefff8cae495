// Every entry point run by a Node.js older than 22 (the machine's own `node` is often 20) stops
// with a message naming the Node found, the one needed and how to get it, and exit code 1: never
// the segmentation fault better-sqlite3 13 dies with under Node 20. The entry points run built,
// as users run them (npm test builds first), by the first Node on PATH (or /usr/bin, /usr/local/bin)
// older than 22, or else by Node 20 installed into .tools/node-20 (tools/install-node.sh 20).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MINIMUM_NODE_MAJOR, unsupportedNodeMessage } from "../../sdk/src/node-version";

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const CLI_BIN = path.join(REPO_ROOT, "cli", "bin", "asset-delivery.js");

function olderNodeOnMachine(): { bin: string; version: string } | undefined {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/bin", "/usr/local/bin"];
  for (const dir of dirs) {
    const bin = path.join(dir, "node");
    if (dir === "" || !fs.existsSync(bin)) continue;
    const run = spawnSync(bin, ["-p", "process.versions.node"], { encoding: "utf8" });
    const version = run.stdout?.trim();
    if (run.status === 0 && version && Number(version.split(".")[0]) < MINIMUM_NODE_MAJOR) return { bin, version };
  }
  return undefined;
}

describe("the Node.js version check", () => {
  it("accepts 22 and newer, and refuses older releases naming the version found, the one needed and where to get it", () => {
    expect(unsupportedNodeMessage("asset-delivery", "22.0.0")).toBeUndefined();
    expect(unsupportedNodeMessage("asset-delivery", "24.21.0")).toBeUndefined();
    const message = unsupportedNodeMessage("asset-delivery", "20.20.2");
    expect(message).toContain("asset-delivery needs Node.js 22 or newer, but this is Node.js v20.20.2");
    expect(message).toContain("https://nodejs.org");
    expect(message).toContain("bash tools/install-node.sh");
    expect(unsupportedNodeMessage("asset-delivery", "21.99.0")).toContain("Node.js v21.99.0");
  });
});

/** The machine's older Node, or Node 20 from the npm registry when it has none: the test never skips. */
function olderNode(): { bin: string; version: string } {
  const found = olderNodeOnMachine();
  if (found) return found;
  const install = spawnSync("bash", [path.join(REPO_ROOT, "tools", "install-node.sh"), "20"], { encoding: "utf8", timeout: 300_000 });
  if (install.status !== 0) throw new Error(`no Node older than 22 here, and tools/install-node.sh 20 failed: ${install.stderr}`);
  const bin = path.join(install.stdout.trim().split("\n").at(-1)!, "node");
  return { bin, version: spawnSync(bin, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim() };
}

const node = olderNode();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-old-node-"));
const db = path.join(dataDir, "asset-delivery.db");
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// Each entry point as a command line of the older Node: [what it is, arguments after `node`, the program the message names].
const ENTRY_POINTS: [string, string[], string][] = [
  ["asset-delivery accounts create", [CLI_BIN, "accounts", "create", "team", "--db", db], "asset-delivery"],
  ["asset-delivery serve", [CLI_BIN, "serve", "--port", "0", "--db", db], "asset-delivery"],
  ["asset-delivery demo", [CLI_BIN, "demo", "--db", db], "asset-delivery"],
  ["asset-delivery drift (no server needed)", [CLI_BIN, "drift", "--help"], "asset-delivery"],
  ["cli/dist/main.js run directly", [path.join(REPO_ROOT, "cli", "dist", "main.js"), "serve", "--db", db], "asset-delivery"],
  ["the server package's entry", ["-e", 'require("@asset-delivery/server")'], "@asset-delivery/server"],
  ["the provider's runtime (what Pulumi loads)", ["-e", 'require("@asset-delivery/provider/runtime")'], "@asset-delivery/provider"],
  [
    "the native plugin (pulumi-resource-assetdelivery)",
    [path.join(REPO_ROOT, "provider", "bin", "pulumi-resource-assetdelivery")],
    "pulumi-resource-assetdelivery",
  ],
];

describe(`every entry point under Node ${node.version}`, () => {
  it.each(ENTRY_POINTS)("%s exits 1 with the message, no crash", (_name, args, program) => {
    const run = spawnSync(node.bin, args, { cwd: REPO_ROOT, encoding: "utf8", timeout: 60_000 });
    expect(run.signal, `killed by a signal (a crash): ${run.stderr}`).toBeNull();
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain(`${program} needs Node.js 22 or newer, but this is Node.js v${node.version}`);
    expect(run.stderr).toContain("tools/install-node.sh");
    expect(fs.existsSync(db), "nothing was written").toBe(false);
  });
});
