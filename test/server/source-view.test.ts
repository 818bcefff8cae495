// The Source resource as a GET and a list page return it, built from the stored row and written
// by the route's compiled serializer: the computed flags, the secure URL token only while secure
// URLs are on, a disabled Source's status, sparse fieldsets, and any text (quotes, backslashes,
// line breaks, U+2028, non-ASCII) returned exactly as it was sent.
import { sourceSchema } from "@asset-delivery/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";
import { minimalDeployment, sourceClient, type SourceClient } from "./fixtures";

const NAME = 'quote " backslash \\ newline \n tab \t';
const ANNOTATION = 'say "hi" \u2028 ünïcode \u{1F600}';

let server: TestServer;
let sources: SourceClient;
beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  sources = sourceClient(server, server.adminKey);
});
afterAll(() => server.close());

describe("a Source as returned", () => {
  it("has the computed flags and any text as sent, in a GET and in a list", async () => {
    const deployment = {
      ...minimalDeployment("webfolder"),
      annotation: ANNOTATION,
      username: "user",
      password: "secret-password",
      default_params: { w: 800, auto: "format", q: 75 },
    };
    const id = await sources.createOk({ name: NAME, deployment });
    const got = await sources.get(id);
    expect(got.status).toBe(200);
    const attributes = got.body.data.attributes;
    expect(attributes).toMatchObject({ name: NAME, enabled: true, deployment_status: "deployed" });
    expect(attributes.deployment).toMatchObject({
      annotation: ANNOTATION,
      password_set: true,
      request_handshake_set: false,
      request_signing_key_set: false,
      default_params: { auto: "format", q: 75, w: 800 },
    });
    expect(attributes.deployment).not.toHaveProperty("password");
    expect(attributes).not.toHaveProperty("secure_url_token");
    expect(sourceSchema.safeParse(got.body.data).success).toBe(true);

    const listed = await sources.list(`filter[name]=${encodeURIComponent("backslash")}`);
    expect(listed.body.data).toEqual([got.body.data]);
  });

  it("has the token while secure URLs are on, and a disabled Source says so", async () => {
    const id = await sources.createOk({ name: "secure", deployment: { ...minimalDeployment("webproxy"), secure_url_enabled: true } });
    expect((await sources.get(id)).body.data.attributes.secure_url_token).toMatch(/^\S+$/);
    expect((await sources.patch(id, { enabled: false })).status).toBe(200);
    expect((await sources.get(id)).body.data.attributes).toMatchObject({ enabled: false, deployment_status: "disabled" });
  });

  it("selects sparse fields, nested ones by dot notation", async () => {
    const id = await sources.createOk({ name: "sparse", deployment: { ...minimalDeployment("webfolder"), password: "p" } });
    const got = await sources.get(id, "fields[sources]=name,deployment.password_set");
    expect(got.body.data.attributes).toEqual({ name: "sparse", deployment: { password_set: true } });
  });
});
