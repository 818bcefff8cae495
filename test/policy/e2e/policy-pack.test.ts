// The policy pack through the real Pulumi CLI (`pulumi preview --policy-pack policy/pack`, run by
// our language host's RunPlugin) against a local server, on the dynamic `Source`: the scenarios of
// policy-pack-suite.ts (a compliant program passes; each policy's violation fails the preview
// (mandatory) or warns (advisory) with the resource, the path and the rule in the output; a config
// file changes a policy's level and parameters; a run that policy refused sends nothing to the API),
// which policy-pack-native.test.ts runs on the native resource too; and the root project's stacks
// under their policy config files.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DYNAMIC_SOURCE_TYPE } from "@asset-delivery/policy";
import { programStack, removeStacksAndServer, type ProgramStack } from "../../support/program-stack";
import { repoRoot } from "../../support/pulumi";
import { startTestServer, type TestServer } from "../../support/server";
import { runCli } from "../../plugin/yaml-stack";
import { policyPackSuite, STEP_TIMEOUT } from "./policy-pack-suite";
import { PACK, printedViolations, type PolicyRun } from "./policy-stack";

policyPackSuite("dynamic");

let server: TestServer;
const stacks: ProgramStack[] = [];

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
});

afterAll(() => removeStacksAndServer({ stacks, server }), STEP_TIMEOUT);

/** `pulumi preview` of a stack of the root project under one of its policy config files. */
async function previewUnder(stack: ProgramStack, configFile: string): Promise<PolicyRun> {
  const args = [
    "preview",
    "--stack",
    stack.stack.name,
    "--policy-pack",
    PACK,
    "--policy-pack-config",
    path.join(stack.workDir, configFile),
  ];
  const result = await runCli(args, stack.workDir, stack.env);
  const output = `${result.stdout}${result.stderr}`;
  return { passed: result.code === 0, output, violations: printedViolations(output) };
}

/** The violations printed, as `level policy resource`. */
function verdicts(run: PolicyRun): string[] {
  for (const violation of run.violations) expect(violation.type).toBe(DYNAMIC_SOURCE_TYPE);
  return [...new Set(run.violations.map(({ level, policy, resource }) => `${level} ${policy} ${resource}`))].sort();
}

describe("policy config per stack: the root project", () => {
  it(
    "dev warns under Pulumi.dev.policy.json, prod passes Pulumi.prod.policy.json",
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

      const devVerdict = await previewUnder(dev, "Pulumi.dev.policy.json");
      expect(devVerdict.passed, devVerdict.output).toBe(true);
      expect(verdicts(devVerdict), devVerdict.output).toEqual([
        "advisory source-secure-urls photos",
        "advisory source-secure-urls proxy",
        "advisory source-webproxy-signed proxy",
      ]);

      const prodVerdict = await previewUnder(prod, "Pulumi.prod.policy.json");
      expect(prodVerdict.passed, prodVerdict.output).toBe(true);
      expect(verdicts(prodVerdict), prodVerdict.output).toEqual([]);

      // The dev stack's Sources would not pass in prod: a web proxy, unsigned URLs, a short cache.
      const devInProd = await previewUnder(dev, "Pulumi.prod.policy.json");
      expect(devInProd.passed, devInProd.output).toBe(false);
      expect(verdicts(devInProd), devInProd.output).toEqual([
        "mandatory source-allowed-types proxy",
        "mandatory source-cache-ttl-bounds photos",
        "mandatory source-secure-urls photos",
        "mandatory source-secure-urls proxy",
        "mandatory source-webproxy-signed proxy",
      ]);
    },
    STEP_TIMEOUT,
  );
});
