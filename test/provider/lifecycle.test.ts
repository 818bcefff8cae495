// The provider's operations against a real server (no Pulumi engine): what each one sends, how
// many requests it costs, and how it handles deployment, retirement and adoption.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createClient, printable } from "@asset-delivery/sdk";
import { declarationOf } from "../../provider/src";
import { sourceProvider } from "../../provider/src/dynamic/runtime";
import { createSource } from "../../provider/src/core/lifecycle/create";
import { updateSource } from "../../provider/src/core/lifecycle/update";
import type { Session } from "../../provider/src/core/session";
import { declaredAttributes } from "../../provider/src/core/codec";
import { SourceNotReadyError } from "../../provider/src/core/lifecycle/settle";
import { connect } from "../../provider/src/core/connection";
import { pulumiCreator } from "../../provider/src/engine/creator";
import { checkedSource } from "../support/checked-source";
import { configureSourceProvider } from "../support/configured-provider";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;
/** Request bodies the server received, by method. */
const bodies: { method: string; url: string; body: unknown }[] = [];

beforeAll(async () => {
  server = await startTestServer({
    deployDelayMs: 0,
    deployLagMs: 0,
    configure(app) {
      app.addHook("preHandler", (request, _reply, done) => {
        bodies.push({ method: request.method, url: request.url, body: request.body });
        done();
      });
    },
  });
  await configureSourceProvider(server);
});
afterAll(() => server.close());
afterEach(() => {
  server.resetRequestCount();
  bodies.length = 0;
});

/** A session like the provider's own, against another test server; its warnings go to stderr. */
function sessionAgainst(other: TestServer): Session {
  return { ...connect({ baseUrl: other.url, apiKey: other.adminKey }), warn: async (message) => console.warn(message) };
}

let labels = 0;
const label = (prefix: string) => `${prefix}-${++labels}`;

/** Checked inputs of a webfolder Source, as the engine would pass them. */
function webfolder(
  subdomain: string,
  extra: { name?: string; deployment?: Record<string, unknown>; secrets?: Record<string, unknown>; options?: Record<string, unknown> } = {},
) {
  return checkedSource({
    name: extra.name ?? "Photos",
    deployment: {
      type: "webfolder",
      serviceSubdomains: [subdomain],
      webfolderBaseUrl: "https://origin.example.com/images/",
      ...extra.deployment,
    },
    deploymentSecrets: extra.secrets ?? {},
    ...extra.options,
  });
}

const patches = () => bodies.filter((b) => b.method === "PATCH").map((b) => (b.body as { data: { attributes: unknown } }).data.attributes);

describe("create", () => {
  it("POSTs the declared Source and returns every attribute the server has", async () => {
    const subdomain = label("create");
    const inputs = webfolder(subdomain, { secrets: { password: "origin-password" } });
    const { id, outs } = await sourceProvider.create(inputs);
    expect(server.requestCount("POST", "/api/v1/sources")).toBe(1);
    expect(server.requestCount()).toBe(1); // deployed at once: no polling
    expect(outs).toMatchObject({
      name: "Photos",
      enabled: true,
      deploymentStatus: "deployed",
      passwordSet: true,
      requestHandshakeSet: false,
      deployment: { type: "webfolder", serviceSubdomains: [subdomain] },
      deploymentSecrets: { password: "origin-password" },
      waitForDeployment: true,
    });
    expect(outs.deployment).not.toHaveProperty("password");
    expect(outs.deployment).not.toHaveProperty("passwordSet"); // kept once, at the top level
    expect(id).toMatch(/^[A-Za-z0-9]{24}$/);
  });

  it("waits until the Source is deployed", async () => {
    const slow = await startTestServer({ deployDelayMs: 1500 });
    try {
      const session = sessionAgainst(slow);
      const { outs } = await createSource(session, webfolder(label("slow")));
      expect(outs.deployment_status).toBe("deployed");
      expect(slow.requestCount("GET")).toBeGreaterThanOrEqual(2);

      await expect(createSource(session, webfolder(label("slow"), { options: { deploymentTimeoutSeconds: 1 } }))).rejects.toSatisfy(
        (error: unknown) =>
          error instanceof SourceNotReadyError && /^[A-Za-z0-9]{24}$/.test(error.id) && error.properties.deployment_status === "deploying",
      );
      const { outs: unwaited } = await createSource(session, webfolder(label("slow"), { options: { waitForDeployment: false } }));
      expect(unwaited.deployment_status).toBe("deploying");
      await session.close();
    } finally {
      await slow.close();
    }
  });

  it("explains a subdomain held by an enabled Source of the account and how to adopt it", async () => {
    const subdomain = label("taken");
    const { id } = await sourceProvider.create(webfolder(subdomain));
    await expect(sourceProvider.create(webfolder(subdomain, { name: "Other" }))).rejects.toThrow(
      new RegExp(`Source ${id} \\("Photos"\\) holds "${subdomain}": not a Source created for this resource.*adoptSourceId`),
    );
  });
});

