// Every value rule of a deployment (spec 2.3 and 8), each with a failing and a passing case, as
// a create request would meet them.
import { describe, expect, it } from "vitest";
import { MAX_TTL_SECONDS, sourceCreateAttributesSchema, type DeploymentInput } from "@asset-delivery/sdk";
import { issuesOf } from "../../support/schema-issues";

const WEBPROXY: DeploymentInput = { type: "webproxy", service_subdomains: ["photos"] };
const WEBFOLDER: DeploymentInput = {
  type: "webfolder",
  service_subdomains: ["photos"],
  webfolder_base_url: "https://origin.example.com/img/",
};

/** Issues of a create request whose deployment is `base` plus `fields`. */
function deploymentIssues(fields: Record<string, unknown>, base: object = WEBPROXY): string[] {
  return issuesOf(sourceCreateAttributesSchema, { name: "Photos", deployment: { ...base, ...fields } });
}
function parsedDeployment(deployment: DeploymentInput) {
  return sourceCreateAttributesSchema.parse({ name: "Photos", deployment }).deployment as Record<string, unknown>;
}

describe("TTLs", () => {
  it("cache_ttl_error: 1 to 31536000 seconds, default 300", () => {
    const rule = "deployment.cache_ttl_error: must be from 1 to 31536000 seconds";
    expect(deploymentIssues({ cache_ttl_error: 0 })).toEqual([rule]);
    expect(deploymentIssues({ cache_ttl_error: MAX_TTL_SECONDS + 1 })).toEqual([rule]);
    expect(deploymentIssues({ cache_ttl_error: 1.5 })).toEqual(["deployment.cache_ttl_error: must be an integer number of seconds"]);
    expect(deploymentIssues({ cache_ttl_error: "300" })).toEqual(["deployment.cache_ttl_error: must be an integer number of seconds"]);
    expect(deploymentIssues({ cache_ttl_error: 1 })).toEqual([]);
    expect(deploymentIssues({ cache_ttl_error: MAX_TTL_SECONDS })).toEqual([]);
    expect(parsedDeployment(WEBPROXY).cache_ttl_error).toBe(300);
  });

  it("cache_ttl_value: 1800 to 31536000 seconds, default 31536000", () => {
    const rule = "deployment.cache_ttl_value: must be from 1800 to 31536000 seconds";
    expect(deploymentIssues({ cache_ttl_value: 1799 })).toEqual([rule]);
    expect(deploymentIssues({ cache_ttl_value: MAX_TTL_SECONDS + 1 })).toEqual([rule]);
    expect(deploymentIssues({ cache_ttl_value: 1800 })).toEqual([]);
    expect(parsedDeployment(WEBPROXY).cache_ttl_value).toBe(31_536_000);
  });
});

describe("enums", () => {
  it("cache_ttl_behavior: respect_origin, override_origin or enforce_minimum; default respect_origin", () => {
    expect(deploymentIssues({ cache_ttl_behavior: "always" })).toEqual([
      "deployment.cache_ttl_behavior: must be one of respect_origin, override_origin, enforce_minimum",
    ]);
    for (const value of ["respect_origin", "override_origin", "enforce_minimum"])
      expect(deploymentIssues({ cache_ttl_behavior: value })).toEqual([]);
    expect(parsedDeployment(WEBPROXY).cache_ttl_behavior).toBe("respect_origin");
  });

  it("type: one of the six Source types", () => {
    expect(deploymentIssues({ type: "ftp" })).toEqual([
      "deployment.type: must be one of azure, gcs, s3, webfolder, webproxy, s3_compatible",
    ]);
    expect(deploymentIssues({ type: undefined })).toEqual([
      "deployment.type: must be one of azure, gcs, s3, webfolder, webproxy, s3_compatible",
    ]);
  });

  it("azure_service_type: blob or file", () => {
    const azure = {
      type: "azure",
      service_subdomains: ["a"],
      azure_account: "acct1",
      azure_bucket: "images",
      azure_sas_string: "sv=2024&sig=abc",
    };
    expect(deploymentIssues({ azure_service_type: "queue" }, azure)).toEqual(["deployment.azure_service_type: must be one of blob, file"]);
    expect(deploymentIssues({ azure_service_type: "file" }, azure)).toEqual([]);
  });

  it("booleans default to false and must be booleans", () => {
    const parsed = parsedDeployment(WEBPROXY);
    for (const name of ["crossdomain_xml_enabled", "image_error_append_qs", "image_missing_append_qs", "secure_url_enabled"]) {
      expect(parsed[name]).toBe(false);
      expect(deploymentIssues({ [name]: "yes" })).toEqual([`deployment.${name}: must be true or false`]);
    }
  });
});

