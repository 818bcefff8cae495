// sources.get/update/findBySubdomain/waitForDeployment against a loopback server.
import { afterEach, describe, expect, it } from "vitest";
import {
  createClient,
  DeploymentTimeoutError,
  NotFoundError,
  RequestValidationError,
  SourceDeletedError,
  type Source,
} from "@asset-delivery/sdk";
import { errorDocument, page, single, sourceResource, WEBFOLDER } from "../../support/api-documents";
import { FakeClock } from "../../support/fake-clock";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("sources.get", () => {
  it("asks for selected fields and returns the partial Source", async () => {
    const source = sourceResource();
    server = await startTestServer((_, res) =>
      sendJson(res, 200, single({ ...source, attributes: { deployment: { default_params: { w: 100 } } } })),
    );
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    const partial = await client.sources.get(source.id, { fields: ["deployment.default_params"] });
    expect(partial.attributes.deployment?.default_params).toEqual({ w: 100 });
    expect(server.requests[0]!.query.get("fields[sources]")).toBe("deployment.default_params");
  });

  it("raises NotFoundError for a missing Source", async () => {
    server = await startTestServer((_, res) => sendJson(res, 404, errorDocument(404, "NotFound", "Source not found")));
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    const error = (await client.sources.get("b".repeat(24)).catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.detail).toBe("Source not found");
  });
});

describe("sources.update", () => {
  it("sends type, id and only the given attributes; secrets may be omitted", async () => {
    const source = sourceResource();
    server = await startTestServer((_, res) => sendJson(res, 200, single(source)));
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    await client.sources.update(source.id, {
      name: "Renamed",
      deployment: {
        type: "s3_compatible",
        service_subdomains: ["photos"],
        access_key_id: "AK",
        bucket_name: "bucket",
        endpoint_url: "https://s3.example.com",
        region: "nyc3",
        storage_provider: "Wasabi",
      },
    });
    const request = server.requests[0]!;
    expect(request.method).toBe("PATCH");
    expect(request.path).toBe(`/api/v1/sources/${source.id}`);
    const body = JSON.parse(request.body) as { data: { type: string; id: string; attributes: Record<string, unknown> } };
    expect(body.data).toMatchObject({ type: "sources", id: source.id, attributes: { name: "Renamed" } });
    expect(body.data.attributes).not.toHaveProperty("enabled");
    expect(body.data.attributes.deployment).not.toHaveProperty("secret_key");
  });

  it("rejects a field of another type, naming it", async () => {
    server = await startTestServer((_, res) => sendJson(res, 500, {}));
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    const error = (await client.sources
      // @ts-expect-error: s3_bucket is not a webproxy field
      .update("c".repeat(24), { deployment: { type: "webproxy", service_subdomains: ["x"], s3_bucket: "b" } })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues.map((i) => `${i.path}: ${i.rule}`)).toEqual(["deployment.s3_bucket: is not a field of this object"]);
    expect(server.requests).toHaveLength(0);
  });
});

describe("sources.findBySubdomain", () => {
  it("checks the exact label among substring matches, case-insensitively, across pages", async () => {
    const near = Array.from({ length: 100 }, (_, i) =>
      sourceResource({ deployment: { ...WEBFOLDER, service_subdomains: [`photos${i}`] } }),
    );
    const wanted = sourceResource({ deployment: { ...WEBFOLDER, service_subdomains: ["cdn", "Photos"] } });
    const all = [...near, wanted];
    server = await startTestServer((req, res) =>
      sendJson(res, 200, page(all, Number(req.query.get("page[number]")), Number(req.query.get("page[size]")))),
    );
    const client = createClient({ baseUrl: server.url, apiKey: "k", pacing: false });
    expect(await client.sources.findBySubdomain("photos")).toEqual(wanted);
    expect(server.requests.map((r) => r.query.get("filter[deployment.service_subdomains]"))).toEqual(["photos", "photos"]);
    expect(server.requests[0]!.query.get("page[size]")).toBe("100");
  });

  it("returns undefined when only longer labels contain it", async () => {
    const all = [sourceResource({ deployment: { ...WEBFOLDER, service_subdomains: ["myphotos"] } })];
    server = await startTestServer((_, res) => sendJson(res, 200, page(all, 0, 100)));
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    expect(await client.sources.findBySubdomain("photos")).toBeUndefined();
  });

  it("rejects something that is not a subdomain label", async () => {
    server = await startTestServer((_, res) => sendJson(res, 200, page([], 0, 100)));
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    await expect(client.sources.findBySubdomain("photos.example.com")).rejects.toThrow(
      /^invalid findBySubdomain argument: label: must be a single subdomain label/,
    );
  });
});

