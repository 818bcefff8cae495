// The policy pack through the real Pulumi CLI on the native resource `assetdelivery:index:Source`:
// a Pulumi YAML program run by the YAML language host and the native plugin gives the same verdicts
// as the dynamic `Source` (policy-pack.test.ts), from the same scenarios (policy-pack-suite.ts); and
// what only the native resource takes, a deployment that is one secret value, is judged inside.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/server";
import { CONFIG, expectOnlyListings, expectVerdict, https, policyPackSuite, STEP_TIMEOUT } from "./policy-pack-suite";
import { policyStack, type PolicyStack } from "./policy-stack";

policyPackSuite("native");

describe("a native Source's deployment as one secret value", () => {
  let server: TestServer;
  let stack: PolicyStack | undefined;

  beforeAll(async () => {
    server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  });

  afterAll(async () => {
    await stack?.remove();
    await server?.close();
  }, STEP_TIMEOUT);

  it(
    "is judged field by field, and no violation prints its values (YAML's fn::secret around the whole object; the dynamic Source takes only a plain object); nothing is written, the one request check's listing",
    async () => {
      stack = await policyStack("native", "wrapped", server);
      // Values only this one's: none may reach the output.
      const secrets = { path: "wrapped-secret-path", domain: "wrapped-secret.elsewhere.net", ttl: 2345 };
      await stack.declare({
        wrapped: {
          name: "Wrapped",
          deployment: {
            "fn::secret": https("pol-wrapped", {
              webfolderBaseUrl: `http://origin.example.com/${secrets.path}/`,
              customDomains: [secrets.domain],
              cacheTtlValue: secrets.ttl,
            }),
          },
        },
      });
      server.resetRequestCount();
      const run = await stack.run("preview", { ...CONFIG, "source-allowed-types": { types: ["s3"] } });
      expectVerdict(stack, run, false, [
        ["mandatory", "source-https-origins", "wrapped", 'Source "wrapped": deployment.webfolderBaseUrl is an http:// URL.'],
        ["mandatory", "source-allowed-types", "wrapped", 'Source "wrapped": deployment.type is not a type this stack allows (allowed: s3)'],
        ["mandatory", "source-custom-domain-suffixes", "wrapped", 'Source "wrapped": deployment.customDomains[0] is not under example.com'],
        ["advisory", "source-cache-ttl-bounds", "wrapped", 'Source "wrapped": deployment.cacheTtlValue is below the minimum of 3600 s'],
      ]);
      for (const secret of Object.values(secrets)) expect(run.output).not.toContain(String(secret));
      expectOnlyListings(server, 1); // check's, of who holds the declared host names
    },
    STEP_TIMEOUT,
  );
});
