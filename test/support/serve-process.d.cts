// Types of serve-process.cjs.
import type { ChildProcess } from "node:child_process";

export const REPO_ROOT: string;
/** The repo's `asset-delivery` command (cli/bin/asset-delivery.js). */
export const CLI_BIN: string;

export interface ServeData {
  dir: string;
  dbPath: string;
  /** The account's name. */
  account: string;
  /** An Account Admin key of the account. */
  adminKey: string;
  remove(): void;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the process has exited (at once if it already has). */
  exited: Promise<Exit>;
  /** SIGTERM (a clean shutdown) or SIGKILL (a crash), then waits for the exit. */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<Exit>;
}

export interface ChildOptions {
  /** The ready line; its first group is the URL. Default: serve's. */
  ready?: RegExp;
  /** Set over this process's environment. */
  env?: Record<string, string>;
  nodeArgs?: string[];
}

export function createServeData(prefix?: string, account?: string): ServeData;
export function startChild(script: string, args: readonly string[], options?: ChildOptions): Promise<ServeProcess>;
export function startServeProcess(
  dbPath: string,
  args?: readonly string[],
  options?: ChildOptions & { bin?: string },
): Promise<ServeProcess>;
export function cpuTimeMs(pid: number): number | undefined;
