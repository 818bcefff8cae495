// Each policy of the pack run on a Source's properties without a stack (as pulumi-policy-aws tests
// its own), for both shapes: the dynamic Source and the native resource give the same verdicts.
// A violation names the resource, the property path and what to do; a value not known during a
// preview is skipped; a secret's value is never shown.
import { describe, expect, it } from "vitest";
import {
  policies,
  sourceAllowedTypes,
  sourceCacheTtlBounds,
  sourceCustomDomainSuffixes,
  sourceHttpsOrigins,
  sourceSecureUrls,
  sourcesUniqueNames,
  sourceWebproxySigned,
  isUnderSuffix,
} from "@asset-delivery/policy";
import type { PolicyResource, ResourceValidationPolicy } from "@pulumi/policy";
import { analyzed, resourceOf, SHAPES, stackViolations, UNKNOWN_VALUE, violations, type Declaration } from "./analyzed-source";

const SIGNING_KEY = "s".repeat(31) + "!";

/** A Source that every policy of the pack, under any config used here, accepts. */
const compliant: Declaration = {
  name: "Photos",
  deployment: {
    type: "webfolder",
    serviceSubdomains: ["photos"],
    customDomains: ["images.example.com"],
    webfolderBaseUrl: "https://origin.example.com/images/",
    imageMissing: "https://origin.example.com/missing.png",
    cacheTtlValue: 86_400,
    secureUrlEnabled: true,
  },
};

function withDeployment(fields: Record<string, unknown>, name: unknown = compliant.name): Declaration {
  return { name, deployment: { ...compliant.deployment, ...fields } };
}

