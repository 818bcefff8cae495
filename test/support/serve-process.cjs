// `asset-delivery serve` as a child process, the way a user runs it, on a database of its own: for
// tests that kill the server (crash), run a tool against it from outside (fuzzing) or an installed
// copy (consumer), and for the benchmarks (the server never shares an event loop with the load
// generator). CommonJS, so that the tests, the .mjs benchmarks and the TypeScript ones (run by
// ts-node) share it; types in serve-process.d.cts.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { createKey, ensureAccount, openMigratedDatabase } = require("@asset-delivery/server");

const REPO_ROOT = path.resolve(__dirname, "..", "..");
const CLI_BIN = path.join(REPO_ROOT, "cli", "bin", "asset-delivery.js");
const READY_LINE = /Asset Delivery Management API listening on (http:\/\/\S+)/;

/** A temporary folder with a migrated database, an account (enterprise, video on) and an Account Admin key of it. */
function createServeData(prefix = "asset-delivery-serve-", account = "serve") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const dbPath = path.join(dir, "asset-delivery.db");
  const db = openMigratedDatabase(dbPath);
  try {
    ensureAccount(db, { name: account, plan: "enterprise", video: true });
    const { key } = createKey(db, { account, permissions: ["Account Admin"], userName: `${account}-user` });
    return { dir, dbPath, account, adminKey: key, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
  } finally {
    db.close();
  }
}

/**
 * Starts `node ...nodeArgs <script> ...args` and resolves once it prints a line matching `ready`
 * (whose first group is the URL); rejects with its output if it exits before.
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
    void exited.then(({ code, signal }) =>
      reject(new Error(`${path.basename(script)} exited (${code ?? signal}) before it was ready:\n${output}`)),
    );
  });
  return url.then((u) => ({
    url: u,
    child,
    output: () => output,
    exited,
    stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  }));
}

/** `asset-delivery serve --port 0 --db <dbPath> ...args`; `bin`: another installed `asset-delivery`. */
function startServeProcess(dbPath, args = [], { bin = CLI_BIN, ...options } = {}) {
  return startChild(bin, ["serve", "--port", "0", "--db", dbPath, ...args], options);
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

module.exports = { REPO_ROOT, CLI_BIN, createServeData, startChild, startServeProcess, cpuTimeMs };
