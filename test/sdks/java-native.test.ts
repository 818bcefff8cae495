// A Java program on the native plugin and the generated Java SDK as released (the Maven repository
// layout tools/build-java-sdk.sh writes for the release), packed by Maven once and run by the real
// Pulumi CLI through Pulumi's own Java language host against a real server: the "Done when"
// list for Java, with the requests the server answered counted. The program lives outside the repo
// (test/sdks/java-project.ts); what changes from step to step comes from the stack's config.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { countedSourceRequests, startTestServer, type TestServer } from "../support/server";
import { expectCreatedWithSecretsHidden, expectNoChangeThenOnePatch, expectRefreshUndoesDrift } from "../plugin/source-lifecycle-suite";
import { exportedSource } from "../plugin/yaml-stack";
import { repoRoot } from "../support/pulumi";
import { javaStack, mavenCompile, releaseJavaSdk, writeJavaProgram, type JavaStack } from "./java-project";

const STEP_TIMEOUT = 300_000;
const PROJECT = "java-native-e2e";

// Values that must never appear in plain text in the state or the CLI's output.
const SECRETS = {
  password: "java-origin-password-plain-text",
  handshake: "java-handshake-in-plain-text-32c", // passed unmarked, as a careless program would
  s3Secret: "java-s3-secret-value-plain-text",
};

/** The program; `more`: statements run after its own (the call of the code `pulumi import` printed). */
const program = (more = "") => `package myproject;

import com.github.assetdelivery.assetdelivery.AssetdeliveryFunctions;
import com.github.assetdelivery.assetdelivery.Source;
import com.github.assetdelivery.assetdelivery.SourceArgs;
import com.github.assetdelivery.assetdelivery.inputs.GetSourceArgs;
import com.github.assetdelivery.assetdelivery.inputs.S3DeploymentArgs;
import com.github.assetdelivery.assetdelivery.inputs.WebfolderDeploymentArgs;
import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var cfg = ctx.config();
            var photos = new Source("photos", SourceArgs.builder()
                .name("Photos")
                .deployment(WebfolderDeploymentArgs.builder()
                    .type("webfolder")
                    .serviceSubdomains("java-photos")
                    .webfolderBaseUrl("https://origin.example.com/images/")
                    .password(cfg.requireSecret("originPassword"))
                    .requestHandshake("${SECRETS.handshake}")
                    .cacheTtlValue(cfg.requireInteger("cacheTtl"))
                    .build())
                .build());
            var assets = new Source("assets", SourceArgs.builder()
                .name("Assets")
                .deployment(S3DeploymentArgs.builder()
                    .type("s3")
                    .serviceSubdomains("java-assets")
                    .s3AccessKey("AKIAJAVAEXAMPLE")
                    .s3Bucket("java-assets-bucket")
                    .s3SecretKey(cfg.requireSecret("s3SecretKey"))
                    .secureUrlEnabled(true)
                    .build())
                .build());
            var live = AssetdeliveryFunctions.getSource(GetSourceArgs.builder().id(photos.id()).build());

            ctx.export("photosId", photos.id());
            ctx.export("assetsId", assets.id());
            ctx.export("token", assets.secureUrlToken());
            ctx.export("liveName", live.applyValue(source -> source.name()));
            ctx.export("livePasswordSet", live.applyValue(source -> source.passwordSet().orElse(false)));
${more}        });
    }
}
`;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "java-native-"));
let server: TestServer;
let client: AssetDeliveryClient;
let stack: JavaStack;
let ids: { photos: string; assets: string };
const repository = path.join(scratch, "maven");

beforeAll(async () => {
  await releaseJavaSdk(repository);
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  stack = await javaStack(PROJECT, "e2e", program(), {
    workDir: path.join(scratch, "infra"),
    repository,
    credentials: { baseUrl: server.url, apiKey: server.adminKey },
  });
  await stack.ok(["config", "set", "cacheTtl", "86400"]);
  await stack.ok(["config", "set", "--secret", "originPassword", SECRETS.password]);
  await stack.ok(["config", "set", "--secret", "s3SecretKey", SECRETS.s3Secret]);
}, 900_000);

