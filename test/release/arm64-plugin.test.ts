// The linux-arm64 plugin runs: its release tarball's executable, under Debian's qemu-user-static
// with the arm64 C libraries (tools/install-system-packages.sh), goes through the YAML lifecycle of
// tools/verify/plugin.sh, the script the release workflow's `verify` job runs on the other
// platforms' runners: installed with `pulumi plugin install --file` into a fresh PULUMI_HOME, create,
// `preview --expect-no-changes`, one change in place, destroy, against a real server whose requests
// are counted. The tarball is repacked with the arm64 executable beside a two-line wrapper that starts
// it under qemu (no binfmt_misc needed: a container seldom may register one).
import { execFile, execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { pulumiBinDir, repoRoot } from "../support/pulumi";
import { countedSourceRequests, startTestServer, type TestServer } from "../support/server";

const run = promisify(execFile);
const root = repoRoot();
const TIMEOUT = 900_000;
const EXE = "pulumi-resource-assetdelivery";
const EM_AARCH64 = 183; // ELF e_machine of AArch64
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-arm64-"));
const STARTS = path.join(scratch, "qemu-starts.log");

let server: TestServer;
let client: AssetDeliveryClient;
let tarball: string;

beforeAll(async () => {
  const qemu = spawnSync("qemu-aarch64-static", ["--version"], { encoding: "utf8" });
  if (qemu.status !== 0) throw new Error("qemu-aarch64-static is missing: run bash tools/install-system-packages.sh");
  // Built once per content (.ci/run builds every platform before npm test): seconds when current.
  const built = execFileSync("bash", [path.join(root, "tools", "package-plugin.sh"), "--out", path.join(scratch, "built"), "linux-arm64"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
    .trim()
    .split("\n")
    .pop()!;
  const unpacked = path.join(scratch, "unpacked");
  fs.mkdirSync(unpacked);
  execFileSync("tar", ["-xzf", built, "-C", unpacked]);
  fs.renameSync(path.join(unpacked, EXE), path.join(unpacked, `${EXE}.arm64`));
  // Each start is logged, so the test knows the engine ran this plugin and not another copy.
  fs.writeFileSync(
    path.join(unpacked, EXE),
    `#!/bin/sh\necho "$$" >>'${STARTS}'\nexec qemu-aarch64-static "$(dirname "$0")/${EXE}.arm64" "$@"\n`,
    { mode: 0o755 },
  );
  tarball = path.join(scratch, path.basename(built));
  execFileSync("tar", ["-czf", tarball, "-C", unpacked, "."]);
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
}, TIMEOUT);

afterAll(async () => {
  await client?.close();
  await server?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("the linux-arm64 plugin under qemu-user-static", () => {
  it("is an AArch64 executable, which this x86-64 machine cannot run but through qemu", () => {
    const header = fs.readFileSync(path.join(scratch, "unpacked", `${EXE}.arm64`)).subarray(0, 20);
    expect(header.subarray(0, 4).toString("latin1")).toBe("\x7fELF");
    expect(header.readUInt16LE(18)).toBe(EM_AARCH64);
  });

  it(
    "passes tools/verify/plugin.sh's YAML lifecycle: one POST, one PATCH for the change, one PATCH retiring it",
    async () => {
      const env = {
        ...Object.fromEntries(
          Object.entries(process.env).filter(([key]) => !key.startsWith("PULUMI_") && !key.startsWith("ASSET_DELIVERY_")),
        ),
        PATH: [pulumiBinDir(), process.env.PATH].join(path.delimiter),
        PULUMI_BACKEND_URL: `file://${path.join(scratch, "state")}`,
        ASSET_DELIVERY_BASE_URL: server.url,
        ASSET_DELIVERY_API_KEY: server.adminKey,
      };
      fs.mkdirSync(path.join(scratch, "state"));
      const { result, requests } = await countedSourceRequests(server, () =>
        run("bash", [path.join(root, "tools", "verify", "plugin.sh"), tarball], {
          env,
          maxBuffer: 64 * 1024 * 1024,
          timeout: TIMEOUT,
        }).catch((error: { message: string; stdout?: string; stderr?: string }) => {
          throw new Error(`${error.message}\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
        }),
      );
      expect(result.stderr).toMatch(/linux-arm64: the plugin \S+ passed its lifecycle/);
      // up, preview, up, destroy: each started the arm64 executable under qemu.
      const starts = fs.existsSync(STARTS) ? fs.readFileSync(STARTS, "utf8").trim().split("\n").length : 0;
      expect(starts).toBeGreaterThanOrEqual(4);
      expect(requests.POST).toBe(1);
      expect(requests.PATCH).toBe(2);
      const [source] = (await client.sources.list()).data.filter((s) => s.attributes.name === "Release check linux-arm64");
      expect(source?.attributes).toMatchObject({ enabled: false, deployment: { cache_ttl_value: 7200 } });
    },
    TIMEOUT,
  );
});
