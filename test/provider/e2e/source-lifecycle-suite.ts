// End to end through the real Pulumi CLI (Automation API, local backend) against a real local
// server: every step of a Source's life, with the requests the server received counted in each.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient, type Source } from "@asset-delivery/sdk";
import type { Profile } from "@asset-delivery/server";
import { startTestServer, type TestServer } from "../../support/server";
import { programStack, removeStacksAndServer, TEST_PROGRAMS, type ProgramStack } from "../../support/program-stack";
import { secretsInStateFiles, stateFiles } from "../../support/state-files";

const STEP_TIMEOUT = 180_000;

// Every value that must never appear in plain text in the state files (checkpoint, backups, history).
const SECRETS = {
  photosPassword: "origin-password-ONE",
  photosPasswordRotated: "origin-password-TWO",
  photosHandshake: "handshake-in-plain-text-32-chars",
  photosS3Secret: "photos-s3-secret-after-retype",
  assetsS3Secret: "assets-s3-secret-value",
};

const photos = {
  name: "Photos",
  deployment: { type: "webfolder", serviceSubdomains: ["e2e-photos"], webfolderBaseUrl: "https://origin.example.com/images/" },
};
const assets = {
  name: "Assets",
  deployment: {
    type: "s3",
    serviceSubdomains: ["e2e-assets"],
    s3AccessKey: "AKIAE2EEXAMPLE",
    s3Bucket: "e2e-assets-bucket",
    secureUrlEnabled: true,
  },
};