describe("names", () => {
  it("service_subdomains: at least one, each a single label, unique", () => {
    expect(deploymentIssues({ service_subdomains: [] })).toEqual(["deployment.service_subdomains: must name at least one subdomain"]);
    expect(deploymentIssues({ service_subdomains: undefined })).toEqual(["deployment.service_subdomains: is required"]);
    expect(deploymentIssues({ service_subdomains: ["photos.example.com"] })[0]).toMatch(
      /^deployment\.service_subdomains\.0: must be a single subdomain label/,
    );
    expect(deploymentIssues({ service_subdomains: ["-photos"] })[0]).toMatch(
      /^deployment\.service_subdomains\.0: must be a single subdomain label/,
    );
    expect(deploymentIssues({ service_subdomains: ["a".repeat(64)] })[0]).toMatch(/^deployment\.service_subdomains\.0:/);
    expect(deploymentIssues({ service_subdomains: ["photos", "PHOTOS"] })).toEqual([
      'deployment.service_subdomains.1: must not repeat "PHOTOS" (names are compared case-insensitively)',
    ]);
    expect(deploymentIssues({ service_subdomains: ["photos", "img-2", "a".repeat(63)] })).toEqual([]);
  });

  it("custom_domains: valid domain names, unique, default []", () => {
    expect(deploymentIssues({ custom_domains: ["localhost"] })[0]).toMatch(/^deployment\.custom_domains\.0: must be a valid domain name/);
    expect(deploymentIssues({ custom_domains: ["images.example.123"] })[0]).toMatch(
      /^deployment\.custom_domains\.0: must be a valid domain name/,
    );
    expect(deploymentIssues({ custom_domains: ["bad_label.example.com"] })[0]).toMatch(
      /^deployment\.custom_domains\.0: must be a valid domain name/,
    );
    expect(deploymentIssues({ custom_domains: ["img.example.com", "IMG.example.com"] })).toEqual([
      'deployment.custom_domains.1: must not repeat "IMG.example.com" (names are compared case-insensitively)',
    ]);
    expect(deploymentIssues({ custom_domains: ["images.example.com", "cdn.example.co.uk"] })).toEqual([]);
    expect(parsedDeployment(WEBPROXY).custom_domains).toEqual([]);
  });
});

describe("URLs", () => {
  it.each(["image_error", "image_missing"])("%s: an absolute URL or null, default null", (name) => {
    const rule = `deployment.${name}: must be an absolute http:// or https:// URL`;
    expect(deploymentIssues({ [name]: "/errors/404.png" })).toEqual([rule]);
    expect(deploymentIssues({ [name]: "ftp://example.com/x.png" })).toEqual([rule]);
    expect(deploymentIssues({ [name]: "https://example.com/x.png" })).toEqual([]);
    expect(deploymentIssues({ [name]: null })).toEqual([]);
    expect(parsedDeployment(WEBPROXY)[name]).toBeNull();
  });

  it("webfolder_base_url: an absolute URL, required", () => {
    expect(deploymentIssues({ webfolder_base_url: "origin.example.com" }, WEBFOLDER)).toEqual([
      "deployment.webfolder_base_url: must be an absolute http:// or https:// URL",
    ]);
    expect(deploymentIssues({ webfolder_base_url: undefined }, WEBFOLDER)).toEqual(["deployment.webfolder_base_url: is required"]);
  });

  it("accepts exactly the URLs of the documented pattern: host name or IPv4, port, printable ASCII", () => {
    const rule =
      "deployment.webfolder_base_url: must be an absolute http:// or https:// URL with a host name or IPv4 address, in printable ASCII (percent-encode other characters)";
    for (const url of ["http://231.253.223.6*", "https://bücher.example/", "http://[::1]/images/"]) {
      expect(deploymentIssues({ webfolder_base_url: url }, WEBFOLDER), url).toEqual([rule]);
    }
    for (const url of [
      "http://127.0.0.1:65535/a.png",
      "https://xn--bcher-kva.example/",
      "https://a.example?x=1",
      "https://a.example/%C3%BC",
    ]) {
      expect(deploymentIssues({ webfolder_base_url: url }, WEBFOLDER), url).toEqual([]);
    }
  });
});