describe.each(SHAPES)("the %s Source", (shape) => {
  const run = (policy: ResourceValidationPolicy, declaration: Declaration, config?: Record<string, unknown>) =>
    violations(policy, resourceOf(shape, "photos", declaration), config);

  it("passes every resource policy of the pack when compliant", async () => {
    const config = { types: ["webfolder"], suffixes: ["example.com"], min: 3600, max: 604_800 };
    for (const policy of policies.filter((p): p is ResourceValidationPolicy => "validateResource" in p))
      expect(await run(policy, compliant, config), policy.name).toEqual([]);
  });

  describe("source-https-origins", () => {
    it("refuses an http:// origin, naming the resource, the path and how to comply", async () => {
      const found = await run(sourceHttpsOrigins, withDeployment({ webfolderBaseUrl: "http://origin.example.com/images/" }));
      expect(found).toHaveLength(1);
      expect(found[0]).toContain('Source "photos"');
      expect(found[0]).toContain("deployment.webfolderBaseUrl is an http:// URL");
      expect(found[0]).toContain("To comply, serve it over HTTPS");
    });

    it("refuses http:// fallback images, each at its own path", async () => {
      const found = await run(
        sourceHttpsOrigins,
        withDeployment({ imageError: "http://origin.example.com/e.png", imageMissing: "http://origin.example.com/m.png" }),
      );
      expect(found.map((f) => /deployment\.\w+/.exec(f)![0])).toEqual(["deployment.imageError", "deployment.imageMissing"]);
    });

    it("refuses an s3_compatible endpoint over http://", async () => {
      const found = await run(sourceHttpsOrigins, {
        name: "Assets",
        deployment: {
          type: "s3_compatible",
          serviceSubdomains: ["assets"],
          accessKeyId: "AKIAEXAMPLE",
          bucketName: "assets",
          endpointUrl: "http://nyc3.example.com",
          region: "nyc3",
          secretKey: "secret-key-value",
          storageProvider: "DigitalOcean",
        },
      });
      expect(found).toHaveLength(1);
      expect(found[0]).toContain("deployment.endpointUrl is an http:// URL");
    });

    it("skips a URL not known during a preview, and still checks the others", async () => {
      const found = await run(
        sourceHttpsOrigins,
        withDeployment({ webfolderBaseUrl: UNKNOWN_VALUE, imageError: "http://o.example.com/e.png" }),
      );
      expect(found).toHaveLength(1);
      expect(found[0]).toContain("deployment.imageError");
    });
  });

  describe("source-secure-urls", () => {
    it("reports a Source without secure URLs, declared false or left to the API's default", async () => {
      const undeclared = { ...compliant.deployment };
      delete undeclared.secureUrlEnabled;
      for (const declaration of [withDeployment({ secureUrlEnabled: false }), { name: "Photos", deployment: undeclared }]) {
        const found = await run(sourceSecureUrls, declaration);
        expect(found).toHaveLength(1);
        expect(found[0]).toContain('Source "photos": deployment.secureUrlEnabled is false');
        expect(found[0]).toContain("set deployment.secureUrlEnabled: true");
      }
    });

    it("skips a flag not known during a preview", async () => {
      expect(await run(sourceSecureUrls, withDeployment({ secureUrlEnabled: UNKNOWN_VALUE }))).toEqual([]);
    });
  });

  describe("source-webproxy-signed", () => {
    const proxy = (fields: Record<string, unknown>): Declaration => ({
      name: "Proxy",
      deployment: { type: "webproxy", serviceSubdomains: ["proxy"], ...fields },
    });

    it("reports a webproxy Source without a request signing key, and never shows a key", async () => {
      const found = await run(sourceWebproxySigned, proxy({ requestSigningKey: null }));
      expect(found).toHaveLength(1);
      expect(found[0]).toContain("deployment.requestSigningKey is not set on a webproxy Source");
      expect(await run(sourceWebproxySigned, proxy({}))).toHaveLength(1);
      const signed = await run(sourceWebproxySigned, proxy({ requestSigningKey: SIGNING_KEY }));
      expect(signed).toEqual([]);
    });

    it("leaves other types alone, and skips a key not known during a preview", async () => {
      expect(await run(sourceWebproxySigned, compliant)).toEqual([]);
      expect(await run(sourceWebproxySigned, proxy({ requestSigningKey: UNKNOWN_VALUE }))).toEqual([]);
    });
  });

  describe("source-allowed-types", () => {
    it("allows any type without config", async () => {
      expect(await run(sourceAllowedTypes, compliant)).toEqual([]);
    });

    it("refuses a type the config does not list", async () => {
      const found = await run(sourceAllowedTypes, compliant, { types: ["s3", "s3_compatible"] });
      expect(found).toHaveLength(1);
      expect(found[0]).toContain("deployment.type is not a type this stack allows (allowed: s3, s3_compatible)");
      expect(await run(sourceAllowedTypes, compliant, { types: ["webfolder"] })).toEqual([]);
    });

    it("skips a type not known during a preview", async () => {
      expect(await run(sourceAllowedTypes, withDeployment({ type: UNKNOWN_VALUE }), { types: ["s3"] })).toEqual([]);
    });
  });

  describe("source-cache-ttl-bounds", () => {
    it("accepts any TTL the API does without config, and the API's default when none is declared", async () => {
      expect(await run(sourceCacheTtlBounds, withDeployment({ cacheTtlValue: 1800 }))).toEqual([]);
      const undeclared = { ...compliant.deployment };
      delete undeclared.cacheTtlValue;
      expect(await run(sourceCacheTtlBounds, { name: "Photos", deployment: undeclared }, { max: 604_800 })).toEqual([
        expect.stringContaining("deployment.cacheTtlValue is above the maximum of 604800 s"),
      ]);
    });

    it("reports a TTL outside the configured bounds", async () => {
      const found = await run(sourceCacheTtlBounds, withDeployment({ cacheTtlValue: 1800 }), { min: 3600, max: 604_800 });
      expect(found).toEqual([expect.stringContaining("deployment.cacheTtlValue is below the minimum of 3600 s")]);
      expect(found[0]).toContain("set deployment.cacheTtlValue to between 3600 and 604800 seconds");
    });

    it("refuses a config whose min is above its max", async () => {
      await expect(run(sourceCacheTtlBounds, compliant, { min: 7200, max: 3600 })).rejects.toThrow(
        "source-cache-ttl-bounds config: min (7200) must not be greater than max (3600)",
      );
    });

    it("skips a TTL not known during a preview", async () => {
      expect(await run(sourceCacheTtlBounds, withDeployment({ cacheTtlValue: UNKNOWN_VALUE }), { min: 3600 })).toEqual([]);
    });
  });

  describe("source-custom-domain-suffixes", () => {
    it("allows any domain without config", async () => {
      expect(await run(sourceCustomDomainSuffixes, withDeployment({ customDomains: ["img.elsewhere.net"] }))).toEqual([]);
    });

    it("reports each domain outside the suffixes at its index", async () => {
      const found = await run(
        sourceCustomDomainSuffixes,
        withDeployment({ customDomains: ["images.example.com", "img.elsewhere.net", "EXAMPLE.COM", "badexample.com"] }),
        { suffixes: ["example.com"] },
      );
      expect(found.map((f) => /deployment\.customDomains\[\d\]/.exec(f)![0])).toEqual([
        "deployment.customDomains[1]",
        "deployment.customDomains[3]",
      ]);
      expect(found[0]).toContain("deployment.customDomains[1] is not under example.com");
    });

    it("skips domains not known during a preview", async () => {
      const declaration = withDeployment({ customDomains: ["img.elsewhere.net", UNKNOWN_VALUE] });
      expect(await run(sourceCustomDomainSuffixes, declaration, { suffixes: ["example.com"] })).toEqual([]);
    });
  });

  // The engine hands policies every value without its secret mark (a native deployment may be one
  // secret value as a whole: YAML's fn::secret around it), so no message may quote one.
  it("never quotes a declared value in a violation, only its path", async () => {
    const declared: Declaration = {
      name: "Zebra name",
      deployment: {
        type: "webfolder",
        serviceSubdomains: ["zebra-subdomain"],
        customDomains: ["zebra.elsewhere.net"],
        webfolderBaseUrl: "http://zebra-origin.example.org/zebra-path/",
        imageError: "http://zebra-origin.example.org/zebra-error.png",
        cacheTtlValue: 1801,
      },
    };
    const config = { types: ["s3"], suffixes: ["example.com"], min: 3600 };
    const resourcePolicies = policies.filter((p): p is ResourceValidationPolicy => "validateResource" in p);
    const messages = (await Promise.all(resourcePolicies.map((policy) => run(policy, declared, config)))).flat();
    const twins = [resourceOf(shape, "photos", declared), resourceOf(shape, "twin", declared)];
    messages.push(...(await stackViolations(sourcesUniqueNames, twins)).map((found) => found.message));
    // One for each rule the Source breaks: two URLs, the type, the TTL, the domain, the secure URLs, the name twice.
    expect(messages).toHaveLength(8);
    for (const message of messages) {
      expect(message).not.toMatch(/zebra|1801/i);
      expect(message.replace(/webfolderBaseUrl/g, "")).not.toContain("webfolder");
    }
  });
});