describe("a Source named with ESC, BEL and U+202E", () => {
  it("is named escaped when it holds a subdomain a create is refused for", async () => {
    const subdomain = label("hostile");
    const { id } = await sourceProvider.create(webfolder(subdomain, { name: "\u001b]0;owned\u0007 shop \u202egpj.exe" }));
    const refused = await sourceProvider.create(webfolder(subdomain, { name: "Other" })).then(
      () => "created",
      (error: Error) => error.message,
    );
    expect(refused).toContain(`Source ${id} ("\\u001b]0;owned\\u0007 shop \\u202egpj.exe") holds "${subdomain}"`);
    expect(printable(refused)).toBe(refused); // nothing a terminal acts on is left raw
  });
});

describe("update", () => {
  it("sends only a changed name", async () => {
    const before = webfolder(label("rename"));
    const { id, outs } = await sourceProvider.create(before);
    server.resetRequestCount();
    bodies.length = 0;
    const { outs: after } = await sourceProvider.update(id, outs, { ...before, name: "Renamed" });
    expect(patches()).toEqual([{ name: "Renamed" }]);
    expect(server.requestCount()).toBe(1);
    expect(after).toMatchObject({ name: "Renamed", deploymentStatus: "deployed" });
  });

  it("sends a changed deployment whole, with the program's secrets", async () => {
    const subdomain = label("ttl");
    const before = webfolder(subdomain, { secrets: { password: "pw-1" } });
    const { id, outs } = await sourceProvider.create(before);
    bodies.length = 0;
    await sourceProvider.update(
      id,
      outs,
      webfolder(subdomain, { deployment: { cacheTtlError: 60, customDomains: ["img.example.com"] }, secrets: { password: "pw-1" } }),
    );
    const [patch] = patches() as { deployment: Record<string, unknown> }[];
    expect(Object.keys(patch!)).toEqual(["deployment"]);
    expect(patch!.deployment).toMatchObject({
      type: "webfolder",
      cache_ttl_error: 60,
      custom_domains: ["img.example.com"],
      service_subdomains: [subdomain],
      password: "pw-1",
    });
  });

  it("sends a rotated secret", async () => {
    const subdomain = label("rotate");
    const { id, outs } = await sourceProvider.create(webfolder(subdomain, { secrets: { password: "pw-1" } }));
    bodies.length = 0;
    const { outs: after } = await sourceProvider.update(id, outs, webfolder(subdomain, { secrets: { password: "pw-2" } }));
    expect(patches()).toEqual([expect.objectContaining({ deployment: expect.objectContaining({ password: "pw-2" }) })]);
    expect(after).toMatchObject({ deploymentSecrets: { password: "pw-2" }, passwordSet: true });
  });

  it("changes the deployment type in place, same id", async () => {
    const subdomain = label("retype");
    const { id, outs } = await sourceProvider.create(webfolder(subdomain));
    const s3 = checkedSource({
      name: "Photos",
      deployment: { type: "s3", serviceSubdomains: [subdomain], s3AccessKey: "AK", s3Bucket: "bucket" },
      deploymentSecrets: { s3SecretKey: "SK" },
    });
    const { outs: after } = await sourceProvider.update(id, outs, s3);
    expect(after).toMatchObject({ deployment: { type: "s3", s3Bucket: "bucket" }, allowsUpload: false });
    expect(after).not.toHaveProperty("passwordSet");
    expect((await sourceProvider.read(id, after)).id).toBe(id);
  });

  it("waits for the change's deployment when a read right after it still shows the one before", async () => {
    const lagging = await startTestServer({ deployDelayMs: 0, deployLagMs: 600 });
    const session = sessionAgainst(lagging);
    const { client } = session;
    try {
      const subdomain = label("lag");
      const { id, outs } = await createSource(session, webfolder(subdomain));
      expect(outs).toMatchObject({ deployment_status: "deployed" });
      lagging.resetRequestCount();
      const { outs: renamed } = await updateSource(session, id, outs, { ...webfolder(subdomain), name: "Renamed" });
      expect(renamed.date_deployed).toBe(outs.date_deployed); // a rename starts no deployment: nothing to wait for
      expect(lagging.requestCount("GET")).toBe(0);
      const { outs: after } = await updateSource(session, id, renamed, {
        ...webfolder(subdomain, { deployment: { cacheTtlError: 60 } }),
        name: "Renamed",
      });
      expect(lagging.requestCount("GET")).toBeGreaterThanOrEqual(1);
      // The change's own deployment, not the one before it that the PATCH's response still showed.
      expect(after.date_deployed).toBeGreaterThan(outs.date_deployed!);
      expect((await client.sources.get(id)).attributes.date_deployed).toBe(after.date_deployed);
    } finally {
      await client.close();
      await lagging.close();
    }
  });

  it("needs no request when only the way of waiting changes", async () => {
    const before = webfolder(label("options"));
    const { id, outs } = await sourceProvider.create(before);
    server.resetRequestCount();
    const { outs: after } = await sourceProvider.update(id, outs, { ...before, waitForDeployment: false });
    expect(server.requestCount()).toBe(0);
    expect(after).toMatchObject({ waitForDeployment: false, name: "Photos" });
  });
});

