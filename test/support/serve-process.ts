// `asset-delivery serve` as a child process, the way a user runs it: for tests that kill the
// server (crash), or run a tool against it from outside (fuzzing), on a database file of their own.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createKey, ensureAccount, openMigratedDatabase } from "@asset-delivery/server";

export const CLI_BIN = path.resolve(__dirname, "..", "..", "cli", "bin", "asset-delivery.js");
const READY_LINE = /Asset Delivery Management API listening on (http:\/\/\S+)/;

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the process has exited (at once if it already has). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (a clean shutdown) or SIGKILL (a crash), then waits for the exit. */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `serve --port 0 --db <dbPath> ...args` and resolves once it prints its URL; `bin`: another installed `asset-delivery`. */
export async function startServeProcess(
  dbPath: string,
  args: string[] = [],
  env: Record<string, string> = {},
  bin = CLI_BIN,
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--db", dbPath, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let output = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = READY_LINE.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(({ code, signal }) => reject(new Error(`serve exited (${code ?? signal}) before it was ready:\n${output}`)));
  });
  return {
    url,
    child,
    output: () => output,
    exited,
    stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface ServeData {
  dir: string;
  dbPath: string;
  /** An Account Admin key of the account "faults" (enterprise plan). */
  adminKey: string;
  remove(): void;
}

/** A fresh database in a temporary folder, with one account and an Account Admin key. */
export function createServeData(prefix = "asset-delivery-serve-"): ServeData {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const dbPath = path.join(dir, "asset-delivery.db");
  const db = openMigratedDatabase(dbPath);
  try {
    ensureAccount(db, { name: "faults", plan: "enterprise", video: true });
    const { key } = createKey(db, { account: "faults", permissions: ["Account Admin"], userName: "faults-user" });
    return { dir, dbPath, adminKey: key, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
  } finally {
    db.close();
  }
}
