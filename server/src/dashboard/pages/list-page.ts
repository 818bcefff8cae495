// The list pages (Sources, reports) take the API's own list parameters in their query string
// (filter[...], sort, page[...]), parsed by the sdk's parseListQuery: the same filters, sorts and
// paging rules as the API, and the same store queries.
import { paginationFor, parseListQuery, type ListSpec, type ParsedListQuery, type QueryIssue } from "@asset-delivery/sdk";

/** The query as the API would take it, without the empty fields an HTML form sends. */
function listParameters(query: Record<string, unknown>): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    const text: unknown = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof text === "string" && text !== "") parameters[name] = text;
  }
  return parameters;
}

export interface ListRequest {
  parameters: Record<string, string>;
  /** Parameters the API would refuse are named as issues, and the list shows its first page. */
  query: ParsedListQuery;
  issues: QueryIssue[];
}

export function parseListPage(spec: ListSpec, rawQuery: unknown): ListRequest {
  const parameters = listParameters(rawQuery as Record<string, unknown>);
  const parsed = parseListQuery(spec, parameters);
  if (parsed.ok) return { parameters, query: parsed.query, issues: [] };
  const first = parseListQuery(spec, {});
  if (!first.ok) throw new Error(`the default query of ${spec.type} is refused`);
  return { parameters, query: first.query, issues: parsed.issues };
}

/** The pagination object and the links to the neighbouring pages, keeping the other parameters. */
export function pagingOf({ parameters, query }: ListRequest, total: number) {
  const pagination = paginationFor(query.page, total);
  const link = (number: number) => `?${new URLSearchParams({ ...parameters, "page[number]": String(number) }).toString()}`;
  return {
    pagination,
    previous: pagination.hasPreviousPage ? link(pagination.previousPage) : undefined,
    next: pagination.hasNextPage ? link(pagination.nextPage) : undefined,
  };
}
