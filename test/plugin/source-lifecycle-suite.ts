// The native plugin end to end: a Pulumi YAML program run by the real CLI against a real server,
// every step of a Source's life with the requests the server answered counted.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import type { Profile } from "@asset-delivery/server";
import { countedSourceRequests, startTestServer, type TestServer } from "../support/server";
import { exportedSource, yamlStack, type YamlProgram, type YamlStack } from "./yaml-stack";

const STEP_TIMEOUT = 300_000;

// Values that must never appear in plain text in the state, the CLI's output or its logs.
const SECRETS = {
  password: "origin-password-ONE-plain",
  handshake: "handshake-in-plain-text-32-chars", // passed unmarked, as a careless program would
  s3Secret: "assets-s3-secret-value-plain",
};

interface Declared {
  cacheTtlValue?: number;
  customDomains?: string[];
  photosName?: string;
  /** Assets registered only once photos is (`dependsOn`): a preview that photos fails never shows assets. */
  assetsAfterPhotos?: boolean;
}

function program({
  cacheTtlValue = 86400,
  customDomains = ["a.plugin.example", "b.plugin.example"],
  photosName = "Photos",
  assetsAfterPhotos = false,
}: Declared = {}): YamlProgram {
  return {
    config: {
      originPassword: { type: "string", secret: true },
      s3SecretKey: { type: "string", secret: true },
    },
    resources: {
      photos: {
        type: "assetdelivery:index:Source",
        properties: {
          name: photosName,
          deployment: {
            type: "webfolder",
            serviceSubdomains: ["plugin-photos"],
            webfolderBaseUrl: "https://origin.example.com/images/",
            password: "${originPassword}",
            requestHandshake: SECRETS.handshake,
            cacheTtlValue,
            customDomains,
          },
        },
      },
      assets: {
        type: "assetdelivery:index:Source",
        properties: {
          name: "Assets",
          deployment: {
            type: "s3",
            serviceSubdomains: ["plugin-assets"],
            s3AccessKey: "AKIAPLUGINEXAMPLE",
            s3Bucket: "plugin-assets-bucket",
            s3SecretKey: "${s3SecretKey}",
            secureUrlEnabled: true,
          },
        },
        ...(assetsAfterPhotos && { options: { dependsOn: ["${photos}"] } }),
      },
    },
    outputs: { photosId: "${photos.id}", assetsId: "${assets.id}", token: "${assets.secureUrlToken}" },
  };
}

function expectNoSecret(text: string): void {
  for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
}

/**
 * The first `up` of a stack declaring two Sources, the webfolder one named "Photos" with a password
 * and a request handshake, in any language: two POSTs; both write-only fields ciphertext in the
 * state's inputs and outputs; none of `secrets` in plain text in the output or `stack export`.
 * Returns the Photos Source as stored.
 */
export async function expectCreatedWithSecretsHidden(
  { stack, server }: { stack: Pick<YamlStack, "ok" | "exportState">; server: TestServer },
  secrets: readonly string[],
): Promise<{ inputs: any; outputs: any }> {
  const expectHidden = (text: string) => {
    for (const secret of secrets) expect(text).not.toContain(secret);
  };
  const { result, requests } = await countedSourceRequests(server, () => stack.ok(["up", "--yes"]));
  expect(requests.POST).toBe(2);
  expectHidden(result.stdout + result.stderr);
  const exported = await stack.exportState();
  expectHidden(exported);
  const photos = exportedSource(exported, "Photos");
  for (const part of [photos.inputs, photos.outputs]) {
    expect(part.deployment.password.ciphertext).toEqual(expect.any(String));
    expect(part.deployment.requestHandshake.ciphertext).toEqual(expect.any(String));
  }
  return photos;
}

/**
 * Drift on a native Source and back, in any language's stack: renamed on the server, `refresh`
 * records the server's name, and `up` puts the declared one back with one PATCH.
 */
export async function expectRefreshUndoesDrift(
  { stack, client, server }: { stack: Pick<YamlStack, "ok">; client: AssetDeliveryClient; server: TestServer },
  id: string,
  declaredName: string,
): Promise<void> {
  await client.sources.update(id, { name: "Renamed by hand" });
  const refreshed = await stack.ok(["refresh", "--yes", "--diff"]);
  expect(refreshed.stdout).toContain("Renamed by hand");
  const { requests } = await countedSourceRequests(server, () => stack.ok(["up", "--yes"]));
  expect(requests.PATCH).toBe(1);
  expect((await client.sources.get(id)).attributes.name).toBe(declaredName);
}

