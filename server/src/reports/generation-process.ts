// Report generation off the server's event loop: jobs go to a child process (generation-worker.ts)
// one at a time, in order. It runs at a low CPU priority, so on a busy machine the server's
// requests come first and the generation takes what is left. The process starts with the first job
// and ends once it has been idle a while (generation runs about once a day). An in-memory database
// cannot be shared with another process: then the jobs run here, as before.
import { fork, type ChildProcess } from "node:child_process";
import * as os from "node:os";
import * as path from "node:path";
import type { Account } from "../accounts/account-store";
import type { Database } from "../store/database";
import type { ReportGenerator } from "./generator";
import type { UtcDay } from "../usage/days";

export interface GenerationWorkerData {
  dbPath: string;
  dataDir: string;
  fileSizeLimit: number | undefined;
}

export interface GenerationJob {
  id: number;
  account: Account;
  date: UtcDay;
  /** The server's clock minus the wall clock when the job was sent. */
  clockOffsetMs: number;
}

export type GenerationReply = { id: number; ok: true; generated: number } | { id: number; ok: false; message: string };

export interface GenerationProcess {
  /** Generates the account's missing reports of the day; resolves with how many it generated. */
  generate: (account: Account, date: UtcDay) => Promise<number>;
  /** Ends the process; a job in progress is abandoned (generation is idempotent: it is redone later). */
  close(): Promise<void>;
}

// Long enough for a whole catch-up run to share one process.
const IDLE_MS = 5_000;
// The worker's built file, beside this one. When this module runs from its TypeScript source (the
// tests run the packages' source), Node cannot run the worker's: the built one in dist/ (npm test builds first).
const WORKER_FILE = __filename.endsWith(".ts")
  ? path.join(__dirname, "..", "..", "dist", "reports", "generation-worker.js")
  : path.join(__dirname, "generation-worker.js");
// A background job's niceness (0 normal, 19 lowest).
const WORKER_NICENESS = 10;

export function createGenerationProcess(options: {
  db: Database;
  dataDir: string;
  fileSizeLimit?: number;
  now: () => number;
  /** Tells which days need no process at all; generates here when the database is in memory. */
  generator: Pick<ReportGenerator, "generate" | "missingTypes">;
}): GenerationProcess {
  const { db, dataDir, fileSizeLimit, now } = options;
  if (db.memory) {
    return {
      generate: async (account, date) => {
        const missing = options.generator.missingTypes(account, date).length;
        options.generator.generate(account, date);
        return missing;
      },
      close: async () => {},
    };
  }

  let worker: ChildProcess | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 0;
  const pending = new Map<number, { resolve(reports: number): void; reject(error: Error): void }>();

  function failAll(error: Error): void {
    for (const job of pending.values()) job.reject(error);
    pending.clear();
  }

  function start(): ChildProcess {
    const data: GenerationWorkerData = { dbPath: db.name, dataDir, fileSizeLimit };
    // Not the server's own flags (an inspector port, --cpu-prof): a plain Node process.
    const started = fork(WORKER_FILE, [JSON.stringify(data)], { execArgv: [], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    try {
      os.setPriority(started.pid!, WORKER_NICENESS);
    } catch {
      // Not permitted here (some containers): it still runs off the event loop, at normal priority.
    }
    started.on("message", (reply: GenerationReply) => {
      const job = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.ok) job?.resolve(reply.generated);
      else job?.reject(new Error(`report generation failed in its process: ${reply.message}`));
      if (pending.size === 0) idleTimer = setTimeout(() => void stop(), IDLE_MS).unref();
    });
    started.on("error", (error) => failAll(error));
    started.on("exit", (code, signal) => {
      if (worker === started) worker = undefined;
      failAll(new Error(`the report generation process exited (${code ?? signal})`));
    });
    return started;
  }

  async function stop(): Promise<void> {
    clearTimeout(idleTimer);
    const running = worker;
    worker = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill();
    await exited;
  }

  return {
    generate(account, date) {
      // Most runs find every report done (a restart, a second server): no process for those.
      if (options.generator.missingTypes(account, date).length === 0) return Promise.resolve(0);
      clearTimeout(idleTimer);
      worker ??= start();
      const id = ++nextId;
      const job: GenerationJob = { id, account, date, clockOffsetMs: now() - Date.now() };
      const done = new Promise<number>((resolve, reject) => pending.set(id, { resolve, reject }));
      worker.send(job);
      return done;
    },
    close: stop,
  };
}