describe("read", () => {
  it("reflects the server's values, keeps the declared secrets, and returns inputs that show the drift", async () => {
    const subdomain = label("drift");
    const { id, outs } = await sourceProvider.create(webfolder(subdomain, { secrets: { password: "pw" } }));
    const client = createClient({ baseUrl: server.url, apiKey: server.adminKey });
    const current = await client.sources.get(id);
    await client.sources.update(id, { name: "Changed elsewhere", deployment: { ...current.attributes.deployment, cache_ttl_error: 42 } });
    await client.close();
    server.resetRequestCount();
    const read = await sourceProvider.read(id, outs);
    expect(server.requestCount()).toBe(1);
    expect(read.props).toMatchObject({
      name: "Changed elsewhere",
      deployment: { cacheTtlError: 42 },
      deploymentSecrets: { password: "pw" },
    });
    expect(read.inputs).toMatchObject({
      name: "Changed elsewhere",
      deployment: { cacheTtlError: 42 },
      deploymentSecrets: { password: "pw" },
    });
    expect(read.inputs!.deployment).not.toHaveProperty("annotation");
    expect(read.inputs!.deployment).not.toHaveProperty("passwordSet");
  });

  it("returns no inputs for a Source unchanged since the state was written, so the engine keeps the inputs it has", async () => {
    const { id, outs } = await sourceProvider.create(webfolder(label("same"), { secrets: { password: "pw" } }));
    const settled = await sourceProvider.read(id, outs);
    // The state as the engine passes it back: the outputs and the serialized provider.
    const state = { ...settled.props, __provider: "serialized provider" };
    server.resetRequestCount();
    const again = await sourceProvider.read(id, state);
    expect(again.props).toEqual(settled.props);
    expect(again).not.toHaveProperty("inputs");
    // Asked of the server again (one page of a new listing), not answered from the first read's copy.
    expect(server.requestCount()).toBe(1);

    const client = createClient({ baseUrl: server.url, apiKey: server.adminKey });
    await client.sources.update(id, { enabled: false });
    await client.close();
    const changed = await sourceProvider.read(id, state);
    expect(changed.props).toMatchObject({ enabled: false });
    expect(changed.inputs).toMatchObject({ enabled: false, deploymentSecrets: { password: "pw" } });
  });

  it("drops a Source the server does not have", async () => {
    const { outs } = await sourceProvider.create(webfolder(label("gone")));
    expect(await sourceProvider.read("q".repeat(24), outs)).toEqual({ id: "", props: {} });
  });
});

