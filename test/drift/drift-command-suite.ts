// `asset-delivery drift` end to end: a stack applied by the real Pulumi CLI (local backend) against
// a real server, then changes made behind its back through the SDK, and the command run as a child
// process, as CI runs it: exact report lines, exit codes, and the requests it made.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { createClient, type AssetDeliveryClient, type Source } from "@asset-delivery/sdk";
import type { Profile } from "@asset-delivery/server";
import type { DriftReport } from "../../cli/src/drift";
import { startTestServer, type TestServer } from "../support/server";
import { programStack, removeStacksAndServer, TEST_PROGRAMS, type ProgramStack } from "../support/program-stack";
import { DEV_CONFIG_PASSPHRASE } from "../support/pulumi";

const STEP_TIMEOUT = 180_000;
const BIN = path.resolve(__dirname, "..", "..", "cli", "bin", "asset-delivery.js");
const STACK = "drift";
const PHOTOS_PASSWORD = "photos-origin-password";
const ASSETS_S3_SECRET = "assets-s3-secret-key";
// Not write-only, but passed as a secret by the program: compared, never shown.
const ASSETS_ACCESS_KEY = "AKIAFROMSECRETCONFIG";

// Seven Sources, each meant for one kind of change (stable gets none).
const declared = {
  photos: {
    name: "Photos",
    deployment: {
      type: "webfolder",
      serviceSubdomains: ["drift-photos"],
      webfolderBaseUrl: "https://origin.example.com/img/",
      defaultParams: { w: 400 },
    },
  },
  assets: {
    name: "Assets",
    deployment: {
      type: "s3",
      serviceSubdomains: ["drift-assets"],
      s3Bucket: "drift-assets",
      customDomains: ["assets.example.com"],
      annotation: "managed by pulumi",
    },
  },
  docs: { name: "Docs", deployment: { type: "webproxy", serviceSubdomains: ["drift-docs"] } },
  archive: { name: "Archive", enabled: false, deployment: { type: "webproxy", serviceSubdomains: ["drift-archive"] } },
  legacy: { name: "Legacy", deployment: { type: "webproxy", serviceSubdomains: ["drift-legacy"] } },
  old: { name: "Old", deployment: { type: "webproxy", serviceSubdomains: ["drift-old"] } },
  stable: { name: "Stable", deployment: { type: "webproxy", serviceSubdomains: ["drift-stable"] } },
};

const urnOf = (name: string) => `urn:pulumi:${STACK}::provider-e2e-sources::pulumi-nodejs:dynamic/assetdelivery:Source::${name}`;

/** The report's ways out of a Source declared in the stack's configuration, as Markdown lines. */
function wayOutLines(name: string, gone = false): string[] {
  const keep = gone
    ? ", then remove its declaration: the server has no Source to keep"
    : `, then \`asset-delivery drift --stack ${STACK} --accept ${name}\``;
  return [
    "",
    `- Revert (the server gets the declaration back): \`pulumi up --stack ${STACK} --target ${urnOf(name)} --refresh\``,
    `- Keep the server's values: \`pulumi refresh --stack ${STACK} --target ${urnOf(name)}\`${keep}`,
  ];
}

