// The policy pack through the real Pulumi CLI (`pulumi preview --policy-pack policy/pack`, run by
// our language host's RunPlugin) against a local server: a compliant program passes; each policy's
// violation fails the preview (mandatory) or warns (advisory) with the resource, the path and the
// rule in the output; a config file changes a policy's level and parameters per stack; and a run
// that policy refused sends nothing to the API. The native resource's verdicts are unit-tested
// (test/policy/policies.test.ts) until its plugin lands.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { programStack, removeStacksAndServer, TEST_PROGRAMS, type ProgramStack } from "../../support/program-stack";
import { pulumiBinDir, repoRoot } from "../../support/pulumi";
import { startTestServer, type TestServer } from "../../support/server";

const STEP_TIMEOUT = 240_000;
const run = promisify(execFile);
const PACK = path.join(repoRoot(), "policy", "pack");
const SOURCE_TYPE = "pulumi-nodejs:dynamic/assetdelivery:Source";
const SIGNING_KEY = "k".repeat(32);

let server: TestServer;
const stacks: ProgramStack[] = [];

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
});

afterAll(() => removeStacksAndServer({ stacks, server }), STEP_TIMEOUT);

/** A stack of the test program that declares the Sources of its `sources` config. */
async function sourcesStack(stackName: string, sources: Record<string, unknown>): Promise<ProgramStack> {
  const stack = await programStack(path.join(TEST_PROGRAMS, "sources"), stackName, { baseUrl: server.url, apiKey: server.adminKey });
  stacks.push(stack);
  await stack.set({ sources });
  return stack;
}

/** A policy config file in the stack's work folder. */
function configFile(stack: ProgramStack, name: string, config: object): string {
  const file = path.join(stack.workDir, name);
  fs.writeFileSync(file, JSON.stringify(config));
  return file;
}

interface Verdict {
  passed: boolean;
  output: string;
}

/** `pulumi preview` (or `up`) with the pack: whether it passed, and what it printed. */
async function withPolicy(stack: ProgramStack, command: "preview" | "up", configFiles: string[] = []): Promise<Verdict> {
  const options = { policyPacks: [PACK], policyPackConfigs: configFiles, color: "never" as const };
  try {
    const result = command === "preview" ? await stack.stack.preview(options) : await stack.stack.up(options);
    return { passed: true, output: result.stdout };
  } catch (error) {
    // The CLI's output is in the Automation API's error message.
    return { passed: false, output: String(error) };
  }
}

/**
 * `pulumi up --yes` as a user or a CI job runs it: preview first, then the update. (The Automation
 * API's `up` skips that preview, so each Source is judged as the update reaches it: see the test of
 * a value not known during the preview.)
 */
