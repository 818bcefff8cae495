// The native provider object against a real server, without the engine: Cancel stops a wait at
// once (its poll included), the resource's customTimeouts bound the wait and the Source is handed
// back as it is, a preview asks nothing of the server, and a create whose run was killed before the
// engine recorded it is recognised by the next create of the same resource (the request's URN in
// the create mark), but not by another stack's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMark } from "../../provider/src/core/create-mark";
import { pulumiCreator } from "../../provider/src/engine/creator";
import { CancelledError, marksEverySecret, NativeProvider, PartialSourceError } from "../../provider/src/plugin/provider";
import { UNKNOWN, type Properties } from "../../provider/src/plugin/wire";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;
/** While set, a create's response is held (the Source made) until released: a write under way. */
let holdPosts = false;
const held: (() => void)[] = [];

beforeAll(async () => {
  // Deployments that take a minute: every wait below would last that long unless stopped.
  server = await startTestServer({
    deployDelayMs: 60_000,
    deployLagMs: 0,
    configure: (app) =>
      app.addHook("onSend", async (request, _reply, payload) => {
        if (holdPosts && request.method === "POST") await new Promise<void>((release) => held.push(release));
        return payload;
      }),
  });
});

afterAll(async () => {
  await server?.close();
});

async function configured(): Promise<NativeProvider> {
  const provider = new NativeProvider({});
  await provider.configure({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  return provider;
}

const urn = (stack: string, name: string) => `urn:pulumi:${stack}::site::assetdelivery:index:Source::${name}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function inputs(subdomain: string, options: Record<string, unknown> = {}) {
  const checked = new NativeProvider({}).check("assetdelivery:index:Source", {
    values: { name: "Slow", deployment: { type: "webproxy", serviceSubdomains: [subdomain], password: "origin-pass" }, ...options },
    secrets: [],
  });
  expect(checked.failures).toEqual([]);
  return checked.inputs;
}

describe("the native provider", () => {
  it("stops waiting for a deployment when the engine cancels: the create fails at once with the Source it made, and its poll stops", async () => {
    const provider = await configured();
    server.resetRequestCount();
    const create = provider.create(inputs("plugin-cancelled"), { preview: false, timeoutSeconds: 0, urn: urn("prod", "cancelled") });
    while (server.requestCount("POST", "/api/v1/sources") < 1) await sleep(20);
    await sleep(1_500); // waiting: the deployment takes a minute
    const cancelledAt = Date.now();
    provider.cancelWaits();
    const failure = await create.catch((error: unknown) => error);
    expect(Date.now() - cancelledAt).toBeLessThan(1_000);
    // The Source was created: it is handed back with its id, for the engine to record.
    expect(failure).toBeInstanceOf(PartialSourceError);
    const partial = failure as PartialSourceError;
    expect(partial.message).toMatch(/^cancelled: the engine asked the provider to stop/);
    expect(partial.id).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(partial.outputs.values).toMatchObject({ name: "Slow", deploymentStatus: "deploying" });
    expect(partial.outputs.secrets).toContainEqual(["deployment", "password"]);
    // No read of the Source after the Cancel: the core's wait ended, not only the answer to the engine.
    const reads = () => server.requestCount("GET", /^\/api\/v1\/sources\/[A-Za-z0-9]{24}$/);
    const readsAtCancel = reads();
    expect(readsAtCancel).toBeGreaterThan(0);
    await sleep(2_500);
    expect(reads()).toBe(readsAtCancel);
    await provider.close();
  });

  it("answers a write under way when the engine cancels, with the CancelledError", async () => {
    const provider = await configured();
    holdPosts = true;
    const create = provider.create(inputs("plugin-cancelled-posting"), { preview: false, timeoutSeconds: 0, urn: urn("prod", "posting") });
    while (held.length < 1) await sleep(20);
    const cancelledAt = Date.now();
    provider.cancelWaits();
    await expect(create).rejects.toBeInstanceOf(CancelledError);
    expect(Date.now() - cancelledAt).toBeLessThan(1_000);
    holdPosts = false;
    for (const release of held.splice(0)) release();
    await provider.close();
  });

  it("bounds the wait by the resource's customTimeouts and hands the created Source back, its secret marked", async () => {
    const provider = await configured();
    const failure = await provider
      .create(inputs("plugin-timed-out"), { preview: false, timeoutSeconds: 2, urn: urn("prod", "timed-out") })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PartialSourceError);
    const partial = failure as PartialSourceError;
    expect(partial.id).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(partial.message).toContain("deploymentTimeoutSeconds");
    // The state records the declared option, not the bound.
    expect(partial.outputs.values).toMatchObject({ deploymentTimeoutSeconds: 300, deploymentStatus: "deploying" });
    expect(partial.outputs.secrets).toContainEqual(["deployment", "password"]);
    await provider.close();
  });

  it("previews a create with what the server decides unknown, sending nothing", async () => {
    const provider = await configured();
    server.resetRequestCount();
    const { id, outputs } = await provider.create(inputs("plugin-preview"), {
      preview: true,
      timeoutSeconds: 0,
      urn: urn("prod", "preview"),
    });
    expect(id).toBe("");
    expect(outputs.values).toMatchObject({ deploymentStatus: UNKNOWN, dateDeployed: UNKNOWN, name: "Slow" });
    expect(outputs.values.secureUrlToken).toBeUndefined(); // secure URLs are off: no token will come
    expect(server.requestCount()).toBe(0);
    await provider.close();
  });

  it("marks a create with the request's URN, kept out of the state, and takes its Source over when the create is run again", async () => {
    const provider = await configured();
    const declared = inputs("plugin-killed", { waitForDeployment: false });
    // A create that reached the server in a run killed before the engine recorded it.
    const first = await provider.create(declared, { preview: false, timeoutSeconds: 0, urn: urn("prod", "photos") });
    const annotation = () =>
      (server.db.prepare("SELECT json_extract(deployment, '$.annotation') AS a FROM sources WHERE id = ?").get(first.id) as { a: string })
        .a;
    expect(annotation().endsWith(createMark(pulumiCreator(urn("prod", "photos"))))).toBe(true);
    expect(first.outputs.values).not.toHaveProperty("resourceUrn");

    // The rerun, in a new provider process: the same resource takes its own Source over, creating none.
    const rerun = await configured();
    const again = await rerun.create(declared, { preview: false, timeoutSeconds: 0, urn: urn("prod", "photos") });
    expect(again.id).toBe(first.id);
    expect(again.outputs.values).not.toHaveProperty("resourceUrn");
    expect(server.db.prepare("SELECT count(*) AS n FROM sources WHERE deployment LIKE '%plugin-killed%'").get()).toEqual({ n: 1 });

    // Another stack declaring the same Source (a copy of this one) is refused, and changes nothing.
    const before = annotation();
    const copy = await rerun
      .create(declared, { preview: false, timeoutSeconds: 0, urn: urn("staging", "photos") })
      .catch((error: unknown) => error);
    expect(String(copy)).toMatch(/holds "plugin-killed": not a Source created for this resource by an interrupted run/);
    expect(annotation()).toBe(before);
    await Promise.all([provider.close(), rerun.close()]);
  });

  it("gives the engine back its own state and inputs for an unchanged Source, and marks a secret they left unmarked", async () => {
    const provider = await configured();
    const declared = inputs("plugin-refreshed", { waitForDeployment: false });
    const { id, outputs } = await provider.create(declared, { preview: false, timeoutSeconds: 0, urn: urn("prod", "refreshed") });
    expect(outputs.secrets).toContainEqual(["deployment", "password"]);
    // Unchanged, every secret marked: the server sends back the request's own (server.ts).
    expect(await provider.read(id, outputs, declared)).toEqual({ id });
    // A state and inputs recorded before `password` was a secret: both answered, the secret marked.
    const unmarked = ({ values, secrets }: Properties): Properties => ({
      values,
      secrets: secrets.filter((path) => path.join(".") !== "deployment.password"),
    });
    const reread = await provider.read(id, unmarked(outputs), unmarked(declared));
    expect(reread.outputs).toEqual({ values: outputs.values, secrets: expect.arrayContaining([["deployment", "password"]]) });
    expect(reread.inputs).toEqual({ values: declared.values, secrets: expect.arrayContaining([["deployment", "password"]]) });
    // A state whose deployment also holds a copy of the read-only flag (no release wrote one; the
    // recorded states keep the flags at the top level): written again without the copy, as the
    // dynamic shell writes it.
    expect(outputs.values).toHaveProperty("passwordSet", true);
    const deployment = outputs.values.deployment as Record<string, unknown>;
    const legacy = { values: { ...outputs.values, deployment: { ...deployment, passwordSet: true } }, secrets: outputs.secrets };
    expect(await provider.read(id, legacy, declared)).toEqual({ id, outputs: { values: outputs.values, secrets: expect.any(Array) } });
    await provider.close();
  });

  it("refuses an output's name among the arguments, naming it: passwordSet is the service's to say", () => {
    const declared = inputs("plugin-output-argument");
    const checked = new NativeProvider({}).check("assetdelivery:index:Source", {
      values: { ...declared.values, passwordSet: true },
      secrets: declared.secrets,
    });
    expect(checked.failures).toEqual([{ property: "passwordSet", reason: "passwordSet: not a property of a Source" }]);
  });

  it("keeps the engine's properties only when encoding them again would give the same: each secret within a marked path, none nested", () => {
    const values = { name: "X", secureUrlToken: "t", deployment: { type: "s3", s3SecretKey: "k", s3Bucket: "b" } };
    expect(marksEverySecret({ values, secrets: [["secureUrlToken"], ["deployment", "s3SecretKey"]] })).toBe(true);
    expect(marksEverySecret({ values, secrets: [["secureUrlToken"], ["deployment"]] })).toBe(true);
    expect(marksEverySecret({ values, secrets: [["deployment", "s3SecretKey"]] })).toBe(false);
    expect(marksEverySecret({ values: { name: "X", deployment: { type: "webproxy" } }, secrets: [] })).toBe(true);
    expect(marksEverySecret({ values, secrets: [["secureUrlToken"], ["deployment"], ["deployment", "s3SecretKey"]] })).toBe(false);
  });

  it("refuses resourceUrn as a property: the URN is the engine's", () => {
    const checked = new NativeProvider({}).check("assetdelivery:index:Source", {
      values: { name: "X", deployment: { type: "webproxy", serviceSubdomains: ["plugin-urn"] }, resourceUrn: urn("prod", "photos") },
      secrets: [],
    });
    expect(checked.failures).toEqual([{ property: "resourceUrn", reason: "resourceUrn: not a property of a Source" }]);
  });
});
