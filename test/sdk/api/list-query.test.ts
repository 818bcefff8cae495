// List parameters (spec 4.1): the one encoding the client writes and the server parses.
import { describe, expect, it } from "vitest";
import {
  encodeListQuery,
  MAX_PAGE_NUMBER,
  MAX_PAGE_SIZE,
  paginationFor,
  parseListQuery,
  reportListSpec,
  selectFields,
  sourceListSpec,
} from "@asset-delivery/sdk";

const parse = (params: Record<string, string>) => parseListQuery(sourceListSpec, params);

describe("encodeListQuery", () => {
  it("writes filter, or:, sort, fields and page parameters", () => {
    const params = encodeListQuery(sourceListSpec, {
      filter: { name: "cdn", enabled: false },
      or: { "deployment.type": "s3" },
      sort: ["-name", "enabled"],
      fields: ["name", "deployment.type"],
      page: { number: 2, size: 10 },
    });
    expect(params.toString()).toBe(
      "filter%5Bname%5D=cdn&filter%5Benabled%5D=false&filter%5Bor%3Adeployment.type%5D=s3&sort=-name%2Cenabled&fields%5Bsources%5D=name%2Cdeployment.type&page%5Bnumber%5D=2&page%5Bsize%5D=10",
    );
  });

  it("writes nothing for an empty query", () => {
    expect(encodeListQuery(sourceListSpec).toString()).toBe("");
  });
});

describe("parseListQuery", () => {
  it("round-trips what the client encodes", () => {
    const params = encodeListQuery(sourceListSpec, {
      filter: { enabled: true },
      or: { name: "a", "deployment.service_subdomains": "b" },
      sort: ["-date_deployed"],
      page: { number: 1, size: 5 },
    });
    const parsed = parse(Object.fromEntries(params));
    expect(parsed).toEqual({
      ok: true,
      query: {
        all: [{ field: "enabled", kind: { kind: "boolean" }, value: true }],
        any: [
          { field: "name", kind: { kind: "substring" }, value: "a" },
          { field: "deployment.service_subdomains", kind: { kind: "substring-any" }, value: "b" },
        ],
        sort: [{ field: "date_deployed", descending: true }],
        fields: null,
        page: { number: 1, size: 5 },
      },
    });
  });

  it("defaults to page 0 of size 20", () => {
    expect(parse({})).toMatchObject({ ok: true, query: { page: { number: 0, size: 20 } } });
  });

  it("ignores unknown filters and keeps fields as given (unknown names are ignored later)", () => {
    expect(parse({ "filter[colour]": "red", "fields[sources]": "name, nothing" })).toMatchObject({
      ok: true,
      query: { all: [], fields: ["name", "nothing"] },
    });
  });

  it.each([
    [{ "page[size]": "0" }, "page[size]", `must be an integer from 1 to ${MAX_PAGE_SIZE}`],
    [{ "page[size]": String(MAX_PAGE_SIZE + 1) }, "page[size]", `must be an integer from 1 to ${MAX_PAGE_SIZE}`],
    [{ "page[number]": "-1" }, "page[number]", `must be an integer from 0 to ${MAX_PAGE_NUMBER} (pages are zero-indexed)`],
    [
      { "page[number]": "99999999999999999999" },
      "page[number]",
      `must be an integer from 0 to ${MAX_PAGE_NUMBER} (pages are zero-indexed)`,
    ],
    [{ sort: "deployment.type" }, "sort", '"deployment.type": sorting on nested fields is not supported'],
    [{ sort: "-secure_url_token" }, "sort", '"secure_url_token" is not sortable; sort by date_deployed, enabled, name'],
    [{ "filter[enabled]": "yes" }, "filter[enabled]", "must be true or false"],
    [{ "filter[deployment.type]": "s3c" }, "filter[deployment.type]", "must be one of azure, gcs, s3, webfolder, webproxy, s3_compatible"],
  ])("rejects %j", (params, parameter, message) => {
    expect(parse(params)).toEqual({ ok: false, issues: [{ parameter, message }] });
  });

  it("accepts every listed sort and both directions", () => {
    expect(parse({ sort: "date_deployed,-enabled,name" })).toMatchObject({ ok: true });
    expect(parseListQuery(reportListSpec, { sort: "-period_end,report_key", "filter[report_type]": "mild_errors" })).toMatchObject({
      ok: true,
    });
    expect(parseListQuery(reportListSpec, { "filter[report_type]": "daily" })).toMatchObject({ ok: false });
  });
});

describe("paginationFor and selectFields", () => {
  it("describes a middle page and the last one", () => {
    expect(paginationFor({ number: 1, size: 3 }, 7)).toEqual({
      currentPage: 1,
      hasNextPage: true,
      hasPreviousPage: true,
      nextPage: 2,
      pageSize: 3,
      previousPage: 0,
      totalPages: 3,
      totalRecords: 7,
    });
    expect(paginationFor({ number: 2, size: 3 }, 7)).toMatchObject({ hasNextPage: false, nextPage: 2 });
  });

  it("keeps selected attributes, nested by dot notation", () => {
    const attributes = { name: "x", enabled: true, deployment: { type: "s3", default_params: { w: 1 }, s3_bucket: "b" } };
    expect(selectFields(attributes, ["name", "deployment.default_params", "deployment.type", "unknown"])).toEqual({
      name: "x",
      deployment: { default_params: { w: 1 }, type: "s3" },
    });
    expect(selectFields(attributes, null)).toBe(attributes);
  });
});
