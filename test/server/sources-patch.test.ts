// PATCH /api/v1/sources/:id (spec 4.2): id and type mandatory and matching, omitted attributes
// kept, lists and objects replaced whole, secrets kept or cleared, a type change requires the new
// type's secrets, and a rejected PATCH changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startTestServer, type TestServer } from "../support/server";
import { minimalDeployment, sourceClient, uniqueLabel, type SourceClient } from "./fixtures";

let server: TestServer;
let sources: SourceClient;
beforeAll(async () => {
  server = await startTestServer();
  sources = sourceClient(server, server.adminKey);
});
afterAll(() => server.close());

async function current(id: string) {
  const response = await sources.get(id);
  expect(response.status).toBe(200);
  return response.body.data.attributes;
}

describe("PATCH document", () => {
  it("requires id and type, and the id must match the URL", async () => {
    const id = await sources.createOk({ name: "doc", deployment: minimalDeployment("webproxy") });
    const url = `${server.url}/api/v1/sources/${id}`;
    const noId = await apiRequest(url, {
      method: "PATCH",
      key: server.adminKey,
      body: { data: { type: "sources", attributes: { name: "x" } } },
    });
    expect(noId.status).toBe(400);
    expect(noId.body.errors[0].source.pointer).toBe("/data/id");
    const noType = await apiRequest(url, { method: "PATCH", key: server.adminKey, body: { data: { id, attributes: { name: "x" } } } });
    expect(noType.status).toBe(400);
    expect(noType.body.errors[0].source.pointer).toBe("/data/type");
    const otherId = await apiRequest(url, {
      method: "PATCH",
      key: server.adminKey,
      body: { data: { type: "sources", id: "A".repeat(24), attributes: { name: "x" } } },
    });
    expect(otherId.status).toBe(400);
    expect(otherId.body.errors[0]).toMatchObject({ title: "ValidationError", source: { pointer: "/data/id" } });
    expect(otherId.body.errors[0].detail).toContain(id);
    expect((await current(id)).name).toBe("doc");
  });

  it("answers 404 for an unknown id", async () => {
    const response = await sources.patch("Z".repeat(24), { name: "ghost" });
    expect(response.status).toBe(404);
    expect(response.body.errors[0]).toMatchObject({ title: "NotFound", detail: `Source "${"Z".repeat(24)}" was not found.` });
  });
});