afterAll(async () => {
  await stack?.remove();
  await client?.close();
  await server?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
}, STEP_TIMEOUT);

const counted = <T>(step: () => Promise<T>) => countedSourceRequests(server, step);

describe("examples/java", () => {
  it(
    "compiles on the released SDK with its own pom (its program as it is, in a copy outside the repo)",
    async () => {
      const example = path.join(scratch, "example");
      const app = fs.readFileSync(path.join(repoRoot(), "examples", "java", "src", "main", "java", "myproject", "App.java"), "utf8");
      writeJavaProgram(example, repository, app);
      await mavenCompile(example);
      expect(fs.existsSync(path.join(example, "target", "classes", "myproject", "App.class"))).toBe(true);
    },
    STEP_TIMEOUT,
  );
});

describe("a Java program on the released Java SDK (io.github.asset-delivery:assetdelivery), through Pulumi's Java host", () => {
  it(
    "creates two Sources, the write-only fields secret in the state (none in plain text), and reads one back with getSource",
    async () => {
      await expectCreatedWithSecretsHidden({ stack, server }, Object.values(SECRETS));
      expect(exportedSource(await stack.exportState(), "Assets").inputs.deployment.s3SecretKey.ciphertext).toEqual(expect.any(String));

      const outputs = await stack.outputs();
      ids = { photos: outputs.photosId as string, assets: outputs.assetsId as string };
      const live = await client.sources.get(ids.photos);
      expect(live.attributes.deployment).toMatchObject({ password_set: true, request_handshake_set: true, cache_ttl_value: 86400 });
      expect(outputs).toMatchObject({ liveName: "Photos", livePasswordSet: true, token: expect.any(String) });
      expect((await client.sources.get(ids.assets)).attributes.deployment).toMatchObject({ type: "s3", s3_bucket: "java-assets-bucket" });
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
    "`pulumi import` prints Java for a hand-made Source; added to the program (with the one import it lacks), it compiles and preview --expect-no-changes passes",
    async () => {
      const handMade = await client.sources.create({
        name: "Hand made",
        deployment: { type: "webproxy", service_subdomains: ["java-hand-made"], cache_ttl_value: 3600, default_params: { auto: "format" } },
      });
      const out = path.join(stack.workDir, "imported.java.txt");
      const { requests } = await counted(() =>
        stack.ok(["import", "assetdelivery:index:Source", "handmade", handMade.id, "--yes", "--out", out]),
      );
      expect(requests.PATCH ?? 0).toBe(0);
      const code = fs.readFileSync(out, "utf8");
      expect(code).toContain("import com.github.assetdelivery.assetdelivery.Source;");
      expect(code).toMatch(/new Source\("handmade", SourceArgs\.builder\(\)/);
      expect(code).toContain("WebproxyDeploymentArgs.builder()");
      expect(code).toContain('"java-hand-made"');
      expect(code).toContain(".protect(true)");
      // Pulumi's Java generator (pulumi-java v1.16) imports the classes of the resource's own
      // input types only, not those of a union-typed input's members: the deployment's builder is
      // used unimported, and the printed code does not compile until its import is added.
      const deploymentArgs = "import com.github.assetdelivery.assetdelivery.inputs.WebproxyDeploymentArgs;";
      expect(code).not.toContain(deploymentArgs);
      // As a user adds it: the printed class in a file of its own in the program's package, that
      // one import added, its stack(ctx) called by the program.
      const added = code
        .replace(/^package generated_program;$/m, `package myproject;\n\n${deploymentArgs}`)
        .replace(/\bclass App\b/, "class Imported")
        .replace(/\bApp::stack\b/, "Imported::stack");
      expect(added).toContain("class Imported");
      stack.writeClass("Imported", added);
      stack.writeClass("App", program("            Imported.stack(ctx);\n"));
      await stack.build();
      const { result, requests: previewRequests } = await counted(() => stack.pulumi(["preview", "--expect-no-changes", "--diff"]));
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(previewRequests.PATCH ?? 0).toBe(0);
      expect(previewRequests.POST ?? 0).toBe(0);
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
