// Retry: the pure decision, then the layer against a loopback server (with a virtual clock, so
// backoff and Retry-After waits take no real time).
import { afterEach, describe, expect, it } from "vitest";
import {
  backoffDelay,
  type ApiError,
  type ApiErrorInit,
  ConnectionError,
  createClient,
  RateLimitError,
  ServerError,
  shouldRetry,
  parseRetryAfter,
  TimeoutError,
  NotFoundError,
  type RetryState,
} from "@asset-delivery/sdk";
import { errorDocument, single, sourceResource } from "../../support/api-documents";
import { FakeClock } from "../../support/fake-clock";
import { closedPort, dropConnection, sendJson, startTestServer, type TestServer } from "../../support/http-test-server";

const POLICY = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8_000, rateLimitDeadlineMs: 120_000 };
const STATE: RetryState = { method: "GET", failures: 0, rateLimited: 0, elapsedMs: 0, nowMs: Date.UTC(2026, 0, 1), random: 0.5 };
const apiError = <E extends ApiError>(Class: new (init: ApiErrorInit) => E, status: number, retryAfter?: string): E =>
  new Class({ status, method: "GET", path: "/api/v1/sources", errors: [], retryAfter });
const serverError = apiError(ServerError, 500);
const afterSend = new ConnectionError("GET", "/x", "after-send", "ECONNRESET");
const beforeSend = new ConnectionError("GET", "/x", "before-send", "ECONNREFUSED");

