// List parameters (spec 4.1): which filters and sorts each list accepts, and the one encoding of
// `filter`, `sort`, `fields` and `page` shared by the client (which writes it) and the server (which reads it).
import { REPORT_TYPES } from "./report";
import { SOURCE_TYPES } from "./source";

/** How a filter matches: substring of a string (or of any member of a list), exact value, or boolean. */
export type FilterKind =
  { kind: "substring" } | { kind: "substring-any" } | { kind: "exact"; values: readonly string[] } | { kind: "boolean" };

export interface ListSpec<F extends string = string, S extends string = string> {
  /** The JSON:API type, as used in `fields[<type>]`. */
  type: string;
  filters: Record<F, FilterKind>;
  sorts: readonly S[];
}

export const sourceListSpec = {
  type: "sources",
  filters: {
    "deployment.azure_bucket": { kind: "substring" },
    "deployment.bucket_name": { kind: "substring" },
    "deployment.custom_domains": { kind: "substring-any" },
    "deployment.gcs_bucket": { kind: "substring" },
    "deployment.service_subdomains": { kind: "substring-any" },
    "deployment.region": { kind: "substring" },
    "deployment.s3_bucket": { kind: "substring" },
    "deployment.storage_provider": { kind: "substring" },
    // The spec lists its values, so the type matches exactly (s3 must not match s3_compatible).
    "deployment.type": { kind: "exact", values: SOURCE_TYPES },
    "deployment.webfolder_base_url": { kind: "substring" },
    enabled: { kind: "boolean" },
    name: { kind: "substring" },
  },
  sorts: ["date_deployed", "enabled", "name"],
} as const satisfies ListSpec;

export const reportListSpec = {
  type: "reports",
  filters: {
    completed: { kind: "boolean" },
    report_type: { kind: "exact", values: REPORT_TYPES },
  },
  sorts: ["period_end", "period_start", "report_key", "report_type"],
} as const satisfies ListSpec;

export type FilterFieldOf<L extends ListSpec> = keyof L["filters"] & string;
/** The value a filter takes: one of the listed values, a boolean, or a substring. */
export type FilterValueOf<K> = K extends { kind: "exact"; values: readonly (infer V)[] }
  ? V
  : K extends { kind: "boolean" }
    ? boolean
    : string;
/** A list's filter: a condition per field, each optional (exported so that a type made from it can name it). */
export type FilterConditions<L extends ListSpec> = { [F in FilterFieldOf<L>]?: FilterValueOf<L["filters"][F]> };
export type SortFieldOf<L extends ListSpec> = L["sorts"][number];

export const DEFAULT_PAGE_SIZE = 20;
/** Our documented maximum where the spec says "not shown". */
export const MAX_PAGE_SIZE = 100;
/** Our documented maximum page number: far beyond any list, and keeps offsets exact integers. */
export const MAX_PAGE_NUMBER = 1_000_000;

export interface ListQuery<L extends ListSpec = ListSpec> {
  /** Conditions that must all hold. */
  filter?: FilterConditions<L>;
  /** `or:` conditions: at least one must hold (in addition to every `filter`). */
  or?: FilterConditions<L>;
  /** Sort keys, `-` for descending; applied in order. */
  sort?: ReadonlyArray<SortFieldOf<L> | `-${SortFieldOf<L>}`>;
  /** Fields to return, dot notation for nested ones (e.g. `deployment.default_params`). */
  fields?: readonly string[];
  page?: { number?: number; size?: number };
}

/** Encodes a list query as the API's query parameters. */
export function encodeListQuery<L extends ListSpec>(spec: L, query: ListQuery<L> = {}): URLSearchParams {
  const params = new URLSearchParams();
  for (const [field, value] of Object.entries(query.filter ?? {}))
    if (value !== undefined) params.append(`filter[${field}]`, String(value));
  for (const [field, value] of Object.entries(query.or ?? {})) if (value !== undefined) params.append(`filter[or:${field}]`, String(value));
  if (query.sort?.length) params.set("sort", query.sort.join(","));
  if (query.fields?.length) params.set(`fields[${spec.type}]`, query.fields.join(","));
  if (query.page?.number !== undefined) params.set("page[number]", String(query.page.number));
  if (query.page?.size !== undefined) params.set("page[size]", String(query.page.size));
  return params;
}

export interface FilterCondition {
  field: string;
  kind: FilterKind;
  value: string | boolean;
}

/** A list query as the server applies it. */
export interface ParsedListQuery {
  all: FilterCondition[];
  any: FilterCondition[];
  sort: { field: string; descending: boolean }[];
  /** null: every field. */
  fields: string[] | null;
  page: { number: number; size: number };
}

export interface QueryIssue {
  parameter: string;
  message: string;
}

/**
 * Reads the API's query parameters (as a flat map of names to values) into a list query.
 * Unknown filters and field names are ignored, as the spec says; bad paging or sorting is an issue.
 */