/** The whole life, against a server answering in `profile` (server/src/http/profile.ts). */
export function sourceLifecycleSuite(profile: Profile): void {
  let server: TestServer;
  let client: AssetDeliveryClient;
  let program: ProgramStack;
  let ids: Record<string, string> = {};

  /** The program's Sources, with the secrets each takes from the secret config. */
  async function declare(sources: Record<string, unknown>, secrets: { photos: Record<string, string>; assets: Record<string, string> }) {
    await program.set({
      sources,
      secretFields: { photos: Object.keys(secrets.photos).filter((f) => f !== "requestHandshake"), assets: Object.keys(secrets.assets) },
      // The handshake goes in unmarked, as a careless program would pass it.
      plainFields: { photos: Object.keys(secrets.photos).filter((f) => f === "requestHandshake") },
    });
    await program.setSecret({ secretValues: secrets });
  }

  const initialSecrets = () => ({
    photos: { password: SECRETS.photosPassword, requestHandshake: SECRETS.photosHandshake },
    assets: { s3SecretKey: SECRETS.assetsS3Secret },
  });

  async function serverSource(name: string): Promise<Source> {
    return client.sources.get(ids[name]!);
  }

  /**
   * The values in `declared` are in the stack's state (`stack export --show-secrets` decrypts them),
   * and no secret is in plain text in any file the backend keeps: the checkpoint, the backups taken
   * before each update and the history (which hold the values declared in earlier updates).
   */
  async function expectSecretsOnlyEncrypted(declared: string[], more: Record<string, string> = {}): Promise<void> {
    const shown = JSON.stringify(await program.stack.exportStack()); // with --show-secrets
    for (const value of declared) expect(shown, "a declared secret in the state").toContain(value);
    const files = stateFiles(path.join(program.workDir, ".state"));
    expect(files.backups.length, "backups").toBeGreaterThan(0);
    expect(files.history.length, "history").toBeGreaterThan(0);
    expect(secretsInStateFiles(files, { ...SECRETS, apiKey: server.adminKey, ...more }), "secrets in plain text").toEqual([]);
  }

  beforeAll(async () => {
    server = await startTestServer({ profile, deployDelayMs: 0, deployLagMs: 0 });
    client = createClient({ baseUrl: server.url, apiKey: server.adminKey });
    program = await programStack(path.join(TEST_PROGRAMS, "sources"), "e2e", { baseUrl: server.url, apiKey: server.adminKey });
    await declare({ photos, assets }, initialSecrets());
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await program?.stack.destroy().catch(() => undefined);
    await removeStacksAndServer({ stacks: [program], client, server });
  }, STEP_TIMEOUT);

  /** Runs one step and returns how many requests of each method the server answered during it. */
  async function counted<T>(step: () => Promise<T>): Promise<{ result: T; requests: Record<string, number> }> {
    server.resetRequestCount();
    const result = await step();
    const requests: Record<string, number> = Object.fromEntries(
      ["GET", "POST", "PATCH"].map((m) => [m, server.requestCount(m)] as const).filter(([, n]) => n !== 0),
    );
    expect(server.requestCount()).toBe(Object.values(requests).reduce((a, b) => a + b, 0));
    return { result, requests };
  }

  describe(`a Source's life through pulumi (${profile} profile)`, () => {
    it(
      "up creates the declared Sources",
      async () => {
        const { result, requests } = await counted(() => program.stack.up());
        expect(result.summary.resourceChanges).toEqual({ create: 3 });
        // Deployed at once by this server: no polling. One GET: check's listing of the account, for
        // who holds the declared host names (docs/provider.md, "Moving domains between Sources").
        expect(requests).toEqual({ POST: 2, GET: 1 });
        ids = result.outputs.ids!.value;
        expect((await serverSource("photos")).attributes).toMatchObject({
          name: "Photos",
          enabled: true,
          deployment_status: "deployed",
          deployment: { type: "webfolder", password_set: true, request_handshake_set: true },
        });
        expect((await serverSource("assets")).attributes.secure_url_token).toMatch(/\S/);
      },
      STEP_TIMEOUT,
    );

    it(
      "preview of the unchanged stack shows no change and sends no request",
      async () => {
        const { result, requests } = await counted(() => program.stack.preview({ expectNoChanges: true }));
        expect(result.changeSummary).toEqual({ same: 3 });
        expect(requests).toEqual({});
      },
      STEP_TIMEOUT,
    );

    it(
      "an edit is one PATCH",
      async () => {
        await declare({ photos: { ...photos, deployment: { ...photos.deployment, cacheTtlError: 600 } }, assets }, initialSecrets());
        const { result, requests } = await counted(() => program.stack.up());
        expect(result.summary.resourceChanges).toEqual({ update: 1, same: 2 });
        expect(requests).toEqual({ PATCH: 1 });
        expect((await serverSource("photos")).attributes.deployment.cache_ttl_error).toBe(600);
      },
      STEP_TIMEOUT,
    );

    it(
      "refresh shows changes made behind Pulumi's back, and up restores the declared state",
      async () => {
        await client.sources.update(ids.assets!, { name: "Renamed by hand" });
        const current = (await serverSource("photos")).attributes.deployment;
        await client.sources.update(ids.photos!, { deployment: { ...current, secure_url_enabled: true } });
        const refreshed: Record<string, unknown>[] = [];
        const refresh = await counted(() =>
          program.stack.refresh({
            onEvent: (event) => void (event.resOutputsEvent && refreshed.push(event.resOutputsEvent.metadata.new?.outputs ?? {})),
          }),
        );
        expect(refresh.requests).toEqual({ GET: 1 }); // one list page answers both reads
        expect(refresh.result.summary.resourceChanges).toMatchObject({ update: 2 });
        expect(refreshed.map((outputs) => outputs.name)).toContain("Renamed by hand");
        // A signing token that appeared behind Pulumi's back is recorded as a secret too.
        const token = (await serverSource("photos")).attributes.secure_url_token!;
        expect(program.stateFile()).not.toContain(token);

        const preview = await counted(() => program.stack.preview({ diff: true }));
        expect(preview.requests).toEqual({});
        expect(preview.result.changeSummary).toEqual({ update: 2, same: 1 });
        expect(preview.result.stdout).toMatch(/name\s*:\s*"Renamed by hand" => "Assets"/);
        expect(preview.result.stdout).toMatch(/secureUrlEnabled\s*:\s*true => false/);

        const up = await counted(() => program.stack.up());
        expect(up.result.summary.resourceChanges).toEqual({ update: 2, same: 1 });
        expect(up.requests).toEqual({ PATCH: 2 });
        expect((await serverSource("assets")).attributes.name).toBe("Assets");
        expect((await serverSource("photos")).attributes).not.toHaveProperty("secure_url_token");
      },
      STEP_TIMEOUT,
    );

    it(
      "a rotated secret is an update",
      async () => {
        await declare(
          { photos: { ...photos, deployment: { ...photos.deployment, cacheTtlError: 600 } }, assets },
          { ...initialSecrets(), photos: { password: SECRETS.photosPasswordRotated, requestHandshake: SECRETS.photosHandshake } },
        );
        const { result, requests } = await counted(() => program.stack.up());
        expect(result.summary.resourceChanges).toEqual({ update: 1, same: 2 });
        expect(requests).toEqual({ PATCH: 1 });
      },
      STEP_TIMEOUT,
    );

    it(
      "a declared secret cleared behind Pulumi's back is sent again by the up after a refresh",
      async () => {
        const current = (await serverSource("photos")).attributes.deployment;
        await client.sources.update(ids.photos!, { deployment: { ...current, password: null } as never });
        const refresh = await counted(() => program.stack.refresh());
        expect(refresh.result.summary.resourceChanges).toMatchObject({ update: 1 });
        // The password cannot be read back; its flag is the trace the refresh records.
        const preview = await counted(() => program.stack.preview());
        expect(preview.requests).toEqual({});
        expect(preview.result.changeSummary).toEqual({ update: 1, same: 2 });
        const up = await counted(() => program.stack.up());
        expect(up.requests).toEqual({ PATCH: 1 });
        expect((await serverSource("photos")).attributes.deployment).toMatchObject({ password_set: true });
        expect((await counted(() => program.stack.preview({ expectNoChanges: true }))).requests).toEqual({});
      },
      STEP_TIMEOUT,
    );

    it(
      "keeps the secrets out of the state files while the webfolder's password and handshake are declared, the rotated-away password too",
      async () => {
        await expectSecretsOnlyEncrypted([SECRETS.photosPasswordRotated, SECRETS.photosHandshake, SECRETS.assetsS3Secret]);
      },
      STEP_TIMEOUT,
    );

    it(
      "a deployment type change updates the Source in place",
      async () => {
        const photosS3 = {
          name: "Photos",
          deployment: { type: "s3", serviceSubdomains: ["e2e-photos"], s3AccessKey: "AKIAPHOTOS", s3Bucket: "e2e-photos-bucket" },
        };
        await declare(
          { photos: photosS3, assets },
          { photos: { s3SecretKey: SECRETS.photosS3Secret }, assets: { s3SecretKey: SECRETS.assetsS3Secret } },
        );
        const { result, requests } = await counted(() => program.stack.up());
        expect(result.summary.resourceChanges).toEqual({ update: 1, same: 2 });
        expect(requests).toEqual({ PATCH: 1 });
        expect(result.outputs.ids!.value).toEqual(ids);
        expect((await serverSource("photos")).attributes.deployment).toMatchObject({
          type: "s3",
          s3_bucket: "e2e-photos-bucket",
          allows_upload: false,
        });
      },
      STEP_TIMEOUT,
    );

    it(
      "an invalid Source fails at preview, naming the property and the rule, before any request",
      async () => {
        const photosS3 = {
          name: "Photos",
          deployment: { type: "s3", serviceSubdomains: ["e2e-photos"], s3AccessKey: "AKIAPHOTOS", s3Bucket: "e2e-photos-bucket" },
        };
        await program.set({ sources: { photos: photosS3, assets: { ...assets, deployment: { ...assets.deployment, cacheTtlError: 0 } } } });
        const { result, requests } = await counted(() =>
          program.stack.preview().then(
            () => undefined,
            (error: Error) => error,
          ),
        );
        expect(requests).toEqual({});
        expect(String(result)).toContain("resource 'assets' has a problem: deployment.cacheTtlError: must be from 1 to 31536000 seconds");
        await program.set({ sources: { photos: photosS3, assets } });
      },
      STEP_TIMEOUT,
    );

    it(
      "adopts an existing Source by id and brings it to the declared state",
      async () => {
        const legacy = await client.sources.create({
          name: "Made by hand",
          deployment: { type: "webproxy", service_subdomains: ["e2e-legacy"] },
        });
        const photosS3 = {
          name: "Photos",
          deployment: { type: "s3", serviceSubdomains: ["e2e-photos"], s3AccessKey: "AKIAPHOTOS", s3Bucket: "e2e-photos-bucket" },
        };
        const adopted = {
          name: "Legacy proxy",
          adoptSourceId: legacy.id,
          deployment: { type: "webproxy", serviceSubdomains: ["e2e-legacy"], robotsTxt: "disallow-all" },
        };
        await program.set({ sources: { photos: photosS3, assets, legacy: adopted } });
        const { result, requests } = await counted(() => program.stack.up());
        expect(result.summary.resourceChanges).toEqual({ create: 1, same: 3 });
        expect(requests).toEqual({ GET: 1, PATCH: 1 });
        ids = result.outputs.ids!.value;
        expect(ids.legacy).toBe(legacy.id);
        expect((await serverSource("legacy")).attributes).toMatchObject({
          name: "Legacy proxy",
          deployment: { "robots.txt": "disallow-all" },
        });
      },
      STEP_TIMEOUT,
    );

    it(
      "a Source declared disabled together with a rename is renamed, then disabled; enabled again, it is enabled first",
      async () => {
        const photosS3 = {
          name: "Photos",
          deployment: { type: "s3", serviceSubdomains: ["e2e-photos"], s3AccessKey: "AKIAPHOTOS", s3Bucket: "e2e-photos-bucket" },
        };
        const legacy = {
          name: "Legacy proxy",
          adoptSourceId: ids.legacy,
          deployment: { type: "webproxy", serviceSubdomains: ["e2e-legacy"], robotsTxt: "disallow-all" },
        };
        await program.set({ sources: { photos: photosS3, assets, legacy: { ...legacy, name: "Legacy, switched off", enabled: false } } });
        const off = await counted(() => program.stack.up());
        expect(off.result.summary.resourceChanges).toEqual({ update: 1, same: 3 });
        expect(off.requests).toEqual({ PATCH: 2 });
        expect((await serverSource("legacy")).attributes).toMatchObject({
          name: "Legacy, switched off",
          enabled: false,
          deployment_status: "disabled",
        });
        expect((await counted(() => program.stack.preview({ expectNoChanges: true }))).requests).toEqual({});

        await program.set({ sources: { photos: photosS3, assets, legacy } });
        const on = await counted(() => program.stack.up());
        expect(on.result.summary.resourceChanges).toEqual({ update: 1, same: 3 });
        expect(on.requests).toEqual({ PATCH: 2 });
        expect((await serverSource("legacy")).attributes).toMatchObject({
          name: "Legacy proxy",
          enabled: true,
          deployment_status: "deployed",
        });
      },
      STEP_TIMEOUT,
    );

    it(
      "keeps every secret out of the state files (checkpoint, backups, history), and serializes the provider as a require",
      async () => {
        // Declared now: the S3 secrets; in the backups and history: the webfolder's, from before the type change.
        const token = (await serverSource("assets")).attributes.secure_url_token!;
        await expectSecretsOnlyEncrypted([SECRETS.photosS3Secret, SECRETS.assetsS3Secret], { secureUrlToken: token });
        const { checkpoint } = JSON.parse(program.stateFile()) as {
          checkpoint: { latest: { resources: { type: string; inputs?: { __provider?: string } }[] } };
        };
        const sources = checkpoint.latest.resources.filter((r) => r.type === "pulumi-nodejs:dynamic/assetdelivery:Source");
        expect(sources).toHaveLength(3);
        for (const { inputs } of sources) {
          const code = inputs!.__provider!;
          expect(code.length).toBeLessThan(4000);
          expect(code.match(/require\("[^"]+"\)/g)?.every((call) => call === 'require("@asset-delivery/provider/runtime")')).toBe(true);
          expect(code).not.toMatch(/createClient|undici|zod|apiKey/);
        }
      },
      STEP_TIMEOUT,
    );

    it(
      "destroy retires the Sources and warns that their subdomains stay reserved",
      async () => {
        const { result, requests } = await counted(() => program.stack.destroy());
        expect(result.summary.resourceChanges).toEqual({ delete: 4 });
        expect(requests).toEqual({ PATCH: 3 });
        for (const [name, subdomain] of [
          ["Photos", "e2e-photos"],
          ["Assets", "e2e-assets"],
          ["Legacy proxy", "e2e-legacy"],
        ])
          expect(result.stdout).toMatch(
            new RegExp(`warning: Source \\w{24} \\("${name}"\\) was retired, not deleted.*"${subdomain}" stay reserved`),
          );
        for (const name of ["photos", "assets", "legacy"])
          expect((await serverSource(name)).attributes).toMatchObject({ enabled: false, deployment_status: "disabled" });
      },
      STEP_TIMEOUT,
    );

    it(
      "up again adopts the retired Sources instead of failing on their subdomains",
      async () => {
        const { result, requests } = await counted(() => program.stack.up());
        expect(result.summary.resourceChanges).toEqual({ create: 4 });
        // One listing of the account for the run, where photos and assets find their names held by
        // the Source each created and retired: each taken over with no POST (a refused POST is still
        // a request to the create endpoint, limited to 60 an hour), enabled alone (the real service
        // changes no disabled Source), then given the deployment with its secrets; legacy
        // (adoptSourceId, read from that listing): enabled.
        expect(requests).toEqual({ GET: 1, PATCH: 5 });
        expect(result.outputs.ids!.value).toEqual(ids);
        for (const name of ["photos", "assets", "legacy"])
          expect((await serverSource(name)).attributes).toMatchObject({ enabled: true, deployment_status: "deployed" });
      },
      STEP_TIMEOUT,
    );
  });
}