describe("shouldRetry", () => {
  it("retries 5xx, timeouts and lost connections for GET and PATCH", () => {
    for (const method of ["GET", "PATCH"] as const) {
      for (const error of [serverError, afterSend, new TimeoutError(method, "/x", "request", 10)]) {
        expect(shouldRetry(error, { ...STATE, method }, POLICY)).toMatchObject({ retry: true, kind: "failure" });
      }
    }
  });

  it("does not repeat a POST that may have been applied", () => {
    for (const error of [
      serverError,
      afterSend,
      new TimeoutError("POST", "/x", "request", 10),
      new ConnectionError("POST", "/x", undefined, "EX"),
    ]) {
      expect(shouldRetry(error, { ...STATE, method: "POST" }, POLICY)).toEqual({ retry: false });
    }
  });

  it("repeats any method when the failure came before sending", () => {
    expect(shouldRetry(beforeSend, { ...STATE, method: "POST" }, POLICY)).toMatchObject({ retry: true });
  });

  it("stops after maxRetries failures", () => {
    expect(shouldRetry(serverError, { ...STATE, failures: 2 }, POLICY)).toMatchObject({ retry: true });
    expect(shouldRetry(serverError, { ...STATE, failures: 3 }, POLICY)).toEqual({ retry: false });
  });

  it("never retries client errors", () => {
    expect(shouldRetry(apiError(NotFoundError, 404), STATE, POLICY)).toEqual({ retry: false });
    expect(shouldRetry(new Error("bug"), STATE, POLICY)).toEqual({ retry: false });
  });

  it("retries 429 on any method after Retry-After, until the deadline", () => {
    const limited = apiError(RateLimitError, 429, "7");
    expect(shouldRetry(limited, { ...STATE, method: "POST", failures: 99 }, POLICY)).toEqual({
      retry: true,
      kind: "rate-limit",
      delayMs: 7_000,
    });
    expect(shouldRetry(limited, { ...STATE, elapsedMs: 113_000 }, POLICY)).toMatchObject({ retry: true });
    expect(shouldRetry(limited, { ...STATE, elapsedMs: 113_001 }, POLICY)).toEqual({ retry: false });
  });

  it("backs off exponentially with jitter when a 429 has no Retry-After", () => {
    const limited = apiError(RateLimitError, 429);
    expect(shouldRetry(limited, { ...STATE, rateLimited: 2, random: 0 }, POLICY)).toEqual({
      retry: true,
      kind: "rate-limit",
      delayMs: 1_000,
    });
  });

  it("computes jittered exponential backoff within [half, all] of the capped step", () => {
    expect(backoffDelay(0, 0, POLICY)).toBe(250);
    expect(backoffDelay(0, 0.999999, POLICY)).toBe(500);
    expect(backoffDelay(3, 0, POLICY)).toBe(2_000);
    expect(backoffDelay(10, 0.999999, POLICY)).toBe(8_000);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(new Date(now + 30_000).toUTCString(), now)).toBe(30_000);
    expect(parseRetryAfter(new Date(now - 30_000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server that answers the first `faults` requests with `fault`, then with the Source. */
async function flakyServer(faults: number, fault: Parameters<typeof startTestServer>[0]) {
  const source = sourceResource();
  let seen = 0;
  server = await startTestServer((req, res) => (seen++ < faults ? fault(req, res) : sendJson(res, 200, single(source))));
  return { source, server };
}

describe("retry layer", () => {
  it("retries a 500 and returns the later success", async () => {
    const { source, server } = await flakyServer(2, (_, res) => sendJson(res, 500, errorDocument(500, "InternalServerError", "boom")));
    const clock = new FakeClock();
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock, pacing: false });
    expect(await client.sources.get(source.id)).toEqual(source);
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
    expect(clock.sleeps[1]!).toBeGreaterThanOrEqual(500); // second backoff step: 500..1000 ms
  });

  it("gives up with the ServerError after maxRetries", async () => {
    const { source, server } = await flakyServer(10, (_, res) => sendJson(res, 503, errorDocument(503, "ServiceUnavailable", "down")));
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock(), retry: { maxRetries: 2 } });
    await expect(client.sources.get(source.id)).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(3);
  });

  it("retries a PATCH whose connection was lost", async () => {
    const { source, server } = await flakyServer(1, (_, res) => dropConnection(res));
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    expect(await client.sources.update(source.id, { name: "Renamed" })).toEqual(source);
    expect(server.requests.map((r) => r.method)).toEqual(["PATCH", "PATCH"]);
  });

  it("waits Retry-After seconds after a 429", async () => {
    const { source, server } = await flakyServer(2, (_, res) =>
      sendJson(res, 429, errorDocument(429, "TooManyRequests", "slow down"), { "retry-after": "3" }),
    );
    const clock = new FakeClock();
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock, pacing: false });
    expect(await client.sources.get(source.id)).toEqual(source);
    expect(clock.sleeps).toEqual([3_000, 3_000]);
  });

  it("waits until the Retry-After date after a 429", async () => {
    const clock = new FakeClock();
    const { source, server } = await flakyServer(1, (_, res) =>
      sendJson(res, 429, errorDocument(429, "TooManyRequests", "slow down"), {
        "retry-after": new Date(clock.now() + 10_000).toUTCString(),
      }),
    );
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock, pacing: false });
    expect(await client.sources.get(source.id)).toEqual(source);
    expect(clock.sleeps).toEqual([10_000]);
  });

  it("backs off after a 429 without Retry-After", async () => {
    const { source, server } = await flakyServer(3, (_, res) => sendJson(res, 429, errorDocument(429, "TooManyRequests", "slow down")));
    const clock = new FakeClock();
    const client = createClient({
      baseUrl: server.url,
      apiKey: "k",
      clock,
      pacing: false,
      retry: { baseDelayMs: 100, maxDelayMs: 10_000 },
    });
    expect(await client.sources.get(source.id)).toEqual(source);
    expect(clock.sleeps).toHaveLength(3);
    clock.sleeps.forEach((ms, n) => {
      expect(ms).toBeGreaterThanOrEqual(50 * 2 ** n);
      expect(ms).toBeLessThanOrEqual(100 * 2 ** n);
    });
  });

  it("retries a 429 on POST too (nothing was applied)", async () => {
    const { server } = await flakyServer(1, (_, res) =>
      sendJson(res, 429, errorDocument(429, "TooManyRequests", "slow down"), { "retry-after": "1" }),
    );
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock(), pacing: false });
    await client.sources.create({ name: "Photos", deployment: { type: "webproxy", service_subdomains: ["photos"] } });
    expect(server.requests.map((r) => r.method)).toEqual(["POST", "POST"]);
  });

  it("raises RateLimitError once rateLimitDeadlineMs has passed", async () => {
    const { source, server } = await flakyServer(1_000, (_, res) =>
      sendJson(res, 429, errorDocument(429, "TooManyRequests", "slow down"), { "retry-after": "20" }),
    );
    const clock = new FakeClock();
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock, pacing: false, rateLimitDeadlineMs: 60_000 });
    const error = (await client.sources.get(source.id).catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfter).toBe("20");
    expect(server.requests).toHaveLength(4); // at 0, 20, 40 and 60 s; the next wait would pass the deadline
    expect(clock.elapsed()).toBe(60_000);
  });

  it("retries a refused connection for any method, then gives up with the ConnectionError", async () => {
    const clock = new FakeClock();
    const client = createClient({ baseUrl: await closedPort(), apiKey: "k", clock, retry: { maxRetries: 2 } });
    const error = await client.sources
      .create({ name: "Photos", deployment: { type: "webproxy", service_subdomains: ["photos"] } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(clock.sleeps).toHaveLength(2);
  });

  it("does not retry at all with retry: false", async () => {
    const { source, server } = await flakyServer(1, (_, res) =>
      sendJson(res, 429, errorDocument(429, "TooManyRequests", "slow down"), { "retry-after": "1" }),
    );
    const client = createClient({ baseUrl: server.url, apiKey: "k", retry: false });
    await expect(client.sources.get(source.id)).rejects.toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(1);
  });

  it("tells the hooks which attempt each request is", async () => {
    const { source, server } = await flakyServer(1, (_, res) => sendJson(res, 500, errorDocument(500, "InternalServerError", "boom")));
    const attempts: [number, number | undefined][] = [];
    const client = createClient({
      baseUrl: server.url,
      apiKey: "k",
      clock: new FakeClock(),
      onResponse: (i) => attempts.push([i.attempt, i.status]),
    });
    await client.sources.get(source.id);
    expect(attempts).toEqual([
      [0, 500],
      [1, 200],
    ]);
  });
});