describe("PATCH semantics", () => {
  it("keeps omitted attributes", async () => {
    const id = await sources.createOk({ name: "keep", deployment: { ...minimalDeployment("webproxy"), cache_ttl_error: 60 } });
    const before = await current(id);
    const response = await sources.patch(id, { name: "renamed" });
    expect(response.status).toBe(200);
    expect(response.body.data.attributes).toEqual({ ...before, name: "renamed" });
  });

  it("an empty PATCH changes nothing", async () => {
    const id = await sources.createOk({ name: "same", deployment: minimalDeployment("webproxy") });
    const before = await current(id);
    const response = await sources.patch(id, {});
    expect(response.body.data.attributes).toEqual(before);
  });

  it("replaces whole lists and objects, and a supplied deployment takes defaults for what it omits", async () => {
    const label = uniqueLabel();
    const id = await sources.createOk({
      name: "replace",
      deployment: {
        ...minimalDeployment("webproxy", label),
        custom_domains: ["a.example.com", "b.example.com"],
        default_params: { w: 100, h: 50 },
        cache_ttl_error: 60,
      },
    });
    const response = await sources.patch(id, {
      deployment: { type: "webproxy", service_subdomains: [label], custom_domains: ["c.example.com"], default_params: { fit: "crop" } },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.attributes.deployment).toMatchObject({
      custom_domains: ["c.example.com"],
      default_params: { fit: "crop" },
      cache_ttl_error: 300,
    });
  });

  it("keeps omitted secrets of the same type, replaces supplied ones and clears null ones", async () => {
    const deployment = { ...minimalDeployment("webfolder"), username: "user", password: "pass", request_signing_key: "k".repeat(32) };
    const id = await sources.createOk({ name: "secrets", deployment });
    const { password, request_signing_key, ...withoutSecrets } = deployment;
    const kept = await sources.patch(id, { deployment: { ...withoutSecrets, cache_ttl_error: 30 } });
    expect(kept.body.data.attributes.deployment).toMatchObject({ password_set: true, request_signing_key_set: true, cache_ttl_error: 30 });
    const cleared = await sources.patch(id, { deployment: { ...withoutSecrets, password: null } });
    expect(cleared.body.data.attributes.deployment).toMatchObject({ password_set: false, request_signing_key_set: true });
    const replaced = await sources.patch(id, { deployment: { ...withoutSecrets, request_handshake: "h".repeat(32) } });
    expect(replaced.body.data.attributes.deployment).toMatchObject({
      password_set: false,
      request_handshake_set: true,
      request_signing_key_set: true,
    });
  });

  it("refuses null for a required secret", async () => {
    const deployment = minimalDeployment("s3");
    const id = await sources.createOk({ name: "required secret", deployment });
    const response = await sources.patch(id, { deployment: { ...deployment, s3_secret_key: null } });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].source.pointer).toBe("/data/attributes/deployment/s3_secret_key");
  });

  it("requires every required secret of the new type when the type changes, naming each", async () => {
    const label = uniqueLabel();
    const id = await sources.createOk({ name: "retype", deployment: minimalDeployment("s3", label) });
    const before = await current(id);
    const { secret_key, ...compatible } = minimalDeployment("s3_compatible", label);
    const refused = await sources.patch(id, { name: "should not stick", deployment: compatible });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveLength(1);
    expect(refused.body.errors[0]).toMatchObject({
      title: "ValidationError",
      source: { pointer: "/data/attributes/deployment/secret_key" },
    });
    expect(refused.body.errors[0].detail).toMatch(/^deployment\.secret_key: is required when the deployment type changes/);
    expect(await current(id)).toEqual(before);

    const accepted = await sources.patch(id, { deployment: { ...compatible, secret_key }, name: "retyped" });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.attributes).toMatchObject({ name: "retyped", deployment: { type: "s3_compatible", region: "nyc3" } });
    expect(accepted.text).not.toContain(secret_key as string);
  });

  it("a type change to a type without required secrets drops the old ones", async () => {
    const label = uniqueLabel();
    const id = await sources.createOk({ name: "to web", deployment: { ...minimalDeployment("webfolder", label), password: "pw" } });
    const response = await sources.patch(id, { deployment: { type: "webproxy", service_subdomains: [label] } });
    expect(response.status).toBe(200);
    expect(response.body.data.attributes.deployment).toMatchObject({ type: "webproxy", password_set: false });
    expect(response.body.data.attributes.deployment.webfolder_base_url).toBeUndefined();
  });

  it("a rejected PATCH changes nothing, even when some attributes were valid", async () => {
    const id = await sources.createOk({ name: "atomic", deployment: minimalDeployment("webproxy") });
    const before = await current(id);
    const taken = uniqueLabel("taken");
    await sources.createOk({ name: "holder", deployment: minimalDeployment("webproxy", taken) });
    const invalid = await sources.patch(id, {
      name: "changed",
      enabled: false,
      deployment: { type: "webproxy", service_subdomains: ["ok"], cache_ttl_value: 5 },
    });
    expect(invalid.status).toBe(400);
    const conflict = await sources.patch(id, { name: "changed", deployment: { type: "webproxy", service_subdomains: [taken] } });
    expect(conflict.status).toBe(400);
    expect(conflict.body.errors[0].source.pointer).toBe("/data/attributes/deployment/service_subdomains/0");
    expect(await current(id)).toEqual(before);
  });

  it("writes the acting key's user into the default annotation of each new deployment", async () => {
    const id = await sources.createOk({ name: "annotations", deployment: { ...minimalDeployment("webproxy"), annotation: "by hand" } });
    const other = sourceClient(server, server.accountKey(["Sources"]));
    const before = await current(id);
    const response = await other.patch(id, { deployment: { ...before.deployment, cache_ttl_error: 10, annotation: undefined } });
    expect(response.body.data.attributes.deployment.annotation).toBe("New deployment created for Source by test-user");
    const annotated = await other.patch(id, { deployment: { ...before.deployment, cache_ttl_error: 11, annotation: "tuned ttl" } });
    expect(annotated.body.data.attributes.deployment.annotation).toBe("tuned ttl");
  });
});
