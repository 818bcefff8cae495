// Paging over a real server: page chaining, concurrent next(), the cap of all(), fields selection.
import { afterEach, describe, expect, it } from "vitest";
import { createClient, RequestValidationError, ResponseValidationError, type Source, type SourceListQuery } from "@asset-delivery/sdk";
import { page, sourceResource } from "../../support/api-documents";
import { sendJson, startTestServer, type TestServer } from "../../support/http-test-server";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A list endpoint over `all`, paged as the query asks (default size 20). */
async function listServer(all: readonly Source[]) {
  server = await startTestServer((req, res) => {
    const number = Number(req.query.get("page[number]") ?? 0);
    const size = Number(req.query.get("page[size]") ?? 20);
    const fields = req.query.get("fields[sources]");
    const data = fields ? all.map((s) => ({ ...s, attributes: { name: s.attributes.name } })) : all;
    sendJson(res, 200, page(data, number, size));
  });
  return server;
}

const SOURCES = Array.from({ length: 7 }, (_, i) => sourceResource({ name: `Source ${i}` }));
const client = (s: TestServer) => createClient({ baseUrl: s.url, apiKey: "k", pacing: false });

describe("sources.list", () => {
  it("returns one page with its pagination", async () => {
    const s = await listServer(SOURCES);
    const result = await client(s).sources.list({ page: { number: 1, size: 3 } });
    expect(result.data.map((x) => x.attributes.name)).toEqual(["Source 3", "Source 4", "Source 5"]);
    expect(result.pagination).toEqual({
      currentPage: 1,
      hasNextPage: true,
      hasPreviousPage: true,
      nextPage: 2,
      pageSize: 3,
      previousPage: 0,
      totalPages: 3,
      totalRecords: 7,
    });
  });

  it("encodes filter, or, sort, fields and page as the API's parameters", async () => {
    const s = await listServer(SOURCES);
    await client(s).sources.list({
      filter: { "deployment.type": "s3", enabled: true },
      or: { name: "cdn", "deployment.custom_domains": "example.com" },
      sort: ["-date_deployed", "name"],
      fields: ["name", "deployment.default_params"],
      page: { number: 0, size: 50 },
    });
    expect(Object.fromEntries(s.requests[0]!.query)).toEqual({
      "filter[deployment.type]": "s3",
      "filter[enabled]": "true",
      "filter[or:name]": "cdn",
      "filter[or:deployment.custom_domains]": "example.com",
      sort: "-date_deployed,name",
      "fields[sources]": "name,deployment.default_params",
      "page[number]": "0",
      "page[size]": "50",
    });
  });

  it("validates selected fields with the partial schema", async () => {
    const s = await listServer(SOURCES);
    const result = await client(s).sources.list({ fields: ["name"] });
    expect(result.data[0]).toEqual({ id: SOURCES[0]!.id, type: "sources", attributes: { name: "Source 0" } });
  });

  it("rejects a bad query before sending, naming the parameter", async () => {
    const s = await listServer(SOURCES);
    const bad = [
      { page: { size: 0 } },
      { page: { size: 101 } },
      { page: { number: -1 } },
      { sort: ["deployment.type"] },
      { filter: { "deployment.type": "ftp" } },
    ];
    for (const query of bad) {
      const error = await client(s)
        .sources.list(query as SourceListQuery)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
    }
    // The types refuse the same mistakes.
    // @ts-expect-error: sorting on a nested field
    await expect(client(s).sources.list({ sort: ["deployment.type"] })).rejects.toThrow(
      'sort: "deployment.type": sorting on nested fields is not supported',
    );
    // @ts-expect-error: not a source type
    await expect(client(s).sources.list({ filter: { "deployment.type": "ftp" } })).rejects.toThrow(
      "filter[deployment.type]: must be one of",
    );
    const error = (await client(s)
      .sources.list({ page: { size: 0 } })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error.message).toBe("invalid list query: page[size]: must be an integer from 1 to 100");
    expect(s.requests).toHaveLength(0);
  });
});

describe("sources.iterate", () => {
  it("chains 3 pages by hasNextPage/nextPage", async () => {
    const s = await listServer(SOURCES);
    const names: string[] = [];
    for await (const source of client(s).sources.iterate({ page: { size: 3 } })) names.push(source.attributes.name);
    expect(names).toEqual(SOURCES.map((x) => x.attributes.name));
    expect(s.requests.map((r) => r.query.get("page[number]"))).toEqual(["0", "1", "2"]);
    expect(s.requests.every((r) => r.query.get("page[size]") === "3")).toBe(true);
  });

  it("starts at the page asked for", async () => {
    const s = await listServer(SOURCES);
    const names: string[] = [];
    for await (const source of client(s).sources.iterate({ page: { number: 2, size: 3 } })) names.push(source.attributes.name);
    expect(names).toEqual(["Source 6"]);
  });

  it("serves concurrent next() calls in order, fetching each page once", async () => {
    const s = await listServer(SOURCES);
    const iterator = client(s).sources.iterate({ page: { size: 3 } });
    const results = await Promise.all(Array.from({ length: 9 }, () => iterator.next()));
    expect(results.slice(0, 7).map((r) => (r.done ? null : r.value.attributes.name))).toEqual(SOURCES.map((x) => x.attributes.name));
    expect(results.slice(7).every((r) => r.done)).toBe(true);
    expect(s.requests).toHaveLength(3);
  });

  it("stops fetching when the loop breaks", async () => {
    const s = await listServer(SOURCES);
    for await (const source of client(s).sources.iterate({ page: { size: 3 } })) if (source.attributes.name === "Source 1") break;
    expect(s.requests).toHaveLength(1);
  });

  it("refuses a server whose nextPage points back", async () => {
    server = await startTestServer((_, res) => {
      const document = page(SOURCES, 0, 3);
      sendJson(res, 200, { ...document, meta: { ...document.meta, pagination: { ...document.meta.pagination, nextPage: 0 } } });
    });
    const names: string[] = [];
    const error = await (async () => {
      for await (const source of client(server).sources.iterate()) names.push(source.attributes.name);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toContain("meta.pagination.nextPage");
    expect(names).toHaveLength(0);
  });
});

describe("sources.all", () => {
  it("collects every page up to the cap", async () => {
    const s = await listServer(SOURCES);
    expect(await client(s).sources.all({ page: { size: 3 } }, { max: 100 })).toHaveLength(7);
  });

  it("stops at max without fetching further pages", async () => {
    const s = await listServer(SOURCES);
    const some = await client(s).sources.all({ page: { size: 3 } }, { max: 4 });
    expect(some.map((x) => x.attributes.name)).toEqual(["Source 0", "Source 1", "Source 2", "Source 3"]);
    expect(s.requests).toHaveLength(2);
  });

  it("refuses to collect without a cap", async () => {
    const s = await listServer(SOURCES);
    const error = (await client(s)
      // @ts-expect-error: the cap is required
      .sources.all({})
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.message).toContain("max");
    await expect(client(s).sources.all(undefined, { max: 0 })).rejects.toThrow("max: must be >= 1");
    expect(s.requests).toHaveLength(0);
  });
});
