// The real server for benchmarks: `asset-delivery serve` in a child process (so it never shares
// an event loop with the load generator), on a fresh database with one Account Admin key.
// CommonJS, so that the .mjs benchmarks and the TypeScript one (run by ts-node) share it.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { createKey, ensureAccount, openMigratedDatabase } = require("@asset-delivery/server");

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const CLI_BIN = path.join(REPO_ROOT, "cli", "bin", "asset-delivery.js");
const READY_LINE = /Asset Delivery Management API listening on (http:\/\/\S+)/;

/** A temporary folder with a migrated database, an account and an Account Admin key. */
function createBenchData(prefix = "asset-delivery-bench-") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const dbPath = path.join(dir, "asset-delivery.db");
  const db = openMigratedDatabase(dbPath);
  try {
    ensureAccount(db, { name: "bench", plan: "enterprise", video: true });
    const { key } = createKey(db, { account: "bench", permissions: ["Account Admin"], userName: "bench-user" });
    return { dir, dbPath, key, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
  } finally {
    db.close();
  }
}

/**
 * Starts `node <script> ...args` and resolves with { url, child, stop() } once it prints a line
 * matching `ready` (whose first group is the URL).
 */
function startChild(script, args, { ready = READY_LINE, env = {}, nodeArgs = [] } = {}) {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let output = "";
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const url = new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) resolve(match[1]);
    });
    child.stderr.on("data", (chunk) => (output += chunk));
    exited.then(({ code, signal }) =>
      reject(new Error(`${path.basename(script)} exited (${code ?? signal}) before it was ready:\n${output}`)),
    );
  });
  return url.then((u) => ({
    url: u,
    child,
    output: () => output,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  }));
}

/** `asset-delivery serve --port 0 --db <dbPath> ...args` as a child process. */
function startServe(dbPath, args = [], options = {}) {
  return startChild(CLI_BIN, ["serve", "--port", "0", "--db", dbPath, ...args], options);
}

/**
 * CPU time a process has used so far, in milliseconds (Linux /proc; undefined elsewhere). Per
 * request, it shows what a server costs even when a busy machine makes throughput jumpy.
 */
function cpuTimeMs(pid) {
  try {
    // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
// USER_HZ: 100 on every Linux architecture Node runs on.
const CLOCK_TICKS_PER_SECOND = 100;

module.exports = { REPO_ROOT, createBenchData, startChild, startServe, cpuTimeMs };