describe("origin authentication of the web types", () => {
  it.each(["username", "password"])("%s: no ':' and no control characters", (name) => {
    expect(deploymentIssues({ [name]: "user:name" })).toEqual([`deployment.${name}: must not contain ":"`]);
    expect(deploymentIssues({ [name]: "user\u0007" })).toEqual([`deployment.${name}: must not contain control characters`]);
    expect(deploymentIssues({ [name]: "user\u0085" })).toEqual([`deployment.${name}: must not contain control characters`]);
    expect(deploymentIssues({ [name]: "Zoë-user_1" })).toEqual([]);
  });

  it.each(["request_handshake", "request_signing_key"])("%s: exactly 32 latin-1 characters", (name) => {
    expect(deploymentIssues({ [name]: "a".repeat(31) })).toEqual([`deployment.${name}: must be exactly 32 characters long`]);
    expect(deploymentIssues({ [name]: "a".repeat(33) })).toEqual([`deployment.${name}: must be exactly 32 characters long`]);
    expect(deploymentIssues({ [name]: "€".repeat(32) })).toEqual([
      `deployment.${name}: must contain only latin-1 characters (U+0000 to U+00FF)`,
    ]);
    expect(deploymentIssues({ [name]: "é".repeat(32) })).toEqual([]);
    expect(deploymentIssues({ [name]: "0123456789abcdef0123456789ABCDEF" }, WEBFOLDER)).toEqual([]);
  });
});

describe("robots.txt", () => {
  it("webproxy accepts only allow-all or disallow-all", () => {
    expect(deploymentIssues({ "robots.txt": "origin" })).toEqual(["deployment.robots.txt: must be one of allow-all, disallow-all"]);
    expect(deploymentIssues({ "robots.txt": "disallow-all" })).toEqual([]);
  });

  it("the other types also accept origin", () => {
    expect(deploymentIssues({ "robots.txt": "origin" }, WEBFOLDER)).toEqual([]);
    expect(deploymentIssues({ "robots.txt": "everything" }, WEBFOLDER)).toEqual([
      "deployment.robots.txt: must be one of origin, allow-all, disallow-all",
    ]);
  });
});

describe("s3_compatible storage_provider", () => {
  const base = {
    type: "s3_compatible",
    service_subdomains: ["a"],
    access_key_id: "AK",
    bucket_name: "bucket",
    endpoint_url: "https://nyc3.example.com",
    region: "nyc3",
    secret_key: "SK",
  };
  it("is one of DigitalOcean, Wasabi, Linode", () => {
    expect(deploymentIssues({ storage_provider: "Backblaze" }, base)).toEqual([
      "deployment.storage_provider: must be one of DigitalOcean, Wasabi, Linode",
    ]);
    expect(deploymentIssues({ storage_provider: "digitalocean" }, base)).toEqual([
      "deployment.storage_provider: must be one of DigitalOcean, Wasabi, Linode",
    ]);
    for (const provider of ["DigitalOcean", "Wasabi", "Linode"]) expect(deploymentIssues({ storage_provider: provider }, base)).toEqual([]);
  });
});

describe("default_params", () => {
  it("keys must be rendering parameters; values strings, numbers or booleans", () => {
    expect(deploymentIssues({ default_params: { w: 400, fit: "crop", auto: "format,compress" } })).toEqual([]);
    expect(deploymentIssues({ default_params: { resize: 400 } })).toEqual([
      'deployment.default_params.resize: "resize" is not a rendering parameter of the URL API',
    ]);
    expect(deploymentIssues({ default_params: { W: 400 } })).toEqual([
      'deployment.default_params.W: "W" is not a rendering parameter of the URL API',
    ]);
    expect(deploymentIssues({ default_params: { w: { value: 1 } } })).toEqual([
      "deployment.default_params.w: must be a string, number or boolean (the value as it would appear in a rendering URL)",
    ]);
    expect(deploymentIssues({ default_params: ["w"] })).toEqual(["deployment.default_params: must be an object of rendering parameters"]);
    expect(parsedDeployment(WEBPROXY).default_params).toEqual({});
  });
});

describe("name", () => {
  it("is required and not blank", () => {
    expect(issuesOf(sourceCreateAttributesSchema, { deployment: WEBPROXY })).toEqual(["name: is required"]);
    expect(issuesOf(sourceCreateAttributesSchema, { name: "  ", deployment: WEBPROXY })).toEqual(["name: must not be blank"]);
  });
});
