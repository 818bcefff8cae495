// A stack of dynamic Sources (TypeScript, `new Source(...)`) moves to the native plugin with no write
// to the API: forget the dynamic resources (`pulumi state delete`, no call to the provider), list them
// into Pulumi's import file (`asset-delivery import --format pulumi-import`), `pulumi import --file`
// (reads only), which prints TypeScript on the generated SDK, and declare them so: the preview shows
// no change (docs/native-plugin.md).
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { programStack, TEST_PROGRAMS, type ProgramStack } from "../support/program-stack";
import { pulumiEnv, repoRoot } from "../support/pulumi";
import { startTestServer, type TestServer } from "../support/server";
import { installNodeSdk } from "../sdks/node-sdk";
import { PLUGIN_BIN_DIR, runCli } from "./yaml-stack";

const run = promisify(execFile);
const STEP_TIMEOUT = 300_000;

let server: TestServer;
let client: AssetDeliveryClient;
let program: ProgramStack;

const declared = {
  shop: {
    name: "Shop images",
    deployment: {
      type: "webfolder",
      serviceSubdomains: ["plugin-migrate-shop"],
      webfolderBaseUrl: "https://shop.example.com/img/",
      cacheTtlValue: 7200,
    },
  },
  blog: {
    name: "Blog images",
    deployment: { type: "webproxy", serviceSubdomains: ["plugin-migrate-blog"], customDomains: ["img.blog.example"] },
  },
};

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  program = await programStack(path.join(TEST_PROGRAMS, "sources"), "e2e", { baseUrl: server.url, apiKey: server.adminKey });
  await program.set({ sources: declared });
  await program.stack.up();
}, STEP_TIMEOUT);

afterAll(async () => {
  await program?.remove();
  await client?.close();
  await server?.close();
}, STEP_TIMEOUT);

describe("moving a stack of dynamic Sources to the native plugin", () => {
  it(
    "sends no write: state delete, the import file, pulumi import --file, then no change to preview",
    async () => {
      const env = {
        ...pulumiEnv({ stateDir: path.join(program.workDir, ".state") }),
        PATH: `${PLUGIN_BIN_DIR}${path.delimiter}${pulumiEnv().PATH}`,
      };
      const cli = (args: string[]) => runCli([...args, "--stack", "e2e"], program.workDir, env);
      const ids = (await program.stack.outputs()).ids!.value as Record<string, string>;
      server.resetRequestCount();

      const state = JSON.parse((await cli(["stack", "export"])).stdout) as { deployment: { resources: { urn: string; type: string }[] } };
      for (const { urn } of state.deployment.resources.filter((r) => r.type === "pulumi-nodejs:dynamic/assetdelivery:Source")) {
        const deleted = await cli(["state", "delete", urn, "--yes"]);
        expect(deleted.code, deleted.stdout + deleted.stderr).toBe(0);
      }
      const file = path.join(program.workDir, "import.json");
      await run(
        process.execPath,
        [
          path.join(repoRoot(), "cli", "bin", "asset-delivery.js"),
          "import",
          "--stack",
          "e2e",
          "--cwd",
          program.workDir,
          "--format",
          "pulumi-import",
          "--out",
          file,
        ],
        { env: { ...process.env, ...env } },
      );
      const listed = JSON.parse(fs.readFileSync(file, "utf8")) as { resources: { name: string; id: string }[] };
      expect(listed.resources.map((r) => r.id).sort()).toEqual(Object.values(ids).sort());

      // The project stays TypeScript: `pulumi import` prints the native declarations on the generated
      // SDK (the Node.js host's GenerateProgram), which replace the program.
      installNodeSdk(program.workDir);
      const out = path.join(program.workDir, "native.ts");
      const imported = await cli(["import", "--file", file, "--yes", "--out", out]);
      expect(imported.code, imported.stdout + imported.stderr).toBe(0);
      const code = fs.readFileSync(out, "utf8");
      expect(code).toContain('import * as assetdelivery from "@asset-delivery/pulumi";');
      expect(code).toContain('"plugin-migrate-shop"');
      fs.writeFileSync(path.join(program.workDir, "index.ts"), code);
      const exported = JSON.parse((await cli(["stack", "export"])).stdout) as {
        deployment: { resources: { urn: string; type: string }[] };
      };
      const natives = exported.deployment.resources.filter((r) => r.type === "assetdelivery:index:Source");
      expect(natives).toHaveLength(2);
      const preview = await cli(["preview", "--expect-no-changes", "--diff"]);
      expect(preview.code, preview.stdout + preview.stderr).toBe(0);

      expect(server.requestCount("POST")).toBe(0);
      expect(server.requestCount("PATCH")).toBe(0);
      for (const id of Object.values(ids)) expect((await client.sources.get(id)).attributes.enabled).toBe(true);
      for (const r of natives) await cli(["state", "unprotect", r.urn, "--yes"]);
    },
    STEP_TIMEOUT * 2,
  );
});