describe("delete", () => {
  it("retires the Source, warns that its subdomains stay reserved, and a new Source with them adopts it", async () => {
    const subdomain = label("retire");
    const { id, outs } = await sourceProvider.create(webfolder(subdomain));
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    // Restored whatever happens: the files after this one in the worker warn through console.warn too.
    try {
      await sourceProvider.delete(id, outs);
      expect(warnings).toHaveBeenCalledWith(
        expect.stringMatching(new RegExp(`Source ${id} \\("Photos"\\) was retired, not deleted.*"${subdomain}" stay reserved`)),
      );
    } finally {
      warnings.mockRestore();
    }
    const client = createClient({ baseUrl: server.url, apiKey: server.adminKey });
    expect((await client.sources.get(id)).attributes).toMatchObject({ enabled: false, deployment_status: "disabled" });
    await client.close();

    bodies.length = 0;
    const again = await sourceProvider.create(webfolder(subdomain, { name: "Photos again" }));
    expect(again.id).toBe(id);
    expect(again.outs).toMatchObject({ enabled: true, name: "Photos again", deploymentStatus: "deployed" });
    // The refused POST, one lookup per declared hostname, then enabled alone before the change.
    expect(bodies.map((b) => b.method)).toEqual(["POST", "GET", "PATCH", "PATCH"]);
    expect(patches()).toEqual([{ enabled: true }, { name: "Photos again" }]);
  });

  it("tolerates a Source that is already gone", async () => {
    await expect(sourceProvider.delete("q".repeat(24))).resolves.toBeUndefined();
  });
});