describe("isUnderSuffix", () => {
  it("matches the suffix itself and names under it, case-insensitively, not names that merely end alike", () => {
    expect(isUnderSuffix("images.example.com", "example.com")).toBe(true);
    expect(isUnderSuffix("Example.COM", ".example.com")).toBe(true);
    expect(isUnderSuffix("badexample.com", "example.com")).toBe(false);
    expect(isUnderSuffix("example.com.evil.net", "example.com")).toBe(false);
  });
});

describe("sources-unique-names", () => {
  const stack = (entries: [shape: (typeof SHAPES)[number], resourceName: string, name: unknown][]): PolicyResource[] =>
    entries.map(([shape, resourceName, name]) =>
      resourceOf(shape, resourceName, { name, deployment: { type: "webproxy", serviceSubdomains: [resourceName] } }),
    );

  it("reports each Source that shares its display name, across shapes and case, with its URN", async () => {
    const found = await stackViolations(
      sourcesUniqueNames,
      stack([
        ["dynamic", "photos", "Photos"],
        ["native", "photos-native", " photos "],
        ["dynamic", "assets", "Assets"],
      ]),
    );
    expect(found).toHaveLength(2);
    expect(found[0]!.message).toContain('Source "photos": name is the display name of Source "photos-native" too');
    expect(found[0]!.urn).toContain("::photos");
    expect(found[1]!.urn).toContain("::photos-native");
  });

  it("passes distinct names, ignores other resources, and skips names not known during a preview", async () => {
    const resources = [
      ...stack([
        ["dynamic", "photos", "Photos"],
        ["native", "assets", "Assets"],
        ["dynamic", "later", UNKNOWN_VALUE],
      ]),
      analyzed("pulumi-nodejs:dynamic:Resource", "other", { name: "Photos" }),
    ];
    expect(await stackViolations(sourcesUniqueNames, resources)).toEqual([]);
  });
});
