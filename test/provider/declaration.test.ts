// The declaration `asset-delivery import` writes for a live Source: what reproduces it, nothing
// that check fills in by itself, and which write-only secrets it holds.
import { describe, expect, it } from "vitest";
import { declarationOf } from "../../provider/src";
import { checkSource } from "../../provider/src/core/check";
import { toApiNames } from "../../provider/src/pulumi-names/source";
import { sourceResource } from "../support/api-documents";

describe("declarationOf", () => {
  it("declares a Source by its non-default fields, adopting it by id", () => {
    const source = sourceResource({
      name: "Shop images",
      deployment: {
        type: "webfolder",
        service_subdomains: ["shop"],
        webfolder_base_url: "https://o.example.com/",
        cache_ttl_error: 60,
        default_params: { auto: "format" },
      },
    });
    expect(declarationOf(source).args).toEqual({
      name: "Shop images",
      deployment: {
        type: "webfolder",
        serviceSubdomains: ["shop"],
        webfolderBaseUrl: "https://o.example.com/",
        cacheTtlError: 60,
        defaultParams: { auto: "format" },
      },
      adoptSourceId: source.id,
    });
  });

  it("declares a disabled Source disabled, and the checked declaration equals the live deployment", () => {
    const source = sourceResource({
      enabled: false,
      deployment: { type: "webproxy", service_subdomains: ["p"], "robots.txt": "disallow-all" },
    });
    const { args } = declarationOf(source);
    expect(args).toMatchObject({ enabled: false, deployment: { type: "webproxy", serviceSubdomains: ["p"], robotsTxt: "disallow-all" } });
    const checked = checkSource(toApiNames(args));
    expect(checked.failures).toEqual([]);
    const inputs = "inputs" in checked ? checked.inputs : undefined;
    expect(inputs).toMatchObject({
      enabled: false,
      deployment: { "robots.txt": "disallow-all", cache_ttl_error: 300, custom_domains: [] },
    });
  });

  it("names the write-only secrets and whether the Source holds them", () => {
    const webfolder = sourceResource({
      deployment: { type: "webfolder", service_subdomains: ["w"], webfolder_base_url: "https://o.example.com/" },
    });
    (webfolder.attributes.deployment as Record<string, unknown>).password_set = true;
    expect(declarationOf(webfolder).secrets).toEqual([
      { field: "password", set: true },
      { field: "requestHandshake", set: false },
      { field: "requestSigningKey", set: false },
    ]);
    const s3 = sourceResource({
      deployment: { type: "s3", service_subdomains: ["s"], s3_bucket: "bucket", s3_access_key: "AKIA", s3_secret_key: "x" },
    });
    expect(declarationOf(s3).secrets).toEqual([
      { field: "uploadCredentials", set: false },
      { field: "s3SecretKey", set: true },
    ]);
  });
});
