// One signed-in user reloading a dashboard page from several tabs as fast as the server answers,
// or wrong sign-ins from many client addresses (through a trusted proxy's X-Forwarded-For), from
// another process (so that the flood's own client work does not slow the process measuring beside
// it); and another account's API reads, timed. Shared by the dashboard's load test and its
// benchmark (bench/dashboard-flood.ts).
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
  return floodFromChild(FLOOD_SCRIPT, { FLOOD_URL: url, FLOOD_COOKIE: cookie, FLOOD_TABS: String(tabs) });
}

/** Runs a flood script in a child process until `stop` closes its standard input; what it printed. */
function floodFromChild(script: string, env: Record<string, string>): { stop(): Promise<FloodResult> } {
  const flood = spawn(process.execPath, ["-e", script], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "inherit"] });
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

// From each of FLOOD_ADDRESSES addresses (X-Forwarded-For 203.0.113.x, 198.51.100.x, ...): one
// sign-in form, then FLOOD_TABS loops posting wrong passwords for made-up emails until standard
// input closes, each pausing FLOOD_PAUSE_MS after a 429 (guesses, not a connection flood, which is
// a proxy's job); prints what it got (a request that failed outright as status 0).
const SIGN_IN_FLOOD_SCRIPT = `
let flooding = true;
process.stdin.on("end", () => (flooding = false)).resume();
const statuses = [], retryAfters = [];
const base = process.env.FLOOD_BASE_URL;
const address = (i) => (i < 250 ? "203.0.113." : "198.51.100.") + ((i % 250) + 1);
const cookieOf = (response) => (response.headers.getSetCookie().find((line) => line.startsWith("asset_delivery_sign_in=")) ?? "").split(";")[0];
const flood = async (i) => {
  const headers = { "x-forwarded-for": address(i) };
  const page = await fetch(base + "/dashboard/login", { headers });
  const cookie = cookieOf(page);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())[1];
  const tab = async (t) => {
    for (let n = 0; flooding; n++) {
      const body = new URLSearchParams({ _csrf: csrf, email: "flood" + i + "-" + t + "-" + n + "@example.com", password: "a wrong password" });
      const response = await fetch(base + "/dashboard/login", {
        method: "POST",
        headers: { ...headers, cookie, "content-type": "application/x-www-form-urlencoded" },
        body,
        redirect: "manual",
      }).catch(() => undefined);
      await response?.arrayBuffer();
      statuses.push(response?.status ?? 0);
      if (response?.status === 429) retryAfters.push(response.headers.get("retry-after") ?? "");
      if (response?.status !== 401) await new Promise((resolve) => setTimeout(resolve, Number(process.env.FLOOD_PAUSE_MS)));
    }
  };
  await Promise.all(Array.from({ length: Number(process.env.FLOOD_TABS) }, (_, t) => tab(t)));
};
Promise.all(Array.from({ length: Number(process.env.FLOOD_ADDRESSES) }, (_, i) => flood(i))).then(() =>
  process.stdout.write(JSON.stringify({ statuses, retryAfters })),
);
`;

/**
 * Starts a flood of wrong sign-ins at `baseUrl` (a server that trusts 127.0.0.1 as its proxy) from
 * `addresses` client addresses, `tabs` at a time from each, each tab pausing `pauseMs` after an
 * answer other than 401; `stop` ends it and gives what it got.
 */
export function floodSignIns(baseUrl: string, { addresses, tabs, pauseMs }: { addresses: number; tabs: number; pauseMs: number }) {
  return floodFromChild(SIGN_IN_FLOOD_SCRIPT, {
    FLOOD_BASE_URL: baseUrl,
    FLOOD_ADDRESSES: String(addresses),
    FLOOD_TABS: String(tabs),
    FLOOD_PAUSE_MS: String(pauseMs),
  });
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
