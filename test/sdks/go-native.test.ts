// A Go program on the native plugin and the generated Go SDK (sdks/go), built and run by the real
// Pulumi CLI through this repo's Go language host against a real server: the "Done when"
// list for Go, with the requests the server answered counted. The program is built by the host
// once per version of its code and run prebuilt in between (test/sdks/go-project.ts); what changes
// from step to step comes from the stack's config.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { countedSourceRequests, startTestServer, type TestServer } from "../support/server";
import { expectCreatedWithSecretsHidden, expectNoChangeThenOnePatch, expectRefreshUndoesDrift } from "../plugin/source-lifecycle-suite";
import { exportedSource } from "../plugin/yaml-stack";
import { goStack, prepareGoSdk, type GoStack } from "./go-project";

const STEP_TIMEOUT = 300_000;
const PROJECT = "go-native-e2e";

// Values that must never appear in plain text in the state or the CLI's output.
const SECRETS = {
  password: "go-origin-password-plain-text",
  handshake: "go-handshake-in-plain-text-32ch!", // passed unmarked, as a careless program would
  s3Secret: "go-s3-secret-value-plain-text",
};

const PROGRAM = `package main

import (
	"errors"

	"github.com/asset-delivery/asset-delivery-as-code/sdks/go/assetdelivery"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// Resources declared in other files of the program (the code \`pulumi import\` printed).
var extra []func(ctx *pulumi.Context) error

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		if cfg.GetBool("fail") {
			return errors.New("the program's own failure")
		}
		photos, err := assetdelivery.NewSource(ctx, "photos", &assetdelivery.SourceArgs{
			Name: pulumi.String("Photos"),
			Deployment: assetdelivery.WebfolderDeploymentArgs{
				Type:              pulumi.String("webfolder"),
				ServiceSubdomains: pulumi.StringArray{pulumi.String("go-photos")},
				WebfolderBaseUrl:  pulumi.String("https://origin.example.com/images/"),
				Password:          cfg.RequireSecret("originPassword"),
				RequestHandshake:  pulumi.String("${SECRETS.handshake}"),
				CacheTtlValue:     pulumi.Int(cfg.RequireInt("cacheTtl")),
			},
		})
		if err != nil {
			return err
		}
		assets, err := assetdelivery.NewSource(ctx, "assets", &assetdelivery.SourceArgs{
			Name: pulumi.String("Assets"),
			Deployment: assetdelivery.S3DeploymentArgs{
				Type:              pulumi.String("s3"),
				ServiceSubdomains: pulumi.StringArray{pulumi.String("go-assets")},
				S3AccessKey:       pulumi.String("AKIAGOEXAMPLE"),
				S3Bucket:          pulumi.String("go-assets-bucket"),
				S3SecretKey:       cfg.RequireSecret("s3SecretKey"),
				SecureUrlEnabled:  pulumi.Bool(true),
			},
		})
		if err != nil {
			return err
		}
		live := assetdelivery.LookupSourceOutput(ctx, assetdelivery.LookupSourceOutputArgs{Id: photos.ID().ToStringOutput()})

		ctx.Export("photosId", photos.ID())
		ctx.Export("assetsId", assets.ID())
		ctx.Export("token", assets.SecureUrlToken)
		ctx.Export("liveName", live.Name())
		ctx.Export("livePasswordSet", live.PasswordSet())
		for _, declare := range extra {
			if err := declare(ctx); err != nil {
				return err
			}
		}
		return nil
	})
}
`;

let server: TestServer;
let client: AssetDeliveryClient;
let stack: GoStack;
let ids: { photos: string; assets: string };

beforeAll(async () => {
  prepareGoSdk();
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  stack = await goStack(PROJECT, "e2e", PROGRAM, { baseUrl: server.url, apiKey: server.adminKey });
  await stack.ok(["config", "set", "cacheTtl", "86400"]);
  await stack.ok(["config", "set", "--secret", "originPassword", SECRETS.password]);
  await stack.ok(["config", "set", "--secret", "s3SecretKey", SECRETS.s3Secret]);
}, 900_000);

afterAll(async () => {
  await stack?.remove();
  await client?.close();
  await server?.close();
}, STEP_TIMEOUT);

const counted = <T>(step: () => Promise<T>) => countedSourceRequests(server, step);