async function cliUp(stack: ProgramStack, configFiles: string[]): Promise<Verdict> {
  const args = ["up", "--yes", "--non-interactive", "--color", "never", "--stack", stack.stack.name, "--policy-pack", PACK];
  for (const file of configFiles) args.push("--policy-pack-config", file);
  try {
    const { stdout } = await run(path.join(pulumiBinDir(), "pulumi"), args, {
      cwd: stack.workDir,
      env: { ...process.env, ...stack.stack.workspace.envVars },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { passed: true, output: stdout };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { passed: false, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

/** The line Pulumi prints for a policy's violation by a resource: `- [mandatory]  source-https-origins  (type: name)`. */
function violationLine(level: "mandatory" | "advisory", policy: string, resource: string): RegExp {
  return new RegExp(`\\[${level}\\]\\s+${policy}\\s+\\(${SOURCE_TYPE.replace(/[/]/g, "\\/")}: ${resource}\\)`);
}

const https = (subdomain: string, fields: Record<string, unknown> = {}) => ({
  type: "webfolder",
  serviceSubdomains: [subdomain],
  webfolderBaseUrl: "https://origin.example.com/images/",
  secureUrlEnabled: true,
  ...fields,
});

describe("pulumi preview --policy-pack", () => {
  it(
    "passes a compliant program, with no violation shown",
    async () => {
      const stack = await sourcesStack("compliant", {
        photos: { name: "Photos", deployment: https("pol-ok-photos", { customDomains: ["images.example.com"], cacheTtlValue: 86_400 }) },
      });
      const config = configFile(stack, "policy.json", {
        "source-allowed-types": { types: ["webfolder"] },
        "source-custom-domain-suffixes": { suffixes: ["example.com"] },
        "source-cache-ttl-bounds": { min: 3600 },
      });
      const verdict = await withPolicy(stack, "preview", [config]);
      expect(verdict.passed, verdict.output).toBe(true);
      expect(verdict.output).not.toMatch(/\[(mandatory|advisory)\]/);
    },
    STEP_TIMEOUT,
  );

  it(
    "fails on each mandatory violation and warns on each advisory one, naming the resource, the path and the rule; nothing reaches the API",
    async () => {
      const stack = await sourcesStack("violations", {
        origin: { name: "Origin", deployment: https("pol-origin", { webfolderBaseUrl: "http://origin.example.com/images/" }) },
        domain: { name: "Domain", deployment: https("pol-domain", { customDomains: ["img.elsewhere.net"] }) },
        proxy: { name: "Proxy", deployment: { type: "webproxy", serviceSubdomains: ["pol-proxy"] } },
        shortcache: { name: "Short cache", deployment: https("pol-short", { cacheTtlValue: 1800 }) },
        first: { name: "Shared", deployment: https("pol-first") },
        second: { name: "shared", deployment: https("pol-second") },
      });
      const config = configFile(stack, "policy.json", {
        "source-allowed-types": { types: ["webfolder", "s3"] },
        "source-custom-domain-suffixes": { suffixes: ["example.com"] },
        "source-cache-ttl-bounds": { min: 3600 },
      });
      server.resetRequestCount();
      const verdict = await withPolicy(stack, "preview", [config]);
      expect(verdict.passed, verdict.output).toBe(false);
      const expected: [level: "mandatory" | "advisory", policy: string, resource: string, message: string][] = [
        [
          "mandatory",
          "source-https-origins",
          "origin",
          'Source "origin": deployment.webfolderBaseUrl is an http:// URL. To comply, serve it over HTTPS',
        ],
        ["mandatory", "source-allowed-types", "proxy", 'Source "proxy": deployment.type is "webproxy", which this stack does not allow'],
        [
          "mandatory",
          "source-custom-domain-suffixes",
          "domain",
          'Source "domain": deployment.customDomains[0] is "img.elsewhere.net", not under example.com',
        ],
        [
          "advisory",
          "source-secure-urls",
          "proxy",
          'Source "proxy": deployment.secureUrlEnabled is false. To comply, set deployment.secureUrlEnabled: true',
        ],
        [
          "advisory",
          "source-webproxy-signed",
          "proxy",
          'Source "proxy": deployment.requestSigningKey is not set on a webproxy Source. To comply',
        ],
        [
          "advisory",
          "source-cache-ttl-bounds",
          "shortcache",
          'Source "shortcache": deployment.cacheTtlValue is 1800 s, below the minimum of 3600 s',
        ],
        ["advisory", "sources-unique-names", "first", 'Source "first": name is "Shared", the display name of Source "second" too'],
      ];
      for (const [level, policy, resource, message] of expected) {
        expect(verdict.output, `${level} ${policy} ${resource}`).toMatch(violationLine(level, policy, resource));
        expect(verdict.output).toContain(message);
      }
      expect(server.requestCount()).toBe(0);

      // `pulumi up --yes` previews first, and stops at the same verdict before any Source is created.
      const up = await cliUp(stack, [config]);
      expect(up.passed, up.output).toBe(false);
      expect(up.output).toMatch(violationLine("mandatory", "source-https-origins", "origin"));
      expect(server.requestCount()).toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    "warns without failing when every violation is advisory",
    async () => {
      const stack = await sourcesStack("advisory", {
        proxy: { name: "Proxy", deployment: { type: "webproxy", serviceSubdomains: ["pol-adv-proxy"], requestSigningKey: SIGNING_KEY } },
      });
      const verdict = await withPolicy(stack, "preview");
      expect(verdict.passed, verdict.output).toBe(true);
      expect(verdict.output).toMatch(violationLine("advisory", "source-secure-urls", "proxy"));
      expect(verdict.output).not.toMatch(/source-webproxy-signed|\[mandatory\]/);
    },
    STEP_TIMEOUT,
  );

  it(
    "skips a value not known during the preview, and refuses it once known, before that Source is created",
    async () => {
      const stack = await programStack(path.join(__dirname, "..", "programs", "derived-origin"), "derived", {
        baseUrl: server.url,
        apiKey: server.adminKey,
      });
      stacks.push(stack);
      await stack.set({ scheme: "http" });
      const preview = await withPolicy(stack, "preview");
      expect(preview.passed, preview.output).toBe(true);
      expect(preview.output).not.toContain("source-https-origins");

      server.resetRequestCount();
      const up = await withPolicy(stack, "up");
      expect(up.passed, up.output).toBe(false);
      expect(up.output).toMatch(violationLine("mandatory", "source-https-origins", "mirror"));
      // `origin` was created; `mirror` never was.
      expect(server.requestCount("POST", "/api/v1/sources")).toBe(1);
      expect(server.requestCount("PATCH")).toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    "judges a value from secret config without printing it, and refuses an update before it is sent",
    async () => {
      const stack = await sourcesStack("secret-origin", {
        photos: { name: "Photos", deployment: https("pol-secret-photos") },
      });
      expect((await withPolicy(stack, "up")).passed).toBe(true);
      await stack.set({ secretFields: { photos: ["webfolderBaseUrl"] } });
      await stack.setSecret({ secretValues: { photos: { webfolderBaseUrl: "http://origin.example.com/secret-path/" } } });
      server.resetRequestCount();
      const refused = await withPolicy(stack, "up");
      expect(refused.passed, refused.output).toBe(false);
      expect(refused.output).toMatch(violationLine("mandatory", "source-https-origins", "photos"));
      expect(refused.output).not.toContain("secret-path");
      expect(server.requestCount("PATCH")).toBe(0);
    },
    STEP_TIMEOUT,
  );
});

describe("policy config per stack (--policy-pack-config)", () => {
  it(
    "changes a policy's level and its parameters",
    async () => {
      const stack = await sourcesStack("levels", {
        origin: { name: "Origin", deployment: https("pol-lvl-origin", { webfolderBaseUrl: "http://origin.example.com/images/" }) },
        domain: { name: "Domain", deployment: https("pol-lvl-domain", { customDomains: ["img.elsewhere.net"] }) },
      });
      const advisory = await withPolicy(stack, "preview", [
        configFile(stack, "dev.json", { all: "advisory", "source-custom-domain-suffixes": { suffixes: ["example.com"] } }),
      ]);
      expect(advisory.passed, advisory.output).toBe(true);
      expect(advisory.output).toMatch(violationLine("advisory", "source-https-origins", "origin"));
      expect(advisory.output).toMatch(violationLine("advisory", "source-custom-domain-suffixes", "domain"));

      const widened = await withPolicy(stack, "preview", [
        configFile(stack, "widened.json", {
          "source-https-origins": "disabled",
          "source-custom-domain-suffixes": { suffixes: ["example.com", "elsewhere.net"] },
        }),
      ]);
      expect(widened.passed, widened.output).toBe(true);
      expect(widened.output).not.toMatch(/source-https-origins|source-custom-domain-suffixes/);

      const strict = await withPolicy(stack, "preview", [
        configFile(stack, "strict.json", { "source-https-origins": "disabled", "source-secure-urls": "mandatory" }),
      ]);
      expect(strict.passed, strict.output).toBe(true); // every Source here signs its URLs
    },
    STEP_TIMEOUT,
  );

  it(
    "the root project: dev warns under Pulumi.dev.policy.json, prod passes Pulumi.prod.policy.json",
    async () => {
      const files = [
        "Pulumi.yaml",
        "index.ts",
        "tsconfig.json",
        "Pulumi.dev.yaml",
        "Pulumi.prod.yaml",
        "Pulumi.dev.policy.json",
        "Pulumi.prod.policy.json",
      ];
      const credentials = { baseUrl: server.url, apiKey: server.adminKey };
      const dev = await programStack(repoRoot(), "dev", credentials, files);
      const prod = await programStack(repoRoot(), "prod", credentials, files);
      stacks.push(dev, prod);
      await prod.stack.setConfig("sourceSecrets.assets.s3SecretKey", { value: "prod-s3-secret-key", secret: true }, true);

      const devVerdict = await withPolicy(dev, "preview", [path.join(dev.workDir, "Pulumi.dev.policy.json")]);
      expect(devVerdict.passed, devVerdict.output).toBe(true);
      expect(devVerdict.output).toMatch(violationLine("advisory", "source-webproxy-signed", "proxy"));
      expect(devVerdict.output).not.toContain("[mandatory]");

      const prodVerdict = await withPolicy(prod, "preview", [path.join(prod.workDir, "Pulumi.prod.policy.json")]);
      expect(prodVerdict.passed, prodVerdict.output).toBe(true);
      expect(prodVerdict.output).not.toMatch(/\[(mandatory|advisory)\]/);

      // The dev stack's Sources would not pass in prod: a web proxy, unsigned URLs.
      const devInProd = await withPolicy(dev, "preview", [path.join(dev.workDir, "Pulumi.prod.policy.json")]);
      expect(devInProd.passed).toBe(false);
      expect(devInProd.output).toMatch(violationLine("mandatory", "source-allowed-types", "proxy"));
      expect(devInProd.output).toMatch(violationLine("mandatory", "source-secure-urls", "photos"));
    },
    STEP_TIMEOUT,
  );
});
