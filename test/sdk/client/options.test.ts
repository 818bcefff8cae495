// createClient's options: each bad one named with its rule, the key never echoed.
import { describe, expect, it } from "vitest";
import { createClient, RequestValidationError, type ClientOptions } from "@asset-delivery/sdk";
import { resolveOptions } from "../../../sdk/src/client/options";

const messageOf = (options: unknown): string => {
  try {
    createClient(options as ClientOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(RequestValidationError);
    return (error as Error).message;
  }
  throw new Error("createClient accepted the options");
};

describe("createClient options", () => {
  it("accepts the minimal options", async () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:1", apiKey: "abc123" });
    expect(Object.keys(client)).toEqual(["sources", "reports", "videos", "purges", "close"]);
    await client.close();
  });

  it("accepts any base URL the WHATWG parser takes: an IPv6 literal, an international host name", () => {
    expect(resolveOptions({ baseUrl: "http://[::1]:8787", apiKey: "abc123" }).baseUrl).toMatchObject({ hostname: "[::1]", port: "8787" });
    expect(resolveOptions({ baseUrl: "https://bücher.example/api", apiKey: "abc123" }).baseUrl).toMatchObject({
      hostname: "xn--bcher-kva.example",
      pathname: "/api",
    });
  });

  it.each([
    [{ apiKey: "k" }, "baseUrl: is required"],
    [{ baseUrl: "api.example.com", apiKey: "k" }, "baseUrl: must be an absolute http:// or https:// URL"],
    [{ baseUrl: "https://x.test" }, "apiKey: is required"],
    [{ baseUrl: "https://x.test", apiKey: "" }, "apiKey: must be the API key as issued: non-empty, printable ASCII, no spaces"],
    [{ baseUrl: "https://x.test", apiKey: "k", timeoutMs: 0 }, "timeoutMs: must be > 0 milliseconds"],
    [{ baseUrl: "https://x.test", apiKey: "k", retry: { maxRetries: -1 } }, "retry.maxRetries: must be an integer >= 0"],
    [{ baseUrl: "https://x.test", apiKey: "k", retry: true }, "retry: must be false or { maxRetries, baseDelayMs, maxDelayMs }"],
    [
      { baseUrl: "https://x.test", apiKey: "k", pacing: { limits: { default: { limit: 0, intervalMs: 1 } } } },
      "pacing.limits.default.limit: must be a positive integer",
    ],
    [{ baseUrl: "https://x.test", apiKey: "k", dispatcher: {} }, "dispatcher: must be an undici Dispatcher"],
    [{ baseUrl: "https://x.test", apiKey: "k", onRequest: "log" }, "onRequest: must be a function"],
    [{ baseUrl: "https://x.test", apiKey: "k", retries: 3 }, "retries: is not a field of this object"],
  ])("names a bad option: %j", (options, expected) => {
    expect(messageOf(options)).toBe(`invalid client options: ${expected}`);
  });

  it("refuses http:// for a host other than loopback, unless allowInsecureHttp says so", async () => {
    expect(messageOf({ baseUrl: "http://example.com", apiKey: "k" })).toBe(
      "invalid client options: baseUrl: must be https:// for a host other than loopback (localhost, 127.0.0.0/8, ::1): over http:// the API key would travel in clear text to example.com; to send it anyway, set allowInsecureHttp: true",
    );
    expect(messageOf({ baseUrl: "http://10.0.0.5:8787", apiKey: "k" })).toMatch(/clear text to 10\.0\.0\.5:8787/);
    expect(messageOf({ baseUrl: "http://127.evil.example", apiKey: "k" })).toMatch(/must be https:\/\//);
    // A name under .localhost may be sent to DNS (RFC 6761: resolvers should, not must, keep it local).
    expect(messageOf({ baseUrl: "http://api.localhost:8787", apiKey: "k" })).toMatch(/clear text to api\.localhost:8787/);
    expect(messageOf({ baseUrl: "http://localhost.evil.example", apiKey: "k" })).toMatch(/must be https:\/\//);
    for (const baseUrl of ["http://127.0.0.1:8787", "http://127.1.2.3", "http://localhost:8787", "http://LOCALHOST", "http://[::1]:8787"]) {
      expect(resolveOptions({ baseUrl, apiKey: "k" }).baseUrl.href).toBe(new URL(baseUrl).href);
    }
    expect(resolveOptions({ baseUrl: "http://example.com", apiKey: "k", allowInsecureHttp: true }).baseUrl.host).toBe("example.com");
    expect(messageOf({ baseUrl: "http://example.com", apiKey: "k", allowInsecureHttp: "yes" })).toMatch(
      /allowInsecureHttp: must be true or false/,
    );
  });

  it("does not echo a malformed key", () => {
    const key = "secret key with spaces";
    expect(messageOf({ baseUrl: "https://x.test", apiKey: key })).not.toContain(key);
  });
});
