// A Python program on the native plugin and the generated SDK (pulumi_assetdelivery, PyPI's pulumi),
// run by the real Pulumi CLI through this repo's Python language host against a real server: the
// issue's "Done when" list for Python, with the requests the server answered counted.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { countedSourceRequests, startTestServer, type TestServer } from "../support/server";
import { expectCreatedWithSecretsHidden, expectNoChangeThenOnePatch, expectRefreshUndoesDrift } from "../plugin/source-lifecycle-suite";
import { installPythonVenv, pythonStack, type PythonStack } from "./python-project";

const STEP_TIMEOUT = 300_000;

// Values that must never appear in plain text in the state or the CLI's output.
const SECRETS = {
  password: "python-origin-password-plain",
  handshake: "python-handshake-in-plain-32chr!", // passed unmarked, as a careless program would
  s3Secret: "python-s3-secret-value-plain",
};

function program({ cacheTtlValue = 86400, extra = "" }: { cacheTtlValue?: number; extra?: string } = {}): string {
  return `import pulumi
import pulumi_assetdelivery as assetdelivery

config = pulumi.Config()

photos = assetdelivery.Source(
    "photos",
    name="Photos",
    deployment=assetdelivery.WebfolderDeploymentArgs(
        type="webfolder",
        service_subdomains=["python-photos"],
        webfolder_base_url="https://origin.example.com/images/",
        password=config.require_secret("originPassword"),
        request_handshake="${SECRETS.handshake}",
        cache_ttl_value=${cacheTtlValue},
    ),
)
assets = assetdelivery.Source(
    "assets",
    name="Assets",
    deployment=assetdelivery.S3DeploymentArgs(
        type="s3",
        service_subdomains=["python-assets"],
        s3_access_key="AKIAPYTHONEXAMPLE",
        s3_bucket="python-assets-bucket",
        s3_secret_key=config.require_secret("s3SecretKey"),
        secure_url_enabled=True,
    ),
)
live = assetdelivery.get_source_output(id=photos.id)

pulumi.export("photosId", photos.id)
pulumi.export("assetsId", assets.id)
pulumi.export("token", assets.secure_url_token)
pulumi.export("liveName", live.name)
pulumi.export("livePasswordSet", live.password_set)
${extra}`;
}

let server: TestServer;
let client: AssetDeliveryClient;
let stack: PythonStack;
let ids: { photos: string; assets: string };

beforeAll(async () => {
  installPythonVenv();
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  stack = await pythonStack("python-native-e2e", "e2e", program(), { baseUrl: server.url, apiKey: server.adminKey });
  await stack.ok(["config", "set", "--secret", "originPassword", SECRETS.password]);
  await stack.ok(["config", "set", "--secret", "s3SecretKey", SECRETS.s3Secret]);
}, STEP_TIMEOUT);

afterAll(async () => {
  await stack?.remove();
  await client?.close();
  await server?.close();
}, STEP_TIMEOUT);

const counted = <T>(step: () => Promise<T>) => countedSourceRequests(server, step);

describe("a Python program on the generated SDK (pulumi_assetdelivery)", () => {
  it(
    "reports a failing program through the engine once: Python's traceback, no extra exit-code message",
    async () => {
      stack.writeMain(`import pulumi\n\nraise ValueError("the program's own failure")\n`);
      const { result, requests } = await counted(() => stack.pulumi(["preview"]));
      stack.writeMain(program());
      expect(result.code).not.toBe(0);
      const output = result.stdout + result.stderr;
      // One diagnostic, the program's (the progress row above it repeats its first line, as for any
      // error): a host that also reported the failure itself, in any words, would add a second error.
      expect(output).toContain("\nDiagnostics:");
      const diagnostics = output.slice(output.indexOf("\nDiagnostics:"));
      expect(diagnostics.match(/^\s*error: /gm), output).toHaveLength(1);
      const times = (text: string) => diagnostics.split(text).length - 1;
      expect(times("Program failed with an unhandled exception"), output).toBe(1);
      expect(times("ValueError: the program's own failure"), output).toBe(1);
      expect(output).not.toContain("non-zero exit code");
      expect(requests).toEqual({});
    },
    STEP_TIMEOUT,
  );

  it(
    "creates two Sources, the write-only fields secret in the state (none in plain text), and reads one back with getSource",
    async () => {
      await expectCreatedWithSecretsHidden({ stack, server }, Object.values(SECRETS));
      const outputs = await stack.outputs();
      ids = { photos: outputs.photosId as string, assets: outputs.assetsId as string };
      const live = await client.sources.get(ids.photos);
      expect(live.attributes.deployment).toMatchObject({ password_set: true, request_handshake_set: true, cache_ttl_value: 86400 });
      expect(outputs).toMatchObject({ liveName: "Photos", livePasswordSet: true, token: expect.any(String) });
      expect((await client.sources.get(ids.assets)).attributes.deployment).toMatchObject({ type: "s3", s3_bucket: "python-assets-bucket" });
    },
    STEP_TIMEOUT,
  );

  it(
    "previews no change, then updates one field with one PATCH",
    async () => {
      await expectNoChangeThenOnePatch({ stack, client, server }, ids.photos, () => stack.writeMain(program({ cacheTtlValue: 7200 })));
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
    "`pulumi import` prints Python for a hand-made Source; with that code added, mypy passes and preview --expect-no-changes too",
    async () => {
      const handMade = await client.sources.create({
        name: "Hand made",
        deployment: {
          type: "webproxy",
          service_subdomains: ["python-hand-made"],
          cache_ttl_value: 3600,
          default_params: { auto: "format" },
        },
      });
      const out = path.join(stack.workDir, "imported.py");
      const { requests } = await counted(() =>
        stack.ok(["import", "assetdelivery:index:Source", "handmade", handMade.id, "--yes", "--out", out]),
      );
      expect(requests.PATCH ?? 0).toBe(0);
      const code = fs.readFileSync(out, "utf8");
      expect(code).toContain("import pulumi_assetdelivery as assetdelivery");
      expect(code).toMatch(/handmade = assetdelivery\.Source\("handmade"/);
      expect(code).toContain('"python-hand-made"');
      // As a user does: paste the printed code into the program, which then type-checks against the
      // SDK's types (mypy, run by the host before the program: Pulumi.yaml's `typechecker`).
      stack.writeMain(program({ cacheTtlValue: 7200, extra: code }));
      const projectFile = path.join(stack.workDir, "Pulumi.yaml");
      const project = JSON.parse(fs.readFileSync(projectFile, "utf8")) as { runtime: { options: Record<string, string> } };
      project.runtime.options.typechecker = "mypy";
      fs.writeFileSync(projectFile, JSON.stringify(project));
      const { result } = await counted(() => stack.pulumi(["preview", "--expect-no-changes", "--diff"]));
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout + result.stderr).toMatch(/Success: no issues found in 2 source files/); // mypy: __main__.py and imported.py
      await stack.ok(["state", "unprotect", `urn:pulumi:e2e::python-native-e2e::assetdelivery:index:Source::handmade`, "--yes"]);
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
