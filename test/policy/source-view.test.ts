// The one view of a Source: the same declaration reads the same whether the dynamic Source or the
// native resource declares it; absent fields read as the API's defaults; values not known during
// a preview read as UNKNOWN, each on its own.
import { describe, expect, it } from "vitest";
import { deploymentFieldsByType, SOURCE_TYPES } from "@asset-delivery/sdk";
import { sourceViewOf, UNKNOWN, URL_FIELDS, urlFields, type SourceView } from "@asset-delivery/policy";
import { analyzed, resourceOf, SHAPES, UNKNOWN_VALUE, type Declaration } from "./analyzed-source";

const SIGNING_KEY = "k".repeat(32);

function viewOf(shape: (typeof SHAPES)[number], declaration: Declaration): SourceView {
  const view = sourceViewOf(resourceOf(shape, "photos", declaration));
  if (view === undefined) throw new Error("not recognised as a Source");
  return view;
}

describe.each(SHAPES)("the %s Source", (shape) => {
  it("is recognised by its type token and named by its resource", () => {
    const view = viewOf(shape, { name: "Photos", deployment: { type: "webproxy", serviceSubdomains: ["photos"] } });
    expect(view.shape).toBe(shape);
    expect(view.resource.name).toBe("photos");
    expect(view.resource.urn).toContain("::photos");
    expect(view.displayName).toBe("Photos");
    expect(view.type).toBe("webproxy");
  });

  it("reads declared fields, and the API's defaults for the type where none is declared", () => {
    const view = viewOf(shape, {
      name: "Photos",
      deployment: { type: "webfolder", serviceSubdomains: ["photos"], webfolderBaseUrl: "https://o.example.com/", cacheTtlValue: 3600 },
    });
    expect(view.field("webfolder_base_url")).toBe("https://o.example.com/");
    expect(view.field("cache_ttl_value")).toBe(3600);
    expect(view.field("secure_url_enabled")).toBe(false);
    expect(view.field("custom_domains")).toEqual([]);
    expect(view.field("image_error")).toBeNull();
    // A field of another type is not this Source's.
    expect(view.field("endpoint_url")).toBeUndefined();
  });

  it("reads a write-only field (a secret) where either shape keeps it", () => {
    const view = viewOf(shape, {
      name: "Proxy",
      deployment: { type: "webproxy", serviceSubdomains: ["proxy"], requestSigningKey: SIGNING_KEY },
    });
    expect(view.field("request_signing_key")).toBe(SIGNING_KEY);
  });

  it("reads a value not known during a preview as UNKNOWN, and the Source's other values as known", () => {
    const view = viewOf(shape, {
      name: UNKNOWN_VALUE,
      deployment: {
        type: "webfolder",
        serviceSubdomains: ["photos"],
        webfolderBaseUrl: UNKNOWN_VALUE,
        imageError: "http://o.example.com/e.png",
      },
    });
    expect(view.displayName).toBe(UNKNOWN);
    expect(view.field("webfolder_base_url")).toBe(UNKNOWN);
    expect(view.field("image_error")).toBe("http://o.example.com/e.png");
  });

  it("reads a list holding a value not known yet as UNKNOWN", () => {
    const view = viewOf(shape, {
      name: "Photos",
      deployment: { type: "webproxy", serviceSubdomains: ["photos"], customDomains: ["a.example.com", UNKNOWN_VALUE] },
    });
    expect(view.field("custom_domains")).toBe(UNKNOWN);
  });

  it("reads every field as UNKNOWN while the type is not known", () => {
    const view = viewOf(shape, { name: "Photos", deployment: { type: UNKNOWN_VALUE, serviceSubdomains: ["photos"] } });
    expect(view.type).toBe(UNKNOWN);
    expect(view.field("secure_url_enabled")).toBe(UNKNOWN);
  });

  it("reads a secret not known yet as UNKNOWN", () => {
    const view = viewOf(shape, {
      name: "Proxy",
      deployment: { type: "webproxy", serviceSubdomains: ["proxy"], requestSigningKey: UNKNOWN_VALUE },
    });
    expect(view.field("request_signing_key")).toBe(UNKNOWN);
  });
});

describe("the shapes", () => {
  it("give the same view of the same declaration", () => {
    const declaration = {
      name: "Assets",
      deployment: {
        type: "s3_compatible",
        serviceSubdomains: ["assets"],
        customDomains: ["assets.example.com"],
        accessKeyId: "AKIAEXAMPLE",
        bucketName: "assets",
        endpointUrl: "https://nyc3.example.com",
        region: "nyc3",
        secretKey: "secret-key-value",
        storageProvider: "DigitalOcean",
        secureUrlEnabled: true,
      },
    };
    const [dynamic, native] = SHAPES.map((shape) => viewOf(shape, declaration));
    for (const field of ["endpoint_url", "secret_key", "custom_domains", "secure_url_enabled", "cache_ttl_value", "robots.txt"] as const)
      expect(dynamic!.field(field)).toEqual(native!.field(field));
    expect(dynamic!.displayName).toBe(native!.displayName);
  });

  it("leave other resources alone, a plain dynamic resource included", () => {
    const props = { name: "Photos", deployment: { type: "webproxy", serviceSubdomains: ["x"] } };
    expect(sourceViewOf(analyzed("pulumi-nodejs:dynamic:Resource", "other", props))).toBeUndefined();
    expect(sourceViewOf(analyzed("aws:s3/bucket:Bucket", "bucket", props))).toBeUndefined();
  });
});

describe("urlFields", () => {
  it("are every field whose rule in the sdk's table is the API's URL rule", () => {
    // A URL rule takes an absolute https:// URL and refuses a bare host name.
    const urlLike = SOURCE_TYPES.flatMap((type) =>
      Object.entries<{ safeParse(value: unknown): { success: boolean } }>(deploymentFieldsByType[type])
        .filter(([, rule]) => rule.safeParse("https://origin.example.com/").success && !rule.safeParse("origin.example.com").success)
        .map(([name]) => name),
    );
    expect([...new Set(urlLike)].sort()).toEqual([...URL_FIELDS].sort());
  });

  it("are the URL fields the issue names, per type", () => {
    expect(urlFields("webfolder").sort()).toEqual(["image_error", "image_missing", "webfolder_base_url"]);
    expect(urlFields("s3_compatible").sort()).toEqual(["endpoint_url", "image_error", "image_missing"]);
    expect(urlFields("webproxy").sort()).toEqual(["image_error", "image_missing"]);
  });
});
