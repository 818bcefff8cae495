// One signed-in user reloading a dashboard page from several tabs as fast as the server answers,
// from another process (so that the flood's own client work does not slow the process measuring
// the API beside it); and another account's API reads, timed. Shared by the dashboard's load test
// and its benchmark (bench/dashboard-flood.ts).
import { spawn } from "node:child_process";
import * as path from "node:path";
import { createClient } from "@asset-delivery/sdk";
import { createUser, ensureAccount, generateReports, seedUsage } from "@asset-delivery/server";
import { minimalDeployment } from "../server/fixtures";
import type { TestServer } from "./server";

/** An account with a user (Analytics) and 4 Sources, its usage seeded and its reports generated for each of `days` days. */
export async function accountWithReports(
  server: TestServer,
  account: string,
  user: { email: string; password: string },
  days: number,
): Promise<string[]> {
  ensureAccount(server.db, { name: account, plan: "enterprise", video: true });
  await createUser(server.db, { account, email: user.email, permissions: ["Analytics"], password: user.password });
  const client = createClient({ baseUrl: server.url, apiKey: server.accountKey(["Sources"], account), retry: false, pacing: false });
  for (let i = 0; i < 4; i++) await client.sources.create({ name: `${account} ${i}`, deployment: minimalDeployment("webproxy") as never });
  await client.close();
  const seeded = seedUsage(server.db, { account, days, requestsPerDay: 200 });
  for (const date of seeded.days) generateReports(server.db, { date, account, dataDir: path.dirname(server.dbPath) });
  return seeded.days;
}

// Loops of GETs with the session's cookie until its standard input closes; prints what it got.
const FLOOD_SCRIPT = `
let flooding = true;
process.stdin.on("end", () => (flooding = false)).resume();
const statuses = [], retryAfters = [];
const tab = async () => {
  while (flooding) {
    const response = await fetch(process.env.FLOOD_URL, { headers: { cookie: process.env.FLOOD_COOKIE } });
    await response.arrayBuffer();
    statuses.push(response.status);
    if (response.status === 429) retryAfters.push(response.headers.get("retry-after") ?? "");
  }
};
Promise.all(Array.from({ length: Number(process.env.FLOOD_TABS) }, tab)).then(() => process.stdout.write(JSON.stringify({ statuses, retryAfters })));
`;

export interface FloodResult {
  /** Each answer's status. */
  statuses: number[];
  /** Each 429's Retry-After header, as sent. */
  retryAfters: string[];
}

/** Starts the flood of `url` with the session's cookie; `stop` ends it and gives what it got. */
export function floodPage(url: string, cookie: string, tabs: number): { stop(): Promise<FloodResult> } {
  const flood = spawn(process.execPath, ["-e", FLOOD_SCRIPT], {
    env: { ...process.env, FLOOD_URL: url, FLOOD_COOKIE: cookie, FLOOD_TABS: String(tabs) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let output = "";
  flood.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const ended = new Promise<void>((resolve) => flood.on("close", () => resolve()));
  return {
    async stop() {
      flood.stdin.end();
      await ended;
      return JSON.parse(output) as FloodResult;
    },
  };
}

/** `count` API reads of `baseUrl`'s Sources with `apiKey`, one after another: each one's status and duration (ms). */
export async function apiReads(baseUrl: string, apiKey: string, count: number): Promise<{ statuses: number[]; durations: number[] }> {
  const statuses: number[] = [];
  const durations: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/api/v1/sources?page[size]=5`, { headers: { authorization: `Bearer ${apiKey}` } });
    await response.arrayBuffer();
    statuses.push(response.status);
    durations.push(performance.now() - started);
  }
  return { statuses, durations };
}

export function p99(durations: number[]): number {
  const sorted = [...durations].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.99) - 1]!;
}