/** The command, against a server answering in `profile` (server/src/http/profile.ts). */
export function driftCommandSuite(profile: Profile): void {
  let server: TestServer;
  let client: AssetDeliveryClient;
  let program: ProgramStack;
  let ids: Record<keyof typeof declared, string>;

  interface DriftRun {
    code: number | null;
    stdout: string;
    stderr: string;
    /** Requests the server answered during the run, by method. */
    requests: Record<string, number>;
  }

  /** Runs the installed bin as CI would, with the stack's Pulumi environment and nothing else of ours. */
  async function drift(args: string[], extraEnv: Record<string, string> = {}): Promise<DriftRun> {
    const { ASSET_DELIVERY_BASE_URL: _url, ASSET_DELIVERY_API_KEY: _key, ...inherited } = process.env;
    const env = { ...inherited, ...(program.stack.workspace as LocalWorkspace).envVars, ...extraEnv };
    server.resetRequestCount();
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      // Asynchronous on purpose: the server answers from this process.
      execFile(process.execPath, [BIN, "drift", ...args], { env, cwd: program.workDir }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
      );
    });
    const counts = ["GET", "POST", "PATCH"].map((method) => [method, server.requestCount(method)] as const);
    const requests = Object.fromEntries(counts.filter(([, n]) => n !== 0));
    expect(server.requestCount(), "only GET, POST and PATCH are counted by method").toBe(counts.reduce((sum, [, n]) => sum + n, 0));
    return { ...result, requests };
  }

  /** A PATCH of the whole deployment as the server has it, with some fields changed: how an operator edits a Source by hand. */
  async function editDeployment(id: string, changes: Record<string, unknown>): Promise<Source> {
    const live = await client.sources.get(id);
    return client.sources.update(id, { deployment: { ...live.attributes.deployment, ...changes } });
  }

  beforeAll(async () => {
    server = await startTestServer({ profile, deployDelayMs: 0, deployLagMs: 0 });
    client = createClient({ baseUrl: server.url, apiKey: server.adminKey });
    // The passphrase's own: a wrong one is among the failures tested below.
    program = await programStack(path.join(TEST_PROGRAMS, "sources"), STACK, { baseUrl: server.url, apiKey: server.adminKey }, undefined, {
      PULUMI_CONFIG_PASSPHRASE: DEV_CONFIG_PASSPHRASE,
    });
    await program.set({ sources: declared, secretFields: { photos: ["password"], assets: ["s3SecretKey", "s3AccessKey"] } });
    await program.setSecret({
      secretValues: { photos: { password: PHOTOS_PASSWORD }, assets: { s3SecretKey: ASSETS_S3_SECRET, s3AccessKey: ASSETS_ACCESS_KEY } },
    });
    const up = await program.stack.up();
    ids = up.outputs.ids!.value;
  }, STEP_TIMEOUT);

  afterAll(() => removeStacksAndServer({ stacks: [program], client, server }), STEP_TIMEOUT);

  describe(`asset-delivery drift (${profile} profile)`, () => {
    it(
      "reports no drift in one line, exit 0, with one list request",
      async () => {
        const run = await drift(["--stack", STACK]);
        expect(run.stderr).toBe("");
        expect(run.stdout).toBe("No drift: all 7 Sources of stack `drift` match the server.\n");
        expect(run.code).toBe(0);
        expect(run.requests).toEqual({ GET: 1 });
      },
      STEP_TIMEOUT,
    );

    it(
      "reports each change made behind the stack's back, field by field, exit 2, changing nothing",
      async () => {
        await editDeployment(ids.docs, { cache_ttl_error: 900 }); // a scalar
        await editDeployment(ids.assets, { custom_domains: ["assets.example.com", "cdn.example.com"], s3_access_key: "AKIAROTATEDBYHAND" }); // a list; a secret value
        await editDeployment(ids.photos, { default_params: { w: 800, q: 75 }, password: null }); // a nested object; a secret cleared
        await client.sources.update(ids.archive, { enabled: true }); // declared disabled, enabled by hand
        await client.sources.update(ids.legacy, { enabled: false }); // retired by hand
        // The API cannot delete a Source; the operator's side of the service can.
        server.db.prepare("DELETE FROM sources WHERE id = ?").run(ids.old);
        const stateBefore = program.stateFile();

        const run = await drift(["--stack", STACK, "--cwd", program.workDir]);
        expect(run.stderr).toBe("");
        expect(run.stdout.split("\n")).toEqual([
          "Drift: 6 of 7 Sources differ from stack `drift`.",
          "",
          `#### \`archive\` · Source \`${ids.archive}\`: changed on the server`,
          "",
          "| Field | Declared | Live |",
          "| --- | --- | --- |",
          "| `enabled` | `false` | `true` |",
          ...wayOutLines("archive"),
          "",
          `#### \`assets\` · Source \`${ids.assets}\`: changed on the server`,
          "",
          "| Field | Declared | Live |",
          "| --- | --- | --- |",
          '| `deployment.customDomains` | `["assets.example.com"]` | `["assets.example.com","cdn.example.com"]` |',
          "| `deployment.s3AccessKey` | *secret, set* | *changed: different* |",
          ...wayOutLines("assets"),
          "",
          `#### \`docs\` · Source \`${ids.docs}\`: changed on the server`,
          "",
          "| Field | Declared | Live |",
          "| --- | --- | --- |",
          "| `deployment.cacheTtlError` | `300` | `900` |",
          ...wayOutLines("docs"),
          "",
          `#### \`legacy\` · Source \`${ids.legacy}\`: retired: disabled on the server`,
          "",
          "| Field | Declared | Live |",
          "| --- | --- | --- |",
          "| `enabled` | `true` | `false` |",
          ...wayOutLines("legacy"),
          "",
          `#### \`old\` · Source \`${ids.old}\`: gone: the server no longer has this Source`,
          ...wayOutLines("old", true),
          "",
          `#### \`photos\` · Source \`${ids.photos}\`: changed on the server`,
          "",
          "| Field | Declared | Live |",
          "| --- | --- | --- |",
          "| `deployment.defaultParams.w` | `400` | `800` |",
          "| `deployment.defaultParams.q` | *absent* | `75` |",
          "| `deployment.password` | *secret, set* | *changed: not set* (`passwordSet: false`) |",
          ...wayOutLines("photos"),
          "",
          "<sub>Declared: the stack's state as last applied. Live: the server now. Secrets are never shown. A list is compared whole (an API update replaces it whole); `pulumi refresh` names its entries. A write-only secret is never returned by the API: its change is seen through the flag shown, and a dynamic Source's `pulumi refresh` shows only that flag.</sub>",
          "",
        ]);
        expect(run.code).toBe(2);
        // One page lists all seven; the Source missing from it is confirmed gone by one GET.
        expect(run.requests).toEqual({ GET: 2 });
        expect(program.stateFile(), "the state is left as it was").toBe(stateBefore);
        for (const secret of [PHOTOS_PASSWORD, ASSETS_S3_SECRET, ASSETS_ACCESS_KEY, "AKIAROTATEDBYHAND", server.adminKey])
          expect(run.stdout).not.toContain(secret);
      },
      STEP_TIMEOUT,
    );

    it(
      "gives the same content as JSON",
      async () => {
        const run = await drift(["--stack", STACK, "--format", "json"]);
        expect(run.code).toBe(2);
        const { drifted, ...rest } = JSON.parse(run.stdout) as DriftReport;
        for (const { name, urn, shape, wayOut } of drifted) {
          expect([urn, shape]).toEqual([urnOf(name), "dynamic"]);
          expect(wayOut.revert).toEqual([`pulumi up --stack ${STACK} --target ${urnOf(name)} --refresh`]);
        }
        expect({ ...rest, drifted: drifted.map(({ urn: _urn, shape: _shape, wayOut: _wayOut, ...drift }) => drift) }).toEqual({
          stack: "drift",
          sourceCount: 7,
          drifted: [
            { name: "archive", id: ids.archive, status: "changed", fields: [{ field: "enabled", declared: false, live: true }] },
            {
              name: "assets",
              id: ids.assets,
              status: "changed",
              fields: [
                { field: "deployment.customDomains", declared: ["assets.example.com"], live: ["assets.example.com", "cdn.example.com"] },
                { field: "deployment.s3AccessKey", secret: true, declared: "set", live: "different" },
              ],
            },
            { name: "docs", id: ids.docs, status: "changed", fields: [{ field: "deployment.cacheTtlError", declared: 300, live: 900 }] },
            { name: "legacy", id: ids.legacy, status: "retired", fields: [{ field: "enabled", declared: true, live: false }] },
            { name: "old", id: ids.old, status: "gone", fields: [] },
            {
              name: "photos",
              id: ids.photos,
              status: "changed",
              fields: [
                { field: "deployment.defaultParams.w", declared: 400, live: 800 },
                { field: "deployment.defaultParams.q", live: 75 },
                { field: "deployment.password", secret: true, declared: "set", live: "not set", flag: "passwordSet" },
              ],
            },
          ],
          // Every enabled Source of the account is one of the stack's.
          unmanaged: [],
        });
        expect(run.requests).toEqual({ GET: 2 });
      },
      STEP_TIMEOUT,
    );

    // Declared on the full profile only (not skipped on the other): --accept only reads the Sources, as the review does.
    if (profile === "full")
      it(
        "--accept keeps the server's values of a config-declared Source: Pulumi.<stack>.yaml rewritten, then after a refresh the preview shows no change, no write; a secret drift is refused, nothing written",
        async () => {
          const configFile = path.join(program.workDir, `Pulumi.${STACK}.yaml`);
          const before = fs.readFileSync(configFile, "utf8");
          const refused = await drift(["--stack", STACK, "--accept", "docs", "--accept", "photos"]);
          expect(refused).toMatchObject({ code: 1, stdout: "" });
          expect(refused.stderr).toBe(
            "asset-delivery drift: photos cannot be kept by --accept: deployment.password is a secret: declare it with pulumi config set --secret\n",
          );
          expect(fs.readFileSync(configFile, "utf8"), "nothing written").toBe(before);

          const accepted = await drift(["--stack", STACK, "--accept", "docs"]);
          expect(accepted.stderr).toBe("");
          expect(accepted).toMatchObject({ code: 0, stdout: `Kept the server's values of docs: 1 field written to ${configFile}.\n` });
          expect(JSON.parse((await program.stack.getConfig("sources")).value).docs.deployment.cacheTtlError).toBe(900);
          for (const secret of [PHOTOS_PASSWORD, ASSETS_S3_SECRET, ASSETS_ACCESS_KEY])
            expect(fs.readFileSync(configFile, "utf8")).not.toContain(secret);
          const { PATCH = 0, POST = 0 } = await (async () => {
            server.resetRequestCount();
            await program.stack.refresh({ target: [urnOf("docs")] });
            const preview = await program.stack.preview({ target: [urnOf("docs")], expectNoChanges: true });
            expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
            return { PATCH: server.requestCount("PATCH"), POST: server.requestCount("POST") };
          })();
          expect([PATCH, POST]).toEqual([0, 0]);
        },
        STEP_TIMEOUT,
      );

    it(
      "fails with exit 1 and a clear message for an unknown stack, a wrong passphrase, a bad format, a refused key and an unreachable server",
      async () => {
        const unknown = await drift(["--stack", "nope"]);
        expect(unknown).toMatchObject({ code: 1, stdout: "" });
        expect(unknown.stderr).toContain(`asset-delivery drift: stack "nope" not found for the project in ${program.workDir}`);

        const passphrase = await drift(["--stack", STACK], { PULUMI_CONFIG_PASSPHRASE: "not-the-passphrase" });
        expect(passphrase).toMatchObject({ code: 1, stdout: "" });
        expect(passphrase.stderr).toMatch(/^asset-delivery drift: pulumi failed to read stack "drift": .*incorrect passphrase/);

        const format = await drift(["--stack", STACK, "--format", "yaml"]);
        expect(format).toMatchObject({ code: 1, stdout: "" });
        expect(format.stderr).toContain('asset-delivery drift: format: must be one of markdown, json (got "yaml")');

        await program.stack.setConfig("assetdelivery:apiKey", { value: "not-a-key-of-this-server", secret: true });
        const refused = await drift(["--stack", STACK]);
        expect(refused).toMatchObject({ code: 1, stdout: "" });
        expect(refused.stderr).toBe(
          `asset-delivery drift: the API at ${server.url} refused the API key (401 Unauthorized): check assetdelivery:apiKey or ASSET_DELIVERY_API_KEY\n`,
        );
        expect(refused.stderr).not.toContain("not-a-key-of-this-server");

        await program.stack.setConfig("assetdelivery:apiKey", { value: server.adminKey, secret: true });
        await program.stack.setConfig("assetdelivery:baseUrl", { value: "http://127.0.0.1:9" });
        const unreachable = await drift(["--stack", STACK]);
        expect(unreachable).toMatchObject({ code: 1, stdout: "" });
        expect(unreachable.stderr).toMatch(
          /^asset-delivery drift: cannot reach the API at http:\/\/127\.0\.0\.1:9 \(.*connection failed.*\): check assetdelivery:baseUrl or ASSET_DELIVERY_BASE_URL\n$/,
        );
        await program.stack.setConfig("assetdelivery:baseUrl", { value: server.url });
      },
      STEP_TIMEOUT,
    );
  });
}
