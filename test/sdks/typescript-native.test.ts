// The generated Node.js SDK end to end: a TypeScript program on `@asset-delivery/pulumi` (the native
// resource through the plugin, not the dynamic Source), run by the real CLI and our Node.js language
// host against a real server, with the requests the server answered counted; `pulumi import` prints
// TypeScript (the host's GenerateProgram) that, added to the program, type-checks and previews with
// no changes. One server profile: the plugin's lifecycle on both is test/plugin/source-lifecycle-*.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { repoRoot } from "../support/pulumi";
import { countedSourceRequests, startTestServer, type TestServer } from "../support/server";
import { secretsInStateFiles, stateFiles } from "../support/state-files";
import { expectCreatedWithSecretsHidden, expectNoChangeThenOnePatch, expectRefreshUndoesDrift } from "../plugin/source-lifecycle-suite";
import { yamlStack, type YamlStack } from "../plugin/yaml-stack";
import { installNodeSdk } from "./node-sdk";

const STEP_TIMEOUT = 300_000;
const PROJECT = "ts-native";

// Values that must never appear in plain text in the state or the CLI's output.
const SECRETS = {
  password: "ts-origin-password-plain",
  handshake: "ts-handshake-in-plain-text-00032", // passed unmarked, as a careless program would
  s3Secret: "ts-assets-s3-secret-plain",
};

const IMPORTS = ['import * as pulumi from "@pulumi/pulumi";', 'import * as assetdelivery from "@asset-delivery/pulumi";'];

function program({ cacheTtlValue = 86400, extra = "" }: { cacheTtlValue?: number; extra?: string } = {}): string {
  return `${IMPORTS.join("\n")}

const config = new pulumi.Config();

const photos = new assetdelivery.Source("photos", {
    name: "Photos",
    deployment: {
        type: "webfolder",
        serviceSubdomains: ["ts-photos"],
        webfolderBaseUrl: "https://origin.example.com/images/",
        password: config.requireSecret("originPassword"),
        requestHandshake: ${JSON.stringify(SECRETS.handshake)},
        cacheTtlValue: ${cacheTtlValue},
    },
});

const assets = new assetdelivery.Source("assets", {
    name: "Assets",
    deployment: {
        type: "s3",
        serviceSubdomains: ["ts-assets"],
        s3AccessKey: "AKIATSNATIVEEXAMPLE",
        s3Bucket: "ts-assets-bucket",
        s3SecretKey: config.requireSecret("s3SecretKey"),
        secureUrlEnabled: true,
    },
});

// The invoke, as the server has the Source.
const looked = assetdelivery.getSourceOutput({ id: photos.id });

export const photosId = photos.id;
export const assetsId = assets.id;
export const lookedUpName = looked.name;
export const lookedUpStatus = looked.deploymentStatus;
${extra}`;
}

function expectNoSecret(text: string): void {
  for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
}

let server: TestServer;
let client: AssetDeliveryClient;
let stack: YamlStack;
let ids: { photos: string; assets: string; handmade?: string };

const writeProgram = (source: string) => fs.writeFileSync(path.join(stack.workDir, "index.ts"), source);

const counted = <T>(step: () => Promise<T>) => countedSourceRequests(server, step);

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  stack = await yamlStack(PROJECT, "e2e", {}, {
    runtime: "nodejs",
    credentials: { baseUrl: server.url, apiKey: server.adminKey },
    // Type checking is the job of the tsc step below; at run time the program is only transpiled.
    env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
  });
  installNodeSdk(stack.workDir);
  fs.writeFileSync(
    path.join(stack.workDir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, target: "ES2022", module: "nodenext", moduleResolution: "nodenext", types: ["node"], noEmit: true },
      files: ["index.ts"],
    }),
  );
  writeProgram(program());
  await stack.ok(["config", "set", "--secret", "originPassword", SECRETS.password]);
  await stack.ok(["config", "set", "--secret", "s3SecretKey", SECRETS.s3Secret]);
}, STEP_TIMEOUT);

afterAll(async () => {
  await stack?.remove();
  await client?.close();
  await server?.close();
}, STEP_TIMEOUT);

