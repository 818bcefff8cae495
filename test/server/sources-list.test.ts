// GET /api/v1/sources (spec 4.1, 4.2): paging, sorting, filtering and sparse fieldsets, in the
// account's own Sources only.
import { MAX_PAGE_SIZE } from "@asset-delivery/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";
import { minimalDeployment, sourceClient, uniqueLabel, type SourceClient } from "./fixtures";

let server: TestServer;
let sources: SourceClient;
const ids: Record<string, string> = {};

// Sources of the fixture account, created in this order.
const FIXTURES: { name: string; enabled: boolean; deployment: () => Record<string, unknown> }[] = [
  { name: "Bravo", enabled: true, deployment: () => minimalDeployment("s3") },
  { name: "alpha", enabled: false, deployment: () => ({ ...minimalDeployment("s3_compatible"), region: "ams3" }) },
  { name: "Charlie 100%", enabled: true, deployment: () => ({ ...minimalDeployment("webfolder"), custom_domains: ["img.shop.example"] }) },
  { name: "delta_x", enabled: false, deployment: () => minimalDeployment("gcs") },
  { name: "echo", enabled: true, deployment: () => ({ ...minimalDeployment("azure"), azure_bucket: "pictures" }) },
];

beforeAll(async () => {
  server = await startTestServer();
  const key = server.accountKey(["Sources"], "lister");
  sources = sourceClient(server, key);
  for (const fixture of FIXTURES) {
    ids[fixture.name] = await sources.createOk({ name: fixture.name, enabled: fixture.enabled, deployment: fixture.deployment() });
  }
  // Another account's Sources never show up.
  await sourceClient(server, server.adminKey).createOk({ name: "alpha of another account", deployment: minimalDeployment("s3") });
});
afterAll(() => server.close());

async function names(query: string): Promise<string[]> {
  const response = await sources.list(query);
  expect(response.status, response.text).toBe(200);
  return response.body.data.map((s: { attributes: { name: string } }) => s.attributes.name);
}

describe("paging", () => {
  it("returns a default page of 20 with the pagination object, in creation order", async () => {
    const response = await sources.list();
    expect(response.body.data.map((s: { id: string }) => s.id)).toEqual(FIXTURES.map((f) => ids[f.name]));
    expect(response.body.meta.pagination).toEqual({
      currentPage: 0,
      hasNextPage: false,
      hasPreviousPage: false,
      nextPage: 0,
      pageSize: 20,
      previousPage: 0,
      totalPages: 1,
      totalRecords: 5,
    });
  });

  it("walks pages of 2 with next/previous, and answers past the end with an empty page", async () => {
    const pages = [];
    for (let number = 0; number < 4; number++) pages.push((await sources.list(`page[size]=2&page[number]=${number}`)).body);
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1, 0]);
    expect(pages[0].meta.pagination).toMatchObject({
      currentPage: 0,
      hasNextPage: true,
      nextPage: 1,
      hasPreviousPage: false,
      totalPages: 3,
      totalRecords: 5,
    });
    expect(pages[2].meta.pagination).toMatchObject({
      currentPage: 2,
      hasNextPage: false,
      nextPage: 2,
      hasPreviousPage: true,
      previousPage: 1,
    });
    expect(pages[3].meta.pagination).toMatchObject({ currentPage: 3, hasNextPage: false, totalPages: 3 });
    expect(new Set(pages.flatMap((p) => p.data.map((s: { id: string }) => s.id))).size).toBe(5);
  });

  it.each([
    ["page[size]=0", "page[size]"],
    [`page[size]=${MAX_PAGE_SIZE + 1}`, "page[size]"],
    ["page[size]=abc", "page[size]"],
    ["page[number]=-1", "page[number]"],
    ["page[number]=1.5", "page[number]"],
  ])("refuses %s with 400 naming the parameter", async (query, parameter) => {
    const response = await sources.list(query);
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({ title: "BadRequest", source: { parameter } });
  });

  it(`accepts page[size]=${MAX_PAGE_SIZE}`, async () => {
    expect((await sources.list(`page[size]=${MAX_PAGE_SIZE}`)).body.meta.pagination.pageSize).toBe(MAX_PAGE_SIZE);
  });
});

describe("sorting", () => {
  it("sorts by name case-insensitively, ascending and descending", async () => {
    expect(await names("sort=name")).toEqual(["alpha", "Bravo", "Charlie 100%", "delta_x", "echo"]);
    expect(await names("sort=-name")).toEqual(["echo", "delta_x", "Charlie 100%", "Bravo", "alpha"]);
  });

  it("sorts booleans false first, then by the next key", async () => {
    expect(await names("sort=enabled,name")).toEqual(["alpha", "delta_x", "Bravo", "Charlie 100%", "echo"]);
    expect(await names("sort=-enabled,-name")).toEqual(["echo", "Charlie 100%", "Bravo", "delta_x", "alpha"]);
  });

  it("sorts by date_deployed (never deployed first), ties broken by id", async () => {
    const response = await sources.list("sort=date_deployed");
    expect(response.status).toBe(200);
    const rows = response.body.data.map(
      (s: { id: string; attributes: { date_deployed: number | null } }) => [s.attributes.date_deployed ?? -1, s.id] as const,
    );
    const expected = [...rows].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
    expect(rows).toEqual(expected);
  });

  it("refuses nested and unknown sort fields", async () => {
    const nested = await sources.list("sort=deployment.type");
    expect(nested.status).toBe(400);
    expect(nested.body.errors[0]).toMatchObject({ source: { parameter: "sort" } });
    expect(nested.body.errors[0].detail).toMatch(/nested/);
    const unknown = await sources.list("sort=colour");
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].detail).toMatch(/date_deployed, enabled, name/);
  });

  it("refuses a repeated key, and a list longer than the sortable fields with one error", async () => {
    const twice = await sources.list("sort=name,-name");
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual([
      expect.objectContaining({ source: { parameter: "sort" }, detail: expect.stringMatching(/"name" is given more than once/) }),
    ]);
    const many = await sources.list(`sort=${Array(2100).fill("name").join(",")}`);
    expect(many.status).toBe(400);
    expect(many.body.errors).toEqual([
      expect.objectContaining({ source: { parameter: "sort" }, detail: expect.stringMatching(/at most 3 keys, each once/) }),
    ]);
    expect(await names("sort=-enabled,name,date_deployed")).toHaveLength(5);
  });
});

