// `asset-delivery purge URL...` as a user runs it (a child process) against a running server:
// each URL purged through the API, a repeat reported as already purging, failures exit 1; the key
// from the environment or standard input (a key on the command line is warned of).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { DEFAULT_DELIVERY_DOMAIN } from "@asset-delivery/sdk";
import { createPurgeStore } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN } from "../support/serve-process.cjs";
import { startTestServer, type TestServer } from "../support/server";
import { minimalDeployment, sourceClient, uniqueLabel } from "../server/fixtures";

const run = promisify(execFile);
let server: TestServer;
let key: string;
let sourceId: string;
let host: string;
// Held still: the repeat below falls in the 10-second window however slowly the processes start.
const clock = Date.parse("2026-11-23T00:00:00Z");
beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
  key = server.accountKey(["Purge", "Sources"]);
  const label = uniqueLabel("cli-purge");
  sourceId = await sourceClient(server, key).createOk({ name: "cli purge", deployment: minimalDeployment("webproxy", label) });
  host = `https://${label}.${DEFAULT_DELIVERY_DOMAIN}`;
});
afterAll(() => server.close());

async function purge(...args: string[]) {
  const env = { ...process.env, ASSET_DELIVERY_BASE_URL: server.url, ASSET_DELIVERY_API_KEY: key };
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI_BIN, "purge", ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("asset-delivery purge", () => {
  it("purges each URL and records it with its Source; the same URL again is already purging", async () => {
    const first = await purge(`${host}/one.jpg`, `${host}/two.jpg?w=10`);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      new RegExp(`^purging ${host}/one.jpg \\(purge [0-9a-f-]{36}\\)\\npurging ${host}/two.jpg\\?w=10 \\(purge [0-9a-f-]{36}\\)\\n$`),
    );
    expect(
      createPurgeStore(server.db)
        .listBySource(sourceId)
        .map((p) => p.url),
    ).toEqual([`${host}/one.jpg`, `${host}/two.jpg`]);
    const again = await purge(`${host}/one.jpg`);
    expect(again).toMatchObject({ code: 0, stdout: `already purging ${host}/one.jpg\n` });
  });

  it("exits 1 naming the URL and the rule when a purge is refused, and still purges the others", async () => {
    const result = await purge(`https://elsewhere.example.org/x.jpg`, `${host}/three.jpg`);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("https://elsewhere.example.org/x.jpg: ");
    expect(result.stderr).toMatch(/url: the host "elsewhere.example.org" must be/);
    expect(result.stdout).toContain(`purging ${host}/three.jpg`);
  });

  it("exits 2 without URLs or without credentials", async () => {
    expect((await purge()).code).toBe(2);
    const noKey = await run(process.execPath, [CLI_BIN, "purge", `${host}/x.jpg`], {
      env: { ...process.env, ASSET_DELIVERY_API_KEY: "", ASSET_DELIVERY_BASE_URL: server.url },
    }).catch((e) => e);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("an API key is needed");
  });

  it("reads the key from standard input with --api-key-stdin, and warns when --api-key puts it on the command line", async () => {
    const env = { ...process.env, ASSET_DELIVERY_BASE_URL: server.url, ASSET_DELIVERY_API_KEY: "" };
    const piped = run(process.execPath, [CLI_BIN, "purge", "--api-key-stdin", `${host}/stdin.jpg`], { env });
    piped.child.stdin!.end(`${key}\n`);
    const fromStdin = await piped;
    expect(fromStdin.stdout).toMatch(new RegExp(`^purging ${host}/stdin.jpg \\(purge `));
    expect(fromStdin.stderr).toBe("");
    const flagged = await run(process.execPath, [CLI_BIN, "purge", "--api-key", key, `${host}/flag.jpg`], { env });
    expect(flagged.stdout).toMatch(new RegExp(`^purging ${host}/flag.jpg \\(purge `));
    expect(flagged.stderr).toContain("warning: --api-key puts the key on the command line");
  });
});
