// Which statuses an operation answers, derived from what the route declares, the way the server's
// hooks and handlers actually behave.
import { JSONAPI_MEDIA_TYPE, errorDocumentSchema } from "@asset-delivery/sdk";
import { ERROR_TITLES } from "../http/errors";
import type { RegisteredRoute } from "../http/route";
import { jsonSchemaOf, type JsonSchema } from "./json-schema";
import { pathParameterNames } from "./parameters";

const WHY: Readonly<Record<number, string>> = {
  400: "The request is invalid: each error object names the field or parameter and the rule it breaks.",
  401: "No API key, not a Bearer key, or an unknown or revoked key.",
  403: "The API key lacks the permission this operation needs, or the account lacks the feature.",
  404: "The object does not exist, or belongs to another account.",
  409: "The same request was accepted moments ago and is still in progress (a purge of the same URL within 10 seconds).",
  413: "The request body is larger than the server accepts.",
  415: "The request body is not JSON (send application/vnd.api+json or application/json).",
  429: "Rate limit of this account and endpoint exceeded: retry after Retry-After seconds.",
  500: "The server failed; quote the error id to support.",
};

export interface StatusOptions {
  rateLimits: "spec" | "off";
}

/** The error statuses a route can answer. */
export function errorStatusesOf(route: RegisteredRoute, options: StatusOptions): number[] {
  const statuses = new Set<number>([401, 500, ...(route.errors ?? [])]);
  if (route.body) [400, 413, 415].forEach((status) => statuses.add(status));
  if (route.list) statuses.add(400);
  if (route.permission !== "any") statuses.add(403);
  if (pathParameterNames(route.url).length) statuses.add(404);
  if (options.rateLimits === "spec") statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

export const ERROR_DOCUMENT_REF = "#/components/schemas/ErrorDocument";

export function errorComponents(): { schemas: Record<string, JsonSchema>; responses: Record<string, JsonSchema> } {
  const responses: Record<string, JsonSchema> = {};
  for (const status of Object.keys(WHY).map(Number)) {
    const headers: Record<string, JsonSchema> = {};
    if (status === 429)
      headers["Retry-After"] = {
        description: "Whole seconds until a request is admitted again (at least 1).",
        schema: { type: "integer", minimum: 1 },
      };
    if (status === 401) headers["WWW-Authenticate"] = { description: "The Bearer challenge (RFC 6750).", schema: { type: "string" } };
    responses[ERROR_TITLES[status]!] = {
      description: WHY[status],
      ...(Object.keys(headers).length && { headers }),
      content: { [JSONAPI_MEDIA_TYPE]: { schema: { $ref: ERROR_DOCUMENT_REF } } },
    };
  }
  return { schemas: { ErrorDocument: jsonSchemaOf(errorDocumentSchema, "output") }, responses };
}

export function errorResponseRef(status: number): JsonSchema {
  if (!WHY[status]) throw new Error(`no documented error response for status ${status}`);
  return { $ref: `#/components/responses/${ERROR_TITLES[status]}` };
}
