// The packages as a user gets them: `npm pack` of the five, installed with @pulumi/pulumi from the
// registry into a new Pulumi TypeScript project in the OS temp folder (nothing of this repo's
// node_modules in reach), the server started from the installed `asset-delivery` command, and a
// Source's life through the real Pulumi CLI. Node refuses any require of a path a package does not
// export, so a reach-in fails here; the installed files are also checked for one without running.
//
// Runs on the `node` on PATH; CI's oldest-pair run sets CONSUMER_PULUMI_VERSION (the @pulumi/pulumi
// to install; default the repo's) and PULUMI_CLI_ROOT (the CLI; default .tools/pulumi).
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCountingProxy, type CountingProxy } from "../support/counting-proxy";
import { unexportedRequires } from "../support/package-boundaries";
import { pulumiCommand, pulumiEnv, repoRoot } from "../support/pulumi";
import { startServeProcess, type ServeProcess } from "../support/serve-process.cjs";

const run = promisify(execFile);
const PACKAGES = ["sdk", "server", "provider", "cli", "policy"];
const STEP_TIMEOUT = 180_000;

const rootManifest = JSON.parse(fs.readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as {
  devDependencies: Record<string, string>;
};
const PULUMI_VERSION = process.env.CONSUMER_PULUMI_VERSION || rootManifest.devDependencies["@pulumi/pulumi"]!;

// What every state written before the provider's `./runtime` export existed holds.
const LEGACY_PROVIDER = 'exports.handler = () => require("@asset-delivery/provider/dist/runtime").sourceProvider;\n';

// The user's program, as `pulumi new typescript` lays it out; type-checked when Pulumi runs it.
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { Source } from "@asset-delivery/provider";

const config = new pulumi.Config();
const photos = new Source("photos", {
  name: config.require("sourceName"),
  deployment: {
    type: "webfolder",
    serviceSubdomains: ["consumer-photos"],
    webfolderBaseUrl: "https://origin.example.com/images/",
    password: config.requireSecret("originPassword"),
  },
});

export const id = photos.id;
export const name = photos.name;
export const deploymentStatus = photos.deploymentStatus;
`;
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

let tmp: string;
let project: string;
let server: ServeProcess | undefined;
let proxy: CountingProxy | undefined;
let stack: Stack | undefined;

/** The environment of a user's shell: no npm variables of the `npm test` running this. */
function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || /^npm_config_(registry|cache)$/i.test(key)),
  );
}

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run("npm", args, { cwd, env: userEnv(), maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** Runs one step and returns how many requests of each method reached the server during it. */
async function counted<T>(step: () => Promise<T>): Promise<{ result: T; requests: Record<string, number> }> {
  proxy!.resetRequestCount();
  const result = await step();
  const requests = Object.fromEntries(["GET", "POST", "PATCH"].map((m) => [m, proxy!.requestCount(m)] as const).filter(([, n]) => n !== 0));
  expect(proxy!.requestCount()).toBe(Object.values(requests).reduce((a, b) => a + b, 0));
  return { result, requests };
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-consumer-"));
  project = path.join(tmp, "infra");
  const tarballs = path.join(tmp, "tarballs");
  fs.mkdirSync(project);
  fs.mkdirSync(tarballs);

  // The tarballs `npm publish` would upload, from the built dist/ (npm test builds first).
  const packed = JSON.parse(
    await npm(
      ["pack", "--json", "--ignore-scripts", "--pack-destination", tarballs, ...PACKAGES.map((p) => `--workspace=${p}`)],
      repoRoot(),
    ),
  ) as { filename: string }[];
  expect(packed).toHaveLength(PACKAGES.length);

  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "infra", private: true, main: "index.ts" }, null, 2));
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: infra\nruntime: nodejs\ndescription: a user's infrastructure repo\n");
  fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
  fs.writeFileSync(path.join(project, "index.ts"), PROGRAM);
  await npm(
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      ...packed.map(({ filename }) => path.join(tarballs, path.basename(filename))),
      `@pulumi/pulumi@${PULUMI_VERSION}`,
      `typescript@${rootManifest.devDependencies.typescript}`,
      `@types/node@${rootManifest.devDependencies["@types/node"]}`,
    ],
    project,
  );

  // The emulator, from the installed command: a demo account's key, then `serve`.
  const bin = path.join(project, "node_modules", ".bin", "asset-delivery");
  const db = path.join(tmp, "server", "asset-delivery.db");
  const { stdout } = await run(process.execPath, [bin, "demo", "--db", db], { env: userEnv() });
  const { key } = JSON.parse(stdout) as { key: string };
  server = await startServeProcess(db, ["--deploy-delay-ms", "0", "--rate-limits", "off"], { bin });
  proxy = await startCountingProxy(server.url);

  const stateDir = path.join(tmp, "state");
  // NODE_PATH empty: the program and the dynamic provider find packages in the project only.
  const envVars = { ...pulumiEnv({ stateDir }), NODE_PATH: "" };
  stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "dev", workDir: project },
    { pulumiCommand: await pulumiCommand(), envVars },
  );
  await stack.setAllConfig({
    "assetdelivery:baseUrl": { value: proxy.url },
    "assetdelivery:apiKey": { value: key, secret: true },
    sourceName: { value: "Photos" },
    originPassword: { value: "origin-password-ONE", secret: true },
  });
}, 600_000);

afterAll(async () => {
  await stack?.destroy().catch(() => undefined);
  await proxy?.close();
  await server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
}, STEP_TIMEOUT);

describe("the packed packages in a user's project", () => {
  it("install with only declared exports between them", () => {
    const installed = Object.fromEntries(
      PACKAGES.map((p) => [`@asset-delivery/${p}`, path.join(project, "node_modules", "@asset-delivery", p)]),
    );
    for (const dir of Object.values(installed)) expect(fs.existsSync(path.join(dir, "package.json")), dir).toBe(true);
    expect(unexportedRequires(installed)).toEqual([]);
  });

  it(
    "up creates the Source",
    async () => {
      const { result, requests } = await counted(() => stack!.up());
      expect(result.summary.resourceChanges).toEqual({ create: 2 });
      expect(requests.POST).toBe(1);
      expect(requests.PATCH).toBeUndefined();
      expect(result.outputs.id!.value).toMatch(/^\w{24}$/);
      expect(result.outputs.deploymentStatus!.value).toBe("deployed");
    },
    STEP_TIMEOUT,
  );

  it(
    "preview finds nothing to change and sends no request",
    async () => {
      const { requests } = await counted(() => stack!.preview({ expectNoChanges: true }));
      expect(requests).toEqual({});
    },
    STEP_TIMEOUT,
  );

  it(
    "the installed policy pack runs in preview: an advisory verdict, no request",
    async () => {
      const pack = path.join(project, "node_modules", "@asset-delivery", "policy", "pack");
      const { result, requests } = await counted(() => stack!.preview({ policyPacks: [pack], expectNoChanges: true, color: "never" }));
      expect(result.stdout).toMatch(/\[advisory\]\s+source-secure-urls\s+\(pulumi-nodejs:dynamic\/assetdelivery:Source: photos\)/);
      expect(result.stdout).toContain('Source "photos": deployment.secureUrlEnabled is false');
      expect(requests).toEqual({});
    },
    STEP_TIMEOUT,
  );

  it(
    "an edit (a new name, a rotated secret) is one PATCH",
    async () => {
      await stack!.setAllConfig({
        sourceName: { value: "Product photos" },
        originPassword: { value: "origin-password-TWO", secret: true },
      });
      const { result, requests } = await counted(() => stack!.up());
      expect(result.summary.resourceChanges).toEqual({ update: 1, same: 1 });
      expect(requests.PATCH).toBe(1);
      expect(requests.POST).toBeUndefined();
      expect(result.outputs.name!.value).toBe("Product photos");
    },
    STEP_TIMEOUT,
  );

  it(
    "a state that names the provider's old path still previews clean, refreshes and destroys",
    async () => {
      const deployment = await stack!.exportStack();
      const state = deployment.deployment as {
        resources: { type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }[];
      };
      const sources = state.resources.filter((resource) => resource.type === "pulumi-nodejs:dynamic/assetdelivery:Source");
      expect(sources).toHaveLength(1);
      // New states name the stable `./runtime` export; the ones written before it name `./dist/runtime`.
      expect(sources[0]!.inputs!.__provider).toBe('exports.handler = () => require("@asset-delivery/provider/runtime").sourceProvider;\n');
      for (const source of sources) source.inputs!.__provider = source.outputs!.__provider = LEGACY_PROVIDER;
      await stack!.importStack(deployment);

      const preview = await counted(() => stack!.preview({ expectNoChanges: true }));
      expect(preview.requests).toEqual({});
      // refresh reads, and destroy retires, through the provider the state's outputs name: the old path.
      const refresh = await counted(() => stack!.refresh());
      expect(refresh.result.summary.resourceChanges).toEqual({ same: 2 });
      expect(refresh.requests.PATCH).toBeUndefined();
      const destroy = await counted(() => stack!.destroy());
      expect(destroy.result.summary.resourceChanges).toEqual({ delete: 2 });
      expect(destroy.requests).toEqual({ PATCH: 1 });
      expect(destroy.result.stdout).toMatch(/was retired, not deleted/);
    },
    STEP_TIMEOUT,
  );
});
