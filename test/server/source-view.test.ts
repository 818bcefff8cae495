// The Source resource built from the stored row (the GET and list path): the same resource the
// schema describes, with the computed flags, whatever the row holds.
import { deploymentCreateSchema, sourceSchema } from "@asset-delivery/sdk";
import { sourceResource, sparseSourceResource } from "@asset-delivery/server/dist/sources/source-view";
import { describe, expect, it } from "vitest";

// A complete stored deployment: the schema's defaults filled in.
const deployment = deploymentCreateSchema.parse({
  type: "webfolder",
  service_subdomains: ["a"],
  webfolder_base_url: "https://o.example.com/",
  annotation: 'say "hi" \u2028 ünïcode',
}) as Record<string, unknown>;

function row(overrides: Record<string, unknown> = {}) {
  return {
    id: "a".repeat(24),
    account_id: "B".repeat(24),
    deploy_starts_at: 1_799_999_998_000,
    deploy_ready_at: 1_799_999_999_000,
    name: 'quote " backslash \\ newline \n',
    enabled: 1 as const,
    deployment: JSON.stringify(deployment),
    secrets: JSON.stringify({ password: "v1:sealed" }),
    secure_url_token: null,
    deployment_status: "deployed" as const,
    date_deployed: 1_800_000_000,
    ...overrides,
  };
}

describe("sourceResource", () => {
  it("has the computed flags and the token", () => {
    expect(sourceResource(row(), "TOKEN123")).toEqual({
      id: "a".repeat(24),
      type: "sources",
      attributes: {
        name: 'quote " backslash \\ newline \n',
        enabled: true,
        deployment: { ...deployment, password_set: true, request_handshake_set: false, request_signing_key_set: false },
        deployment_status: "deployed",
        date_deployed: 1_800_000_000,
        secure_url_token: "TOKEN123",
      },
    });
  });

  it("has no token while secure URLs are off, and a disabled Source says so", () => {
    const resource = sourceResource(row({ enabled: 0, date_deployed: null }), null);
    expect(resource.attributes).not.toHaveProperty("secure_url_token");
    expect(resource.attributes).toMatchObject({ enabled: false, date_deployed: null });
  });

  it("selects sparse fields from the same resource", () => {
    expect(sparseSourceResource(sourceResource(row(), null), ["name", "deployment.password_set"]).attributes).toEqual({
      name: row().name,
      deployment: { password_set: true },
    });
  });

  it("matches the response schema", () => {
    expect(sourceSchema.safeParse(sourceResource(row(), null)).success).toBe(true);
  });
});