describe("a Go program on the generated SDK (sdks/go/assetdelivery)", () => {
  it(
    "reports a program that does not compile as Pulumi's Go host does: the compiler's message, then the host's",
    async () => {
      stack.writeFile("broken.go", 'package main\n\nfunc broken() int { return "not an int" }\n');
      const { result, requests } = await counted(() => stack.pulumi(["preview"]));
      fs.rmSync(path.join(stack.workDir, "broken.go"));
      expect(result.code).not.toBe(0);
      const output = result.stdout + result.stderr;
      expect(output).toMatch(/broken\.go:3:\d+: cannot use "not an int"/);
      expect(output).toContain("error in compiling Go: unable to run `go build`: exit status 1");
      expect(requests).toEqual({});
    },
    STEP_TIMEOUT,
  );

  it(
    "creates two Sources (built by the host), the write-only fields secret in the state (none in plain text), and reads one back with getSource",
    async () => {
      await expectCreatedWithSecretsHidden({ stack, server }, Object.values(SECRETS));
      expect(fs.existsSync(path.join(stack.workDir, "bin", "program"))).toBe(true);
      stack.build("prebuilt");
      expect(exportedSource(await stack.exportState(), "Assets").inputs.deployment.s3SecretKey.ciphertext).toEqual(expect.any(String));

      const outputs = await stack.outputs();
      ids = { photos: outputs.photosId as string, assets: outputs.assetsId as string };
      const live = await client.sources.get(ids.photos);
      expect(live.attributes.deployment).toMatchObject({ password_set: true, request_handshake_set: true, cache_ttl_value: 86400 });
      expect(outputs).toMatchObject({ liveName: "Photos", livePasswordSet: true, token: expect.any(String) });
      expect((await client.sources.get(ids.assets)).attributes.deployment).toMatchObject({ type: "s3", s3_bucket: "go-assets-bucket" });
    },
    STEP_TIMEOUT,
  );

  it(
    "reports the program's own error once, through the engine (exit code 32: no extra exit-code message)",
    async () => {
      await stack.ok(["config", "set", "fail", "true"]);
      const { result, requests } = await counted(() => stack.pulumi(["preview"]));
      await stack.ok(["config", "rm", "fail"]);
      expect(result.code).not.toBe(0);
      const output = result.stdout + result.stderr;
      // One diagnostic, the program's (the progress row above it repeats its first line, as for any
      // error): a host that also reported the failure itself, in any words, would add a second error.
      expect(output).toContain("\nDiagnostics:");
      const diagnostics = output.slice(output.indexOf("\nDiagnostics:"));
      expect(diagnostics.match(/^\s*error: /gm), output).toHaveLength(1);
      expect(diagnostics.split("the program's own failure").length - 1, output).toBe(1);
      expect(output).not.toContain("non-zero exit code");
      expect(requests.POST ?? 0).toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    "previews no change, then updates one field with one PATCH",
    async () => {
      await expectNoChangeThenOnePatch({ stack, client, server }, ids.photos, () => stack.ok(["config", "set", "cacheTtl", "7200"]));
    },
    STEP_TIMEOUT,
  );

  it(
    "refresh records a change made on the server; up puts the declared value back",
    async () => {
      await expectRefreshUndoesDrift({ stack, client, server }, ids.photos, "Photos");
    },
    STEP_TIMEOUT,
  );

  it(
    "`pulumi import` prints Go for a hand-made Source; with that code added, preview --expect-no-changes passes",
    async () => {
      const handMade = await client.sources.create({
        name: "Hand made",
        deployment: { type: "webproxy", service_subdomains: ["go-hand-made"], cache_ttl_value: 3600, default_params: { auto: "format" } },
      });
      const out = path.join(stack.workDir, "imported.go.txt");
      const { requests } = await counted(() =>
        stack.ok(["import", "assetdelivery:index:Source", "handmade", handMade.id, "--yes", "--out", out]),
      );
      expect(requests.PATCH ?? 0).toBe(0);
      const code = fs.readFileSync(out, "utf8");
      expect(code).toContain('"github.com/asset-delivery/asset-delivery-as-code/sdks/go/assetdelivery"');
      expect(code).toMatch(/assetdelivery\.NewSource\(ctx, "handmade", &assetdelivery\.SourceArgs\{/);
      expect(code).toContain('"go-hand-made"');
      expect(code).toContain("pulumi.Protect(true)");
      // As a user adds it: the printed program's body, in a file of its own beside main.go, run by main.
      const added = code.replace(/^func main\(\) \{\n(\s*)pulumi\.Run\(/m, "func init() {\n$1extra = append(extra, ");
      expect(added).not.toBe(code);
      stack.writeFile("imported.go", added);
      stack.build("host");
      const { result } = await counted(() => stack.pulumi(["preview", "--expect-no-changes", "--diff"]));
      expect(result.code, result.stdout + result.stderr).toBe(0);
      stack.build("prebuilt");
      await stack.ok(["state", "unprotect", `urn:pulumi:e2e::${PROJECT}::assetdelivery:index:Source::handmade`, "--yes"]);
    },
    STEP_TIMEOUT,
  );

  it(
    "destroy retires the Sources (disabled, not deleted)",
    async () => {
      const destroyed = await stack.ok(["destroy", "--yes"]);
      expect(destroyed.stdout + destroyed.stderr).toContain("was retired, not deleted");
      for (const id of [ids.photos, ids.assets]) expect((await client.sources.get(id)).attributes.enabled).toBe(false);
    },
    STEP_TIMEOUT,
  );
});
