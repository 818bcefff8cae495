// The native plugin through the real Pulumi CLI: a stack whose baseUrl is http:// on a host other
// than loopback is refused at preview, by CheckConfig, with a message naming the setting and the
// way to allow it, before any request. The baseUrl names a listener of this test on the machine's
// own non-loopback address, which counts every connection made to it: none may come, though the
// program's preview would send one (an invoke reads a Source as the preview runs).
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { yamlStack, type YamlStack } from "./yaml-stack";

const API_KEY = "a-key-that-must-not-travel-in-clear";

let stack: YamlStack;
let listener: http.Server;
/** The listener's host:port, as the message names it. */
let listenerHost: string;
/** Every connection to the listener, and each request line and authorization header it got. */
let connections = 0;
const requests: string[] = [];

/** An IPv4 address of this machine that is not loopback: http:// to it is what the rule refuses. */
function nonLoopbackAddress(): string {
  const address = Object.values(os.networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .find((entry) => entry.family === "IPv4" && !entry.internal)?.address;
  if (address === undefined) throw new Error("this machine has no non-loopback IPv4 address for the test's listener");
  return address;
}

beforeAll(async () => {
  listener = http.createServer((request, response) => {
    requests.push(`${request.method} ${request.url} (authorization: ${request.headers.authorization ?? "none"})`);
    response.writeHead(503).end();
  });
  listener.on("connection", () => connections++);
  const host = nonLoopbackAddress();
  await new Promise<void>((resolve) => listener.listen(0, host, resolve));
  listenerHost = `${host}:${(listener.address() as AddressInfo).port}`;
  stack = await yamlStack(
    "plugin-insecure-http",
    "dev",
    {
      resources: {
        images: {
          type: "assetdelivery:index:Source",
          properties: { name: "Images", deployment: { type: "webproxy", serviceSubdomains: ["plugin-insecure-http"] } },
        },
      },
      variables: {
        existing: { "fn::invoke": { function: "assetdelivery:index:getSource", arguments: { id: "0123456789abcdef01234567" } } },
      },
      outputs: { existingName: "${existing.name}" },
    },
    { credentials: { baseUrl: `http://${listenerHost}`, apiKey: API_KEY } },
  );
}, 120_000);

afterAll(async () => {
  await stack?.remove();
  await new Promise((resolve) => listener?.close(resolve));
});

describe("baseUrl over plain HTTP", () => {
  it("refuses baseUrl: http:// on a non-loopback host at preview with a clear message and no request", async () => {
    const preview = await stack.pulumi(["preview"]);
    const output = preview.stdout + preview.stderr;
    expect({ connections, requests }, output).toEqual({ connections: 0, requests: [] });
    expect(preview.code, output).not.toBe(0);
    expect(output).toContain(`over http:// the API key would travel in clear text to ${listenerHost}`);
    expect(output).toContain("assetdelivery:allowInsecureHttp");
    expect(output).not.toContain(API_KEY);
  }, 120_000);
});
