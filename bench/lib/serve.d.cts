// Types of serve.cjs, for the TypeScript benchmark.
import type { ChildProcess } from "node:child_process";

export const REPO_ROOT: string;
export interface BenchData {
  dir: string;
  dbPath: string;
  key: string;
  remove(): void;
}
export interface Child {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}
export interface ChildOptions {
  ready?: RegExp;
  env?: Record<string, string>;
  nodeArgs?: string[];
}
export function createBenchData(prefix?: string): BenchData;
export function startChild(script: string, args: readonly string[], options?: ChildOptions): Promise<Child>;
export function startServe(dbPath: string, args?: readonly string[], options?: ChildOptions): Promise<Child>;
export function cpuTimeMs(pid: number): number | undefined;