export function parseListQuery(
  spec: ListSpec,
  raw: Record<string, string | string[] | undefined>,
): { ok: true; query: ParsedListQuery } | { ok: false; issues: QueryIssue[] } {
  const issues: QueryIssue[] = [];
  const query: ParsedListQuery = { all: [], any: [], sort: [], fields: null, page: { number: 0, size: DEFAULT_PAGE_SIZE } };
  const single = (name: string): string | undefined => {
    const value = raw[name];
    return Array.isArray(value) ? value[value.length - 1] : value;
  };

  for (const name of Object.keys(raw)) {
    const match = /^filter\[(or:)?([^\]]+)\]$/.exec(name);
    if (!match) continue;
    const field = match[2]!;
    // Own keys only: `filter[constructor]` or `filter[__proto__]` name no filter (and are ignored).
    if (!Object.hasOwn(spec.filters, field)) continue;
    const kind = spec.filters[field]!;
    const text = single(name) ?? "";
    let value: string | boolean = text;
    if (kind.kind === "boolean") {
      if (text !== "true" && text !== "false") {
        issues.push({ parameter: name, message: "must be true or false" });
        continue;
      }
      value = text === "true";
    } else if (kind.kind === "exact" && !kind.values.includes(text)) {
      issues.push({ parameter: name, message: `must be one of ${kind.values.join(", ")}` });
      continue;
    }
    (match[1] ? query.any : query.all).push({ field, kind, value });
  }

  const sort = single("sort");
  const sortKeys = sort === undefined || sort === "" ? [] : sort.split(",");
  // Each sortable field at most once: a longer list repeats one (and would only grow ORDER BY).
  if (sortKeys.length > spec.sorts.length) {
    issues.push({ parameter: "sort", message: `must name at most ${spec.sorts.length} keys, each once (${spec.sorts.join(", ")})` });
  } else {
    const seen = new Set<string>();
    for (const key of sortKeys) {
      const descending = key.startsWith("-");
      const field = descending ? key.slice(1) : key;
      if (field.includes(".")) issues.push({ parameter: "sort", message: `"${field}": sorting on nested fields is not supported` });
      else if (!spec.sorts.includes(field))
        issues.push({ parameter: "sort", message: `"${field}" is not sortable; sort by ${spec.sorts.join(", ")}` });
      else if (seen.has(field)) issues.push({ parameter: "sort", message: `"${field}" is given more than once; name each key once` });
      else query.sort.push({ field, descending });
      seen.add(field);
    }
  }

  const fields = single(`fields[${spec.type}]`);
  if (fields !== undefined)
    query.fields = fields
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean);

  const pageNumber = single("page[number]");
  if (pageNumber !== undefined) {
    if (!/^\d+$/.test(pageNumber) || Number(pageNumber) > MAX_PAGE_NUMBER) {
      issues.push({ parameter: "page[number]", message: `must be an integer from 0 to ${MAX_PAGE_NUMBER} (pages are zero-indexed)` });
    } else query.page.number = Number(pageNumber);
  }
  const pageSize = single("page[size]");
  if (pageSize !== undefined) {
    if (!/^\d+$/.test(pageSize) || Number(pageSize) < 1 || Number(pageSize) > MAX_PAGE_SIZE) {
      issues.push({ parameter: "page[size]", message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` });
    } else query.page.size = Number(pageSize);
  }

  return issues.length ? { ok: false, issues } : { ok: true, query };
}

/** The pagination object of a list page. */
export function paginationFor(page: { number: number; size: number }, totalRecords: number) {
  const totalPages = Math.ceil(totalRecords / page.size);
  const hasNextPage = page.number + 1 < totalPages;
  const hasPreviousPage = page.number > 0;
  return {
    currentPage: page.number,
    hasNextPage,
    hasPreviousPage,
    nextPage: hasNextPage ? page.number + 1 : page.number,
    pageSize: page.size,
    previousPage: hasPreviousPage ? page.number - 1 : 0,
    totalPages,
    totalRecords,
  };
}

/** Keeps only the requested attributes (dot notation reaches one level into objects); unknown names are ignored. */
export function selectFields<A extends Record<string, unknown>>(attributes: A, fields: readonly string[] | null): Partial<A> {
  if (fields === null) return attributes;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const [head, ...rest] = field.split(".");
    if (!head || !Object.hasOwn(attributes, head)) continue; // `constructor` is no attribute
    const value = attributes[head];
    if (rest.length === 0) {
      out[head] = value;
    } else if (value && typeof value === "object" && !Array.isArray(value)) {
      const nested = selectFields(value as Record<string, unknown>, [rest.join(".")]);
      if (Object.keys(nested).length) out[head] = { ...(out[head] as object | undefined), ...nested };
    }
  }
  return out as Partial<A>;
}