describe("adoption of the Source holding the declared hostnames: retired, or created for this resource", () => {
  /** A server whose error objects carry only what the spec promises: no `source` member. */
  let minimal: TestServer;
  let session: Session;
  beforeAll(async () => {
    minimal = await startTestServer({
      deployDelayMs: 0,
      deployLagMs: 0,
      configure(app) {
        app.addHook("onSend", async (_request, _reply, payload) => {
          if (typeof payload !== "string" || !payload.includes('"errors"')) return payload;
          const document = JSON.parse(payload) as { errors: Record<string, unknown>[] };
          return JSON.stringify({ ...document, errors: document.errors.map(({ source: _source, ...error }) => error) });
        });
      },
    });
    session = sessionAgainst(minimal);
  });
  afterAll(async () => {
    await session.close();
    await minimal.close();
  });

  it("finds the holder in a listing of the account, as the hand-over plan does, not by reading the refusal", async () => {
    const subdomain = label("lookup");
    const declared = webfolder(subdomain, { deployment: { customDomains: [`${subdomain}.example.com`] } });
    const retired = await session.client.sources.create({ ...declaredAttributes(declared), enabled: false });
    minimal.resetRequestCount();
    const { id, outs } = await createSource(session, declared);
    expect(id).toBe(retired.id);
    expect(outs).toMatchObject({ enabled: true, deployment_status: "deployed" });
    expect(minimal.requestCount("POST")).toBe(1);
    expect(minimal.requestCount("GET", "/api/v1/sources")).toBe(1); // the account's one page, for both hostnames
    expect(minimal.requestCount("PATCH")).toBe(1); // nothing else differs: enabling is the whole change
  });

  it("names the holders when a hostname belongs to an enabled Source", async () => {
    const subdomain = label("held");
    const domain = `${subdomain}.example.com`;
    const holder = await session.client.sources.create({
      name: "Holder",
      deployment: { type: "webproxy", service_subdomains: [`${subdomain}-other`], custom_domains: [domain] },
    });
    await expect(createSource(session, webfolder(subdomain, { deployment: { customDomains: [domain] } }))).rejects.toThrow(
      new RegExp(`Source ${holder.id} \\("Holder"\\) holds "${domain}": not a Source created for this resource.*adoptSourceId`),
    );
  });

  const urn = (stack: string, name: string) => `urn:pulumi:${stack}::site::pulumi-nodejs:dynamic/assetdelivery:Source::${name}`;
  const by = (stack: string, name: string) => ({ creator: pulumiCreator(urn(stack, name)) });

  it("takes over the Source an interrupted create left for this resource (its create mark), and nothing else", async () => {
    const subdomain = label("killed");
    const declared = webfolder(subdomain);
    const photos = by("prod", "photos");
    // The killed run's create: it landed, Pulumi never recorded it.
    const { marked } = await createdButNotRecorded(declared, photos);
    minimal.resetRequestCount();
    const { id, outs } = await createSource(session, declared, photos);
    expect(id).toBe(marked.id);
    expect(outs).toMatchObject({ name: "Photos", enabled: true, deployment_status: "deployed" });
    expect(minimal.requestCount("PATCH")).toBe(0); // it is already as declared
    expect((await session.client.sources.all({ filter: { "deployment.service_subdomains": subdomain } }, { max: 5 })).length).toBe(1);
  });

  it("refuses the Source of a copied stack: same hostnames and name, another stack's mark", async () => {
    const subdomain = label("copied");
    const prod = await createdButNotRecorded(webfolder(subdomain), by("prod", "photos"));
    await expect(createSource(session, webfolder(subdomain), by("staging", "photos"))).rejects.toThrow(
      new RegExp(`Source ${prod.marked.id} \\("Photos"\\) holds "${subdomain}": not a Source created for this resource`),
    );
    // Without a mark at all (made by hand, or by an older provider), same name is no evidence either.
    const bare = label("bare");
    await session.client.sources.create(declaredAttributes(webfolder(bare)));
    await expect(createSource(session, webfolder(bare), by("prod", "photos"))).rejects.toThrow(/: not a Source created for this resource/);
  });

  it("keeps a declared annotation and adds the mark, which no diff sees", async () => {
    const subdomain = label("annotated");
    const declared = webfolder(subdomain, { deployment: { annotation: "Managed by the web team" } });
    const { outs } = await createSource(session, declared, by("prod", "web"));
    expect(outs.deployment.annotation).toMatch(/^Managed by the web team \[pulumi-create:[0-9a-f]{32}\]$/);
    await expect(sourceProvider.diff("x", outs, declared)).resolves.toMatchObject({ changes: false });
  });

  /** What a create killed once its POST had landed leaves: a Source with the resource's mark, in no state. */
  async function createdButNotRecorded(declared: ReturnType<typeof webfolder>, options: ReturnType<typeof by>) {
    const { id } = await createSource(session, declared, options);
    return { marked: { id } };
  }

  it("raises a refusal with another cause as it is, after finding no holder", async () => {
    const subdomain = label("free");
    const declared = webfolder(subdomain);
    // A Source of another account holds the subdomain: this account cannot see it.
    const other = createClient({ baseUrl: minimal.url, apiKey: minimal.accountKey(["Sources"], "other-account") });
    await other.sources.create({ name: "Elsewhere", deployment: { type: "webproxy", service_subdomains: [subdomain] } });
    await other.close();
    await expect(createSource(session, declared)).rejects.toThrow(/^POST \/api\/v1\/sources failed with 400/);
  });
});

