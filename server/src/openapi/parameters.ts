// The parameters of an operation: its path parameters, and for lists the fields, page, sort and
// filter parameters of its ListSpec (spec 4.1), typed as parseListQuery accepts them.
import { DEFAULT_PAGE_SIZE, MAX_PAGE_NUMBER, MAX_PAGE_SIZE, type FilterKind, type ListSpec } from "@asset-delivery/sdk";
import type { RegisteredRoute } from "../http/route";
import type { JsonSchema } from "./json-schema";

export interface Parameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  description: string;
  schema: JsonSchema;
}

/** Fastify `:name` segments. */
export function pathParameterNames(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
}

/** `/api/v1/reports/:report_id` → `/api/v1/reports/{report_id}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

function fieldsParameter(spec: ListSpec): Parameter {
  return {
    name: `fields[${spec.type}]`,
    in: "query",
    required: false,
    description: "Comma-separated attributes to return (dot notation for nested ones); unknown names are ignored. Default: all.",
    schema: { type: "string" },
  };
}

function filterSchema(kind: FilterKind): JsonSchema {
  switch (kind.kind) {
    case "boolean":
      return { type: "string", enum: ["true", "false"] };
    case "exact":
      return { type: "string", enum: [...kind.values] };
    default:
      return { type: "string" };
  }
}

function filterDescription(kind: FilterKind): string {
  if (kind.kind === "substring" || kind.kind === "substring-any") return "Substring match";
  return "Exact match";
}

/**
 * The sort rule of parseListQuery as a pattern: sortable keys, each field at most once (so at most
 * one key per field). The lookahead refuses a field that comes again, with or without "-".
 */
function sortPattern(sorts: readonly string[]): string {
  const field = `(${sorts.join("|")})`;
  const noRepeat = `(?!.*(?:^|,)-?${field}(?:,.*)?,-?\\1(?:,|$))`;
  return `^${noRepeat}(-?${field}(,-?${field}){0,${sorts.length - 1}})?$`;
}

function listParameters(spec: ListSpec): Parameter[] {
  const parameters: Parameter[] = [
    fieldsParameter(spec),
    {
      name: "page[number]",
      in: "query",
      required: false,
      description: "Zero-indexed page number.",
      schema: { type: "integer", minimum: 0, maximum: MAX_PAGE_NUMBER, default: 0 },
    },
    {
      name: "page[size]",
      in: "query",
      required: false,
      description: `Objects per page, 1 to ${MAX_PAGE_SIZE}.`,
      schema: { type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    },
    {
      name: "sort",
      in: "query",
      required: false,
      description: `Comma-separated sort keys among ${spec.sorts.join(", ")}, each field at most once; a leading "-" sorts descending. Empty: the default order.`,
      schema: { type: "string", pattern: sortPattern(spec.sorts) },
    },
  ];
  for (const [field, kind] of Object.entries(spec.filters)) {
    parameters.push({
      name: `filter[${field}]`,
      in: "query",
      required: false,
      description: `${filterDescription(kind)} on ${field}; filters combine with AND.`,
      schema: filterSchema(kind),
    });
    parameters.push({
      name: `filter[or:${field}]`,
      in: "query",
      required: false,
      description: `${filterDescription(kind)} on ${field}; or: filters combine with OR.`,
      schema: filterSchema(kind),
    });
  }
  return parameters;
}

export function parametersOf(route: RegisteredRoute): Parameter[] {
  const path = pathParameterNames(route.url).map<Parameter>((name) => ({
    name,
    in: "path",
    required: true,
    description: `The ${name.replaceAll("_", " ")}.`,
    schema: { type: "string" },
  }));
  if (route.list) return [...path, ...listParameters(route.list)];
  if (route.fields) return [...path, fieldsParameter(route.fields)];
  return path;
}