describe("filters", () => {
  it("matches substrings case-insensitively, with % and _ taken literally", async () => {
    expect(await names("filter[name]=ALP")).toEqual(["alpha"]);
    expect(await names("filter[name]=100%25")).toEqual(["Charlie 100%"]);
    expect(await names("filter[name]=a_")).toEqual(["delta_x"]);
    expect(await names("filter[name]=%25")).toEqual(["Charlie 100%"]);
  });

  it("filters booleans and refuses other values", async () => {
    expect(await names("filter[enabled]=false")).toEqual(["alpha", "delta_x"]);
    expect((await sources.list("filter[enabled]=yes")).status).toBe(400);
  });

  it("matches deployment.type exactly (s3 is not s3_compatible)", async () => {
    expect(await names("filter[deployment.type]=s3")).toEqual(["Bravo"]);
    const bad = await sources.list("filter[deployment.type]=ftp");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source.parameter).toBe("filter[deployment.type]");
  });

  it("matches a substring of any member of a list", async () => {
    expect(await names("filter[deployment.custom_domains]=SHOP")).toEqual(["Charlie 100%"]);
    const label = (await sources.get(ids["echo"]!)).body.data.attributes.deployment.service_subdomains[0] as string;
    expect(await names(`filter[deployment.service_subdomains]=${label.slice(-6)}`)).toEqual(["echo"]);
  });

  it("filters on type-specific deployment fields", async () => {
    expect(await names("filter[deployment.region]=ams")).toEqual(["alpha"]);
    expect(await names("filter[deployment.azure_bucket]=pict")).toEqual(["echo"]);
    expect(await names("filter[deployment.webfolder_base_url]=images.example")).toEqual(["Charlie 100%"]);
    expect(await names("filter[deployment.storage_provider]=digital")).toEqual(["alpha"]);
    expect(await names("filter[deployment.s3_bucket]=my-")).toEqual(["Bravo"]);
    expect(await names("filter[deployment.gcs_bucket]=gcs")).toEqual(["delta_x"]);
    expect(await names("filter[deployment.bucket_name]=compat")).toEqual(["alpha"]);
  });

  it("combines plain filters with AND and or: filters with OR, both together", async () => {
    expect(await names("filter[enabled]=true&filter[name]=o")).toEqual(["Bravo", "echo"]);
    expect(await names("filter[or:name]=alpha&filter[or:name]=echo")).toEqual(["echo"]); // one value per parameter: the last
    expect(await names("filter[or:deployment.type]=gcs&filter[or:name]=echo")).toEqual(["delta_x", "echo"]);
    expect(await names("filter[enabled]=false&filter[or:deployment.type]=gcs&filter[or:name]=echo")).toEqual(["delta_x"]);
  });

  it("ignores unknown filters", async () => {
    expect(await names("filter[colour]=red&filter[or:nothing]=x")).toHaveLength(5);
  });

  it("ignores names every object inherits, as unknown filters and fields", async () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      expect(await names(`filter[${name}]=x&filter[or:${name}]=y`), name).toHaveLength(5);
      const sparse = await sources.list(`fields[sources]=${name},name`);
      expect(sparse.status, name).toBe(200);
      expect(Object.keys(sparse.body.data[0].attributes), name).toEqual(["name"]);
    }
  });
});

describe("sparse fieldsets", () => {
  it("returns only the requested fields, with dot notation, in lists and single objects", async () => {
    const list = await sources.list("fields[sources]=name,deployment.type,deployment.default_params,unknown&sort=name&page[size]=1");
    expect(list.body.data[0]).toEqual({
      id: ids["alpha"],
      type: "sources",
      attributes: { name: "alpha", deployment: { type: "s3_compatible", default_params: {} } },
    });
    const single = await sources.get(ids["Bravo"]!, "fields[sources]=enabled");
    expect(single.body.data).toEqual({ id: ids["Bravo"], type: "sources", attributes: { enabled: true } });
  });

  it("ignores fields of other types and returns everything without the parameter", async () => {
    const single = await sources.get(ids["Bravo"]!, "fields[reports]=name");
    expect(Object.keys(single.body.data.attributes).sort()).toEqual([
      "date_deployed",
      "deployment",
      "deployment_status",
      "enabled",
      "name",
    ]);
  });
});

it("a Source id of another shape is simply not found", async () => {
  const response = await sources.get(uniqueLabel());
  expect(response.status).toBe(404);
});
