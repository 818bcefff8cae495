// A real server for integration tests: `startServer` on a free port with a fresh database in a
// temporary folder, rate limits off, responses checked against their schemas, and a counter of
// the requests it answered (to assert how many calls a client made).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Permission } from "@asset-delivery/sdk";
import {
  createKey,
  ensureAccount,
  PROFILES,
  startServer,
  type Database,
  type Profile,
  type RunningServer,
  type ServerOptions,
} from "@asset-delivery/server";

export interface TestServer {
  url: string;
  /** An "Account Admin" key of the account "test" (enterprise plan, video on). */
  adminKey: string;
  /** A new key with these permissions, in `account` (created if absent, enterprise, video on). */
  accountKey(permissions: Permission[], account?: string): string;
  dbPath: string;
  db: Database;
  app: RunningServer["app"];
  /** Responses sent, optionally only those of a method and/or a path (without query; a RegExp matches the path). */
  requestCount(method?: string, path?: string | RegExp): number;
  /** The requests answered since the last reset, in order of their answers. */
  answered(): readonly AnsweredRequest[];
  /**
   * Requests that succeeded (the handler ran and committed, status below 400) and whose answer was
   * then dropped with the connection, by the random faults or `dropCommittedAnswer`; filtered as requestCount.
   */
  droppedAfterCommit(method?: string, path?: string | RegExp): number;
  resetRequestCount(): void;
  /** Stops the server; removes the temporary folder unless `keepData` (to restart on the same database). */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/** A request the server answered: its method, path (without query), status and parsed body (for what a write sent). */
export interface AnsweredRequest {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

export interface TestServerOptions extends Partial<ServerOptions> {
  /**
   * The first request of this method and path (without query) that succeeds has its answer dropped
   * after the commit, whatever the random faults (`faults`) choose: a write that landed and was never
   * answered, in every run rather than in the runs whose seeded choices happen to hit it.
   */
  dropCommittedAnswer?: { method: string; path: string };
}

export const TEST_ACCOUNT = "test";

/**
 * The profile of servers a test does not choose one for: env ASSET_DELIVERY_PROFILE (as `serve`
 * reads it), so that the client-side suites can be run once more against the minimal profile
 * (`npm run test:minimal`); otherwise the server's default.
 */
function profileFromEnv(): Profile | undefined {
  const value = process.env.ASSET_DELIVERY_PROFILE;
  if (value === undefined || value === "") return undefined;
  const profile = PROFILES.find((name) => name === value);
  if (!profile) throw new Error(`ASSET_DELIVERY_PROFILE must be one of ${PROFILES.join(", ")}, not "${value}"`);
  return profile;
}

export async function startTestServer({ dropCommittedAnswer, ...options }: TestServerOptions = {}): Promise<TestServer> {
  const ownDir = options.dbPath === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-test-")) : undefined;
  const dbPath = options.dbPath ?? path.join(ownDir!, "asset-delivery.db");
  const responses: AnsweredRequest[] = [];
  const dropped: { method: string; path: string }[] = [];
  let toDrop = dropCommittedAnswer;
  const server = await startServer({
    port: 0,
    rateLimits: "off",
    deployDelayMs: 200,
    validateResponses: true,
    profile: profileFromEnv(),
    ...options,
    dbPath,
    configure(app) {
      app.addHook("onResponse", (request, reply, done) => {
        responses.push({ method: request.method, path: request.url.split("?")[0]!, status: reply.statusCode, body: request.body });
        done();
      });
      // After the faults plugin's preHandler (which marks the requests it will drop) and the handler.
      app.addHook("onSend", async (request, reply, payload) => {
        const answer = { method: request.method, path: request.url.split("?")[0]! };
        if (reply.statusCode >= 400) return payload;
        const chosen = toDrop !== undefined && toDrop.method === answer.method && toDrop.path === answer.path;
        if (chosen) {
          toDrop = undefined;
          request.raw.socket.destroy();
        }
        if (chosen || request.dropAfterCommit) dropped.push(answer);
        return payload;
      });
      options.configure?.(app);
    },
  });

  const accountKey = (permissions: Permission[], account = TEST_ACCOUNT): string => {
    ensureAccount(server.db, { name: account, plan: "enterprise", video: true });
    return createKey(server.db, { account, permissions, userName: `${account}-user` }).key;
  };

  return {
    url: server.url,
    adminKey: accountKey(["Account Admin"]),
    accountKey,
    dbPath,
    db: server.db,
    app: server.app,
    requestCount: (method, pathFilter) => matching(responses, method, pathFilter),
    answered: () => [...responses],
    droppedAfterCommit: (method, pathFilter) => matching(dropped, method, pathFilter),
    resetRequestCount() {
      responses.length = 0;
    },
    async close({ keepData = false } = {}) {
      await server.close();
      if (ownDir && !keepData) fs.rmSync(ownDir, { recursive: true, force: true });
    },
  };
}

/** How many of `requests` have this method and path (without query; a RegExp matches the path), either left out meaning any. */
function matching(requests: readonly { method: string; path: string }[], method?: string, pathFilter?: string | RegExp): number {
  return requests.filter(
    (r) =>
      (method === undefined || r.method === method.toUpperCase()) &&
      (pathFilter === undefined || (typeof pathFilter === "string" ? r.path === pathFilter : pathFilter.test(r.path))),
  ).length;
}

/**
 * Runs `step` and counts the requests to /api/v1/sources* the server answered meanwhile, by method
 * (GET, POST, PATCH; a method with none is left out): what a Pulumi command sent.
 */
export async function countedSourceRequests<T>(
  server: TestServer,
  step: () => Promise<T>,
): Promise<{ result: T; requests: Record<string, number> }> {
  server.resetRequestCount();
  const result = await step();
  const requests = Object.fromEntries(
    ["GET", "POST", "PATCH"].map((m) => [m, server.requestCount(m, /^\/api\/v1\/sources/)] as const).filter(([, n]) => n !== 0),
  );
  return { result, requests };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body (undefined when empty). */
  body: any;
  /** The raw body text. */
  text: string;
}

/** One HTTP call with a JSON:API body, as a client would send it. */
export async function apiRequest(
  url: string,
  options: { method?: string; key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { accept: "application/vnd.api+json", ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] ??= "application/vnd.api+json";
  }
  const response = await fetch(url, { method: options.method ?? "GET", headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
}