describe("a TypeScript program on the generated SDK (@asset-delivery/pulumi)", () => {
  it(
    "creates two Sources, the write-only fields secret (none in plain text in stack export); getSource reads one",
    async () => {
      await expectCreatedWithSecretsHidden({ stack, server }, Object.values(SECRETS));
      const outputs = await stack.outputs();
      ids = { photos: outputs.photosId as string, assets: outputs.assetsId as string };
      expect(outputs.lookedUpName).toBe("Photos");
      expect(outputs.lookedUpStatus).toEqual(expect.any(String));
      const live = await client.sources.get(ids.photos);
      expect(live.attributes.deployment).toMatchObject({ password_set: true, request_handshake_set: true, cache_ttl_value: 86400 });
    },
    STEP_TIMEOUT,
  );

  it(
    "previews no change, then updates one field with one PATCH",
    async () => {
      await expectNoChangeThenOnePatch({ stack, client, server }, ids.photos, () => writeProgram(program({ cacheTtlValue: 7200 })));
    },
    STEP_TIMEOUT,
  );

  it(
    "refresh records a change made on the server; up puts the declared value back",
    async () => {
      await expectRefreshUndoesDrift({ stack, client, server }, ids.photos, "Photos");
      expect((await stack.outputs()).lookedUpName).toBe("Photos");
    },
    STEP_TIMEOUT,
  );

  it(
    "`pulumi import` prints TypeScript on the SDK; added to the program it type-checks and previews with no changes",
    async () => {
      const handMade = await client.sources.create({
        name: "Hand made",
        deployment: { type: "webproxy", service_subdomains: ["ts-hand-made"], cache_ttl_value: 3600, default_params: { auto: "format" } },
      });
      ids.handmade = handMade.id;
      const out = path.join(stack.workDir, "imported.ts");
      const { requests } = await counted(() => stack.ok(["import", "assetdelivery:index:Source", "handmade", handMade.id, "--yes", "--out", out]));
      expect(requests.PATCH ?? 0).toBe(0);
      expect(requests.POST ?? 0).toBe(0);
      const code = fs.readFileSync(out, "utf8");
      expect(code).toContain(IMPORTS[1]);
      expect(code).toContain('new assetdelivery.Source("handmade", {');
      expect(code).toContain('"ts-hand-made"');
      expect(code).toContain("protect: true");
      // Pasted as a user would: below the program, without the imports it already has.
      const body = code
        .split("\n")
        .filter((line) => !IMPORTS.includes(line.trim()))
        .join("\n");
      writeProgram(program({ cacheTtlValue: 7200, extra: body }));
      await promisify(execFile)(path.join(repoRoot(), "node_modules", ".bin", "tsc"), ["-p", stack.workDir]).catch((error: { stdout: string }) => {
        throw new Error(`the program with the imported code does not type-check:\n${error.stdout}\n${fs.readFileSync(out, "utf8")}`);
      });
      const { result, requests: previewRequests } = await counted(() => stack.pulumi(["preview", "--expect-no-changes", "--diff"]));
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(previewRequests.PATCH ?? 0).toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    "destroy retires every Source (the API cannot delete): disabled, none in plain text left behind in its output or the state files",
    async () => {
      await stack.ok(["state", "unprotect", `urn:pulumi:e2e::${PROJECT}::assetdelivery:index:Source::handmade`, "--yes"]);
      const destroyed = await stack.ok(["destroy", "--yes"]);
      expect(destroyed.stdout + destroyed.stderr).toContain("was retired, not deleted");
      expectNoSecret(destroyed.stdout + destroyed.stderr);
      // What the backend keeps after the destroy: the empty checkpoint, and every earlier one in its
      // backups and history: the only place left where an earlier step's plain secret would be.
      const files = stateFiles(path.join(stack.workDir, ".state"));
      expect(files.backups.length, "backups").toBeGreaterThan(0);
      expect(files.history.length, "history").toBeGreaterThan(0);
      expect(secretsInStateFiles(files, SECRETS), "secrets in plain text").toEqual([]);
      for (const id of [ids.photos, ids.assets, ids.handmade!]) expect((await client.sources.get(id)).attributes.enabled).toBe(false);
    },
    STEP_TIMEOUT,
  );
});
