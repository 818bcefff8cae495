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
    [{ baseUrl: "http://x.test" }, "apiKey: is required"],
    [{ baseUrl: "http://x.test", apiKey: "" }, "apiKey: must be the API key as issued: non-empty, printable ASCII, no spaces"],
    [{ baseUrl: "http://x.test", apiKey: "k", timeoutMs: 0 }, "timeoutMs: must be > 0 milliseconds"],
    [{ baseUrl: "http://x.test", apiKey: "k", retry: { maxRetries: -1 } }, "retry.maxRetries: must be an integer >= 0"],
    [{ baseUrl: "http://x.test", apiKey: "k", retry: true }, "retry: must be false or { maxRetries, baseDelayMs, maxDelayMs }"],
    [
      { baseUrl: "http://x.test", apiKey: "k", pacing: { limits: { default: { limit: 0, intervalMs: 1 } } } },
      "pacing.limits.default.limit: must be a positive integer",
    ],
    [{ baseUrl: "http://x.test", apiKey: "k", dispatcher: {} }, "dispatcher: must be an undici Dispatcher"],
    [{ baseUrl: "http://x.test", apiKey: "k", onRequest: "log" }, "onRequest: must be a function"],
    [{ baseUrl: "http://x.test", apiKey: "k", retries: 3 }, "retries: is not a field of this object"],
  ])("names a bad option: %j", (options, expected) => {
    expect(messageOf(options)).toBe(`invalid client options: ${expected}`);
  });

  it("does not echo a malformed key", () => {
    const key = "secret key with spaces";
    expect(messageOf({ baseUrl: "http://x.test", apiKey: key })).not.toContain(key);
  });
});