/**
 * In any language's stack: `preview --expect-no-changes` passes and writes nothing; then, after
 * `declareTtl7200` declares the Source's `cacheTtlValue` as 7200, `up` sends exactly one PATCH.
 */
export async function expectNoChangeThenOnePatch(
  { stack, client, server }: { stack: Pick<YamlStack, "ok" | "pulumi">; client: AssetDeliveryClient; server: TestServer },
  id: string,
  declareTtl7200: () => void | Promise<unknown>,
): Promise<void> {
  const preview = await countedSourceRequests(server, () => stack.pulumi(["preview", "--expect-no-changes"]));
  expect(preview.result.code, preview.result.stdout + preview.result.stderr).toBe(0);
  expect(preview.requests.POST ?? 0).toBe(0);
  expect(preview.requests.PATCH ?? 0).toBe(0);
  await declareTtl7200();
  const { requests } = await countedSourceRequests(server, () => stack.ok(["up", "--yes"]));
  expect(requests.PATCH).toBe(1);
  expect(requests.POST ?? 0).toBe(0);
  expect((await client.sources.get(id)).attributes.deployment).toMatchObject({ cache_ttl_value: 7200 });
}

export function pluginLifecycleSuite(profile: Profile): void {
  let server: TestServer;
  let client: AssetDeliveryClient;
  let stack: YamlStack;
  let ids: { photos: string; assets: string };

  beforeAll(async () => {
    server = await startTestServer({ profile, deployDelayMs: 0, deployLagMs: 0 });
    client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
    stack = await yamlStack(`plugin-${profile}`, "e2e", program(), { credentials: { baseUrl: server.url, apiKey: server.adminKey } });
    await stack.ok(["config", "set", "--secret", "originPassword", SECRETS.password]);
    await stack.ok(["config", "set", "--secret", "s3SecretKey", SECRETS.s3Secret]);
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await stack?.remove();
    await client?.close();
    await server?.close();
  }, STEP_TIMEOUT);

  const counted = <T>(step: () => Promise<T>) => countedSourceRequests(server, step);

  describe(`native plugin, YAML program, ${profile} server`, () => {
    it(
      "refuses a bad Source at preview with the property path and the rule, sending no request",
      async () => {
        // Only the bad Source is shown: a valid new one's check would read who holds its names (one
        // listing GET, as the next tests count), and the engine checks the two in no fixed order.
        stack.write(program({ cacheTtlValue: 10, assetsAfterPhotos: true }));
        const { result, requests } = await counted(() => stack.pulumi(["preview"]));
        expect(result.code).not.toBe(0);
        expect(result.stdout + result.stderr).toContain("deployment.cacheTtlValue: must be from 1800 to 31536000 seconds");
        expect(requests).toEqual({});
        stack.write(program());
      },
      STEP_TIMEOUT,
    );

    it(
      "creates Sources whose write-only fields are secret where they live: none in plain text in stack export or the output",
      async () => {
        const photos = await expectCreatedWithSecretsHidden({ stack, server }, Object.values(SECRETS));
        for (const part of [photos.inputs, photos.outputs])
          expect(part.deployment.webfolderBaseUrl).toBe("https://origin.example.com/images/");
        const outputs = await stack.outputs();
        ids = { photos: outputs.photosId as string, assets: outputs.assetsId as string };
        const live = await client.sources.get(ids.photos);
        expect(live.attributes.deployment).toMatchObject({ password_set: true, request_handshake_set: true, cache_ttl_value: 86400 });
        expect(outputs.token).toEqual(expect.any(String));
      },
      STEP_TIMEOUT,
    );

    it(
      "`preview --diff` names only the changed nested fields, its one request check's listing of who holds the added domain; the update sends one PATCH",
      async () => {
        stack.write(program({ cacheTtlValue: 7200, customDomains: ["a.plugin.example", "c.plugin.example"] }));
        const { result: preview, requests: previewRequests } = await counted(() => stack.ok(["preview", "--diff"]));
        // c.plugin.example is new to photos: its check lists the account once (docs/provider.md,
        // "Moving domains between Sources"); nothing else is read, nothing written.
        expect(previewRequests).toEqual({ GET: 1 });
        expect(server.requestCount("GET", "/api/v1/sources")).toBe(1);
        expect(preview.stdout).toMatch(/~ cacheTtlValue\s*: 86400 => 7200/);
        expect(preview.stdout).toMatch(/~ \[1\]: "b\.plugin\.example" => "c\.plugin\.example"/);
        for (const untouched of ["webfolderBaseUrl", "serviceSubdomains", "password", "robotsTxt", "s3Bucket"]) {
          expect(preview.stdout).not.toContain(untouched);
        }
        const { requests } = await counted(() => stack.ok(["up", "--yes"]));
        expect(requests.PATCH).toBe(1);
        expect(requests.POST ?? 0).toBe(0);
        const live = await client.sources.get(ids.photos);
        expect(live.attributes.deployment).toMatchObject({
          cache_ttl_value: 7200,
          custom_domains: ["a.plugin.example", "c.plugin.example"],
        });
        expect((await stack.pulumi(["preview", "--expect-no-changes"])).code).toBe(0);
      },
      STEP_TIMEOUT,
    );

    it(
      "undoes drift: refresh records the server's change, up puts the declared value back",
      async () => {
        await expectRefreshUndoesDrift({ stack, client, server }, ids.photos, "Photos");
      },
      STEP_TIMEOUT,
    );

    it(
      "destroy retires the Sources; up again adopts them, making none",
      async () => {
        const destroyed = await stack.ok(["destroy", "--yes"]);
        expect(destroyed.stdout + destroyed.stderr).toContain("was retired, not deleted");
        expect((await client.sources.get(ids.photos)).attributes.enabled).toBe(false);
        const before = (await client.sources.all({}, { max: 1000 })).length;
        await stack.ok(["up", "--yes"]);
        expect((await client.sources.all({}, { max: 1000 })).length).toBe(before);
        const outputs = await stack.outputs();
        expect(outputs.photosId).toBe(ids.photos);
        expect((await client.sources.get(ids.photos)).attributes.enabled).toBe(true);
        expectNoSecret(await stack.exportState());
      },
      STEP_TIMEOUT,
    );

    it(
      "`pulumi import` brings a hand-made Source in; with the code it prints added, preview --expect-no-changes passes",
      async () => {
        const handMade = await client.sources.create({
          name: "Hand made",
          deployment: {
            type: "webproxy",
            service_subdomains: ["plugin-hand-made"],
            cache_ttl_value: 3600,
            default_params: { auto: "format" },
          },
        });
        const missing = await stack.pulumi(["import", "assetdelivery:index:Source", "ghost", "aaaaaaaaaaaaaaaaaaaaaaaa", "--yes"]);
        expect(missing.code).not.toBe(0);
        expect(missing.stdout + missing.stderr).toContain('Source "aaaaaaaaaaaaaaaaaaaaaaaa" does not exist');

        const out = path.join(stack.workDir, "imported.json");
        const { requests } = await counted(() =>
          stack.ok(["import", "assetdelivery:index:Source", "handmade", handMade.id, "--yes", "--out", out]),
        );
        expect(requests.PATCH ?? 0).toBe(0);
        const code = fs.readFileSync(out, "utf8");
        expect(code).toMatch(/^resources:\n {2}handmade:\n {4}type: assetdelivery:Source\n/m);
        expect(code).toContain("plugin-hand-made");
        expect(code).toMatch(/protect: true/);
        const imported = JSON.parse((await stack.ok(["stack", "export"])).stdout) as {
          deployment: { resources: { urn: string; inputs: any }[] };
        };
        expect(imported.deployment.resources.find((r) => r.urn.endsWith("::handmade"))!.inputs).toEqual({
          name: "Hand made",
          deployment: { type: "webproxy", serviceSubdomains: ["plugin-hand-made"], cacheTtlValue: 3600, defaultParams: { auto: "format" } },
        });
        // The printed code itself, pasted below the program's resources as a user adds it.
        stack.write(program({ cacheTtlValue: 7200, customDomains: ["a.plugin.example", "c.plugin.example"] }), code);
        const { result } = await counted(() => stack.pulumi(["preview", "--expect-no-changes", "--diff"]));
        expect(result.code, result.stdout + result.stderr).toBe(0);
        await stack.ok(["state", "unprotect", `urn:pulumi:e2e::plugin-${profile}::assetdelivery:index:Source::handmade`, "--yes"]);
      },
      STEP_TIMEOUT,
    );
  });
}