describe("sources.waitForDeployment", () => {
  /** Answers GETs with these attributes in turn (the last one repeats). */
  async function readsServer(reads: Partial<Source["attributes"]>[], enabled = true) {
    const source = sourceResource({ enabled });
    let call = 0;
    server = await startTestServer((_, res) =>
      sendJson(res, 200, single({ ...source, attributes: { ...source.attributes, ...reads[Math.min(call++, reads.length - 1)] } })),
    );
    return { source, server };
  }
  /** Answers GETs with the given statuses in turn (the last one repeats). */
  const statusServer = (statuses: Source["attributes"]["deployment_status"][], enabled = true) =>
    readsServer(
      statuses.map((deployment_status) => ({ deployment_status })),
      enabled,
    );

  it("polls until deployed", async () => {
    const { source, server } = await statusServer(["deploying", "deploying", "deployed"]);
    const clock = new FakeClock();
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock });
    const done = await client.sources.waitForDeployment(source.id, { intervalMs: 2_000 });
    expect(done.attributes.deployment_status).toBe("deployed");
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps.filter((ms) => ms === 2_000)).toHaveLength(2);
  });

  it("stops when its signal is aborted: the sleep between reads ends at once, with the signal's reason, and no read follows", async () => {
    const { source, server } = await statusServer(["deploying"]);
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    const controller = new AbortController();
    const wait = client.sources.waitForDeployment(source.id, { intervalMs: 60_000, timeoutMs: 600_000, signal: controller.signal });
    while (server.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const reason = new Error("cancelled by the caller");
    const abortedAt = Date.now();
    controller.abort(reason);
    await expect(wait).rejects.toBe(reason);
    expect(Date.now() - abortedAt).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });

  const BEFORE = Date.UTC(2026, 0, 1, 12) / 1000; // the date_deployed read before the change

  it.each([
    {
      why: "with deployedBefore, does not trust a deployed read dated no later than it",
      deployedBefore: BEFORE,
      reads: [
        { deployment_status: "deployed", date_deployed: BEFORE }, // the change has not started deploying yet
        { deployment_status: "deployed", date_deployed: BEFORE },
        { deployment_status: "deployed", date_deployed: BEFORE + 2 },
      ],
    },
    {
      why: "with deployedBefore, trusts a deployed read in the same second once it has seen the Source deploying",
      deployedBefore: BEFORE,
      reads: [
        { deployment_status: "deploying", date_deployed: BEFORE },
        { deployment_status: "deployed", date_deployed: BEFORE },
      ],
    },
    {
      why: "after a create (deployedBefore null), the first deployed read counts",
      deployedBefore: null,
      reads: [
        { deployment_status: "deploying", date_deployed: null },
        { deployment_status: "deployed", date_deployed: BEFORE },
      ],
    },
  ] as const)("$why: settles on the last of its reads", async ({ deployedBefore, reads }) => {
    const { source, server } = await readsServer([...reads]);
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    const done = await client.sources.waitForDeployment(source.id, { deployedBefore });
    expect(done.attributes).toMatchObject(reads.at(-1)!);
    expect(server.requests).toHaveLength(reads.length);
  });

  it("takes the write's response as the first read: returned without a request when settled, remembered when deploying", async () => {
    const { source, server } = await readsServer([{ deployment_status: "deployed", date_deployed: BEFORE }]);
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    const written = { ...source, attributes: { ...source.attributes, deployment_status: "deployed" as const, date_deployed: BEFORE + 1 } };
    expect(await client.sources.waitForDeployment(source.id, { deployedBefore: BEFORE, written })).toBe(written);
    expect(server.requests).toHaveLength(0);
    // A response that says deploying: the next deployed read counts, whatever its date.
    const deploying = { ...written, attributes: { ...written.attributes, deployment_status: "deploying" as const, date_deployed: BEFORE } };
    const done = await client.sources.waitForDeployment(source.id, { deployedBefore: BEFORE, written: deploying });
    expect(done.attributes).toMatchObject({ deployment_status: "deployed", date_deployed: BEFORE });
    expect(server.requests).toHaveLength(1);
  });

  it("with deployedBefore, times out naming a deployment older than the change", async () => {
    const { source, server } = await readsServer([{ deployment_status: "deployed", date_deployed: BEFORE }]);
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    const error = (await client.sources
      .waitForDeployment(source.id, { deployedBefore: BEFORE, timeoutMs: 3_000 })
      .catch((e: unknown) => e)) as DeploymentTimeoutError;
    expect(error).toBeInstanceOf(DeploymentTimeoutError);
    expect(error.message).toBe(
      `Source ${source.id} is still "deployed" only by a deployment older than the change after waiting 3000 ms for it to be deployed`,
    );
  });

  it("accepts disabled for a disabled Source", async () => {
    const { source, server } = await statusServer(["deploying", "disabled"], false);
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    expect((await client.sources.waitForDeployment(source.id)).attributes.deployment_status).toBe("disabled");
  });

  it("times out saying what it waited for and how long", async () => {
    const { source, server } = await statusServer(["deploying"]);
    const clock = new FakeClock();
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock });
    const error = (await client.sources
      .waitForDeployment(source.id, { timeoutMs: 10_000, intervalMs: 1_000 })
      .catch((e: unknown) => e)) as DeploymentTimeoutError;
    expect(error).toBeInstanceOf(DeploymentTimeoutError);
    expect(error.message).toBe(`Source ${source.id} is still "deploying" after waiting 10000 ms for it to be deployed`);
    expect(server.requests).toHaveLength(11);
  });

  it("stops when the Source is deleted", async () => {
    const { source, server } = await statusServer(["deploying", "deleted"]);
    const client = createClient({ baseUrl: server.url, apiKey: "k", clock: new FakeClock() });
    await expect(client.sources.waitForDeployment(source.id)).rejects.toBeInstanceOf(SourceDeletedError);
  });

  it("rejects bad wait options", async () => {
    const { source, server } = await statusServer(["deployed"]);
    const client = createClient({ baseUrl: server.url, apiKey: "k" });
    await expect(client.sources.waitForDeployment(source.id, { intervalMs: 0 })).rejects.toThrow(
      "waitForDeployment options: intervalMs: must be > 0",
    );
    // The option of the clock-based rule this replaced is refused by name, not ignored.
    await expect(client.sources.waitForDeployment(source.id, { changedAt: Date.now() } as object)).rejects.toThrow(
      /^invalid waitForDeployment options: .*changedAt/,
    );
    await expect(client.sources.waitForDeployment(source.id, { deployedBefore: 1.5 })).rejects.toThrow(
      /^invalid waitForDeployment options: deployedBefore: /,
    );
  });
});
