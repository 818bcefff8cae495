// The policy pack's end-to-end scenarios, one table for both shapes of a Source: each run is a
// `pulumi preview` (or `up`) through the real CLI with `--policy-pack policy/pack`, and its verdict
// is the exit status and the exact list of violations Pulumi printed (level, policy, resource), each
// with its message. Scenarios are batched: one stack holds Sources whose verdicts differ, so that a
// few runs cover every policy. policy-pack.test.ts runs them on the dynamic `Source`,
// policy-pack-native.test.ts on the native `assetdelivery:index:Source` (a Pulumi YAML program).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SourceShape } from "@asset-delivery/policy";
import { startTestServer, type TestServer } from "../../support/server";
import { policyStack, printedViolations, type Declarations, type PolicyLevel, type PolicyRun, type PolicyStack } from "./policy-stack";

export const STEP_TIMEOUT = 300_000;
const SIGNING_KEY = "k".repeat(32);

/** A violation a run must print: its level, the policy, the resource, and the message's text (or its start). */
export type Expected = [level: PolicyLevel, policy: string, resource: string, message: string];

export const https = (subdomain: string, fields: Record<string, unknown> = {}) => ({
  type: "webfolder",
  serviceSubdomains: [subdomain],
  webfolderBaseUrl: "https://origin.example.com/images/",
  secureUrlEnabled: true,
  ...fields,
});

/** The config most runs use: the stack's allowed types, its domains, a one-hour minimum TTL. */
export const CONFIG = {
  "source-allowed-types": { types: ["webfolder", "s3"] },
  "source-custom-domain-suffixes": { suffixes: ["example.com"] },
  "source-cache-ttl-bounds": { min: 3600 },
};

/** A compliant Source beside one that breaks only an advisory policy: the run passes, with that one warning. */
const COMPLIANT_AND_ADVISORY: Declarations = {
  photos: { name: "Photos", deployment: https("pol-ok-photos", { customDomains: ["images.example.com"], cacheTtlValue: 86_400 }) },
  // A secret, as a program passes it: set, whatever its value.
  proxy: {
    name: "Proxy",
    deployment: { type: "webproxy", serviceSubdomains: ["pol-adv-proxy"], requestSigningKey: { "fn::secret": SIGNING_KEY } },
  },
};

/** A Source for each policy's violation (two for the stack policy). */
const VIOLATIONS: Declarations = {
  origin: { name: "Origin", deployment: https("pol-origin", { webfolderBaseUrl: "http://origin.example.com/images/" }) },
  // The list is a secret (from secret config, say): judged all the same, never printed.
  domain: { name: "Domain", deployment: https("pol-domain", { customDomains: { "fn::secret": ["secret-img.elsewhere.net"] } }) },
  proxy: { name: "Proxy", deployment: { type: "webproxy", serviceSubdomains: ["pol-proxy"] } },
  shortcache: { name: "Short cache", deployment: https("pol-short", { cacheTtlValue: 1800 }) },
  first: { name: "Shared", deployment: https("pol-first") },
  second: { name: "shared", deployment: https("pol-second") },
};