describe("the order of changes (a disabled Source takes no change but being enabled)", () => {
  it("renames and then disables", async () => {
    const before = webfolder(label("disable"));
    const { id, outs } = await sourceProvider.create(before);
    bodies.length = 0;
    const { outs: after } = await sourceProvider.update(id, outs, { ...before, name: "Renamed", enabled: false });
    expect(patches()).toEqual([{ name: "Renamed" }, { enabled: false }]);
    expect(after).toMatchObject({ name: "Renamed", enabled: false, deploymentStatus: "disabled" });
  });

  it("enables alone first, then renames", async () => {
    const before = webfolder(label("enable"), { options: { enabled: false } });
    const { id, outs } = await sourceProvider.create(before);
    expect(outs).toMatchObject({ enabled: false, deploymentStatus: "disabled" });
    bodies.length = 0;
    const { outs: after } = await sourceProvider.update(id, outs, { ...before, name: "Renamed", enabled: true });
    expect(patches()).toEqual([{ enabled: true }, { name: "Renamed" }]);
    expect(after).toMatchObject({ name: "Renamed", enabled: true, deploymentStatus: "deployed" });
  });

  it("changes a Source that stays disabled by enabling it, changing it and disabling it again", async () => {
    const before = webfolder(label("stays"), { options: { enabled: false } });
    const { id, outs } = await sourceProvider.create(before);
    bodies.length = 0;
    const { outs: after } = await sourceProvider.update(id, outs, { ...before, name: "Renamed" });
    expect(patches()).toEqual([{ enabled: true }, { name: "Renamed" }, { enabled: false }]);
    expect(after).toMatchObject({ name: "Renamed", enabled: false, deploymentStatus: "disabled" });
  });

  it("enables or disables alone in one PATCH", async () => {
    const before = webfolder(label("toggle"));
    const { id, outs } = await sourceProvider.create(before);
    bodies.length = 0;
    const { outs: disabled } = await sourceProvider.update(id, outs, { ...before, enabled: false });
    await sourceProvider.update(id, disabled, before);
    expect(patches()).toEqual([{ enabled: false }, { enabled: true }]);
  });
});

describe("adoption by id", () => {
  it("takes over an existing Source and brings it to the declared state in one PATCH", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: server.adminKey });
    const subdomain = label("adopt");
    const existing = await client.sources.create({
      name: "Made by hand",
      deployment: { type: "webfolder", service_subdomains: [subdomain], webfolder_base_url: "https://old.example.com/" },
    });
    await client.close();
    server.resetRequestCount();
    bodies.length = 0;
    const { id, outs } = await sourceProvider.create(webfolder(subdomain, { options: { adoptSourceId: existing.id } }));
    expect(id).toBe(existing.id);
    expect(outs).toMatchObject({
      name: "Photos",
      deployment: { webfolderBaseUrl: "https://origin.example.com/images/" },
      adoptSourceId: existing.id,
    });
    expect(bodies.map((b) => b.method)).toEqual(["GET", "PATCH"]);
    expect(patches()).toEqual([
      { name: "Photos", deployment: expect.objectContaining({ webfolder_base_url: "https://origin.example.com/images/" }) },
    ]);
  });

  it("sends no PATCH for a Source already in the declared state, whatever its type", async () => {
    const client = createClient({ baseUrl: server.url, apiKey: server.adminKey });
    const made = await Promise.all([
      client.sources.create({
        name: "Same webfolder",
        deployment: {
          type: "webfolder",
          service_subdomains: [label("same")],
          webfolder_base_url: "https://o.example.com/",
          password: "pw",
          username: "u",
        },
      }),
      client.sources.create({
        name: "Same s3",
        enabled: false,
        deployment: {
          type: "s3",
          service_subdomains: [label("same")],
          s3_access_key: "AKIA",
          s3_secret_key: "secret",
          s3_bucket: "bucket",
          default_params: { auto: "format" },
        },
      }),
      client.sources.create({
        name: "Same proxy",
        deployment: {
          type: "webproxy",
          service_subdomains: [label("same")],
          custom_domains: [`${label("img")}.example.net`],
          cache_ttl_behavior: "override_origin",
        },
      }),
    ]);
    await client.close();
    bodies.length = 0;
    server.resetRequestCount();
    // Declared as the server has it (as `asset-delivery import` writes it): no secret, which adoption keeps.
    const declared = made.map((source) => checkedSource(declarationOf(source).args));
    const adopted = await Promise.all(declared.map((inputs) => sourceProvider.create(inputs)));
    expect(adopted.map((a) => a.id)).toEqual(made.map((m) => m.id));
    expect(patches()).toEqual([]);
    expect(server.requestCount()).toBe(server.requestCount("GET"));
    expect(server.requestCount()).toBeLessThanOrEqual(3);
  });

  it("names the id when the account has no such Source", async () => {
    await expect(sourceProvider.create(webfolder(label("none"), { options: { adoptSourceId: "n".repeat(24) } }))).rejects.toThrow(
      `adoptSourceId: the account of the API key has no Source "${"n".repeat(24)}"`,
    );
  });
});