const VIOLATIONS_EXPECTED: Expected[] = [
  [
    "mandatory",
    "source-https-origins",
    "origin",
    'Source "origin": deployment.webfolderBaseUrl is an http:// URL. To comply, serve it over HTTPS and set deployment.webfolderBaseUrl to its https:// address.',
  ],
  [
    "mandatory",
    "source-allowed-types",
    "proxy",
    'Source "proxy": deployment.type is not a type this stack allows (allowed: webfolder, s3)',
  ],
  [
    "mandatory",
    "source-custom-domain-suffixes",
    "domain",
    'Source "domain": deployment.customDomains[0] is not under example.com. To comply, use a domain under example.com',
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
  ["advisory", "source-cache-ttl-bounds", "shortcache", 'Source "shortcache": deployment.cacheTtlValue is below the minimum of 3600 s'],
  ["advisory", "sources-unique-names", "first", 'Source "first": name is the display name of Source "second" too'],
  ["advisory", "sources-unique-names", "second", 'Source "second": name is the display name of Source "first" too'],
];

/** Sources whose verdicts move with the config's levels and parameters. */
const LEVELS: Declarations = {
  origin: { name: "Origin", deployment: https("pol-lvl-origin", { webfolderBaseUrl: "http://origin.example.com/images/" }) },
  domain: { name: "Domain", deployment: https("pol-lvl-domain", { customDomains: ["img.elsewhere.net"] }) },
  unsigned: { name: "Unsigned", deployment: https("pol-lvl-unsigned", { secureUrlEnabled: false }) },
};

/**
 * `mirror`'s name, origin address and custom domain are made of `origin`'s id: not known during the
 * preview of their creation, known once `origin` exists (and then the address and the domain break
 * their rules).
 */
const DERIVED: Declarations = {
  origin: { name: "Derived origin", deployment: https("pol-derived-origin") },
  mirror: {
    name: "Mirror of ${origin.id}",
    deployment: https("pol-derived-mirror", {
      webfolderBaseUrl: "http://mirror.example.com/${origin.id}/",
      customDomains: ["${origin.id}.elsewhere.net"],
    }),
  },
};

/** The same, with `origin`'s own URL now an http:// one from a secret. */
const SECRET_PATH = "secret-origin-path";
const DERIVED_SECRET: Declarations = {
  ...DERIVED,
  origin: {
    name: "Derived origin",
    deployment: https("pol-derived-origin", { webfolderBaseUrl: { "fn::secret": `http://origin.example.com/${SECRET_PATH}/` } }),
  },
};

/**
 * Whether the run passed, and exactly these violations were printed, each once in every "Policies:"
 * section of the output (one per phase: `up` prints the preview's and the update's), each of the
 * Source type of the shape, with its message.
 */
export function expectVerdict(stack: PolicyStack, run: PolicyRun, passed: boolean, expected: Expected[]): void {
  expect(run.passed, run.output).toBe(passed);
  const key = ({ level, policy, resource }: { level: string; policy: string; resource: string }) => `${level} ${policy} ${resource}`;
  const wanted = expected.map(([level, policy, resource]) => key({ level, policy, resource })).sort();
  const sections = run.output.split(/^Policies:$/m).slice(1);
  if (expected.length > 0) expect(sections.length, run.output).toBeGreaterThan(0);
  for (const section of sections) expect(printedViolations(section).map(key).sort(), run.output).toEqual(wanted);
  // None printed outside those sections either.
  expect(run.violations.length, run.output).toBe(wanted.length * sections.length);
  for (const violation of run.violations) expect(violation.type).toBe(stack.sourceType);
  for (const [level, policy, resource, message] of expected) {
    const found = run.violations.find((violation) => key(violation) === key({ level, policy, resource }));
    expect(found?.message, `${level} ${policy} ${resource}`).toContain(message);
  }
}

/**
 * Since the count was reset, the server answered `listings` requests, each a GET of the Sources'
 * list (a check's reading of who holds the declared host names, one a run): nothing else was read,
 * nothing written.
 */
export function expectOnlyListings(server: TestServer, listings: number): void {
  expect(server.requestCount("GET", "/api/v1/sources")).toBe(listings);
  expect(server.requestCount()).toBe(listings);
}

export function policyPackSuite(shape: SourceShape): void {
  let server: TestServer;
  const stacks: PolicyStack[] = [];

  beforeAll(async () => {
    server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  });

  afterAll(async () => {
    for (const stack of stacks) await stack.remove();
    await server?.close();
  }, STEP_TIMEOUT);

  async function declaring(stackName: string, sources: Declarations): Promise<PolicyStack> {
    const stack = await policyStack(shape, stackName, server);
    stacks.push(stack);
    await stack.declare(sources);
    return stack;
  }

  describe(`pulumi preview --policy-pack, ${shape} Sources`, () => {
    it(
      "passes a compliant Source with no violation, and warns without failing on an advisory one",
      async () => {
        const stack = await declaring("compliant", COMPLIANT_AND_ADVISORY);
        const run = await stack.run("preview", { ...CONFIG, "source-allowed-types": { types: ["webfolder", "webproxy"] } });
        expectVerdict(stack, run, true, [
          ["advisory", "source-secure-urls", "proxy", 'Source "proxy": deployment.secureUrlEnabled is false.'],
        ]);
      },
      STEP_TIMEOUT,
    );

    it(
      "fails on each mandatory violation and warns on each advisory one, naming the resource, the path and the rule; nothing is written, the one request check's listing of who holds the declared names",
      async () => {
        const stack = await declaring("violations", VIOLATIONS);
        server.resetRequestCount();
        const preview = await stack.run("preview", CONFIG);
        expectVerdict(stack, preview, false, VIOLATIONS_EXPECTED);
        // The rule itself (the policy's description) is printed with each violation.
        expect(preview.output).toContain("Origins and fallback images are fetched over HTTPS");
        expect(preview.output).not.toContain("secret-img");
        // The provider checks each Source before the policies judge it; checks of new Sources read
        // who holds their host names, one listing of the account a run (docs/provider.md, "Moving
        // domains between Sources").
        expectOnlyListings(server, 1);

        // `pulumi up --yes` previews first, and stops at the same verdict before any Source is created.
        const up = await stack.run("up", CONFIG);
        expectVerdict(stack, up, false, VIOLATIONS_EXPECTED);
        expectOnlyListings(server, 2);
      },
      STEP_TIMEOUT,
    );

    it(
      "skips a value not known during the preview and refuses it once known, before that Source is created; judges a secret without printing it, before the update is sent",
      async () => {
        const stack = await declaring("derived", DERIVED);
        const preview = await stack.run("preview", CONFIG);
        expectVerdict(stack, preview, true, []);

        // Each Source is judged as the update reaches it (no preview first): `origin` is created, `mirror` never is.
        server.resetRequestCount();
        const up = await stack.run("up --skip-preview", CONFIG);
        expectVerdict(stack, up, false, [
          ["mandatory", "source-https-origins", "mirror", 'Source "mirror": deployment.webfolderBaseUrl is an http:// URL.'],
          ["mandatory", "source-custom-domain-suffixes", "mirror", 'Source "mirror": deployment.customDomains[0] is not under example.com'],
        ]);
        expect(server.requestCount("POST", "/api/v1/sources")).toBe(1);

        await stack.declare(DERIVED_SECRET);
        server.resetRequestCount();
        const secret = await stack.run("up --skip-preview", CONFIG);
        expectVerdict(stack, secret, false, [
          ["mandatory", "source-https-origins", "origin", 'Source "origin": deployment.webfolderBaseUrl is an http:// URL.'],
        ]);
        expect(secret.output).not.toContain(SECRET_PATH);
        expect(server.requestCount("PATCH")).toBe(0);
        expect(server.requestCount("POST")).toBe(0);
      },
      STEP_TIMEOUT,
    );
  });

  describe(`policy config per stack (--policy-pack-config), ${shape} Sources`, () => {
    it(
      "changes a policy's level and its parameters",
      async () => {
        const stack = await declaring("levels", LEVELS);
        const advisory = await stack.run("preview", { all: "advisory", "source-custom-domain-suffixes": { suffixes: ["example.com"] } });
        expectVerdict(stack, advisory, true, [
          ["advisory", "source-https-origins", "origin", "deployment.webfolderBaseUrl is an http:// URL"],
          ["advisory", "source-custom-domain-suffixes", "domain", "deployment.customDomains[0] is not under example.com"],
          ["advisory", "source-secure-urls", "unsigned", "deployment.secureUrlEnabled is false"],
        ]);

        const widened = await stack.run("preview", {
          "source-https-origins": "disabled",
          "source-custom-domain-suffixes": { suffixes: ["example.com", "elsewhere.net"] },
        });
        expectVerdict(stack, widened, true, [["advisory", "source-secure-urls", "unsigned", "deployment.secureUrlEnabled is false"]]);

        const strict = await stack.run("preview", { "source-https-origins": "disabled", "source-secure-urls": "mandatory" });
        expectVerdict(stack, strict, false, [["mandatory", "source-secure-urls", "unsigned", "deployment.secureUrlEnabled is false"]]);
      },
      STEP_TIMEOUT,
    );
  });
}
