// The OpenAPI 3.1 document of the whole API, generated from the route registry: every route's
// method, path, parameters, request body, success response and error responses.
import { JSONAPI_MEDIA_TYPE } from "@asset-delivery/sdk";
import type { RegisteredRoute } from "../http/route";
import { jsonSchemaOf, type JsonSchema } from "./json-schema";
import { openApiPath, parametersOf } from "./parameters";
import { errorComponents, errorResponseRef, errorStatusesOf, type StatusOptions } from "./responses";

export interface OpenApiOptions extends StatusOptions {
  title: string;
  version: string;
}

const JSON_MEDIA_TYPES = [JSONAPI_MEDIA_TYPE, "application/json"];

function isJson(mediaType: string): boolean {
  return JSON_MEDIA_TYPES.includes(mediaType);
}

/** `GET /api/v1/reports/:report_id` → `getApiV1ReportsReportId`. */
function operationId(route: RegisteredRoute): string {
  const words = route.url.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

/** The resource a path belongs to: `sources`, `reports`, `generations`. */
function tagOf(route: RegisteredRoute): string {
  return route.url.replace(/^\/(api\/)?v1\//, "").split("/")[0]!;
}

/** The success document; with sparse fieldsets, either the whole document or one of selected attributes. */
function documentSchemaOf(route: RegisteredRoute): JsonSchema {
  const whole = jsonSchemaOf(route.response, "output");
  return route.selectedResponse ? { anyOf: [whole, jsonSchemaOf(route.selectedResponse, "output")] } : whole;
}

function operation(route: RegisteredRoute, options: StatusOptions): JsonSchema {
  const mediaType = route.mediaType ?? JSONAPI_MEDIA_TYPE;
  const successSchema = isJson(mediaType) ? documentSchemaOf(route) : { type: "string", format: "binary" };
  const responses: Record<string, JsonSchema> = {
    [String(route.status)]: { description: route.summary, content: { [mediaType]: { schema: successSchema } } },
  };
  for (const status of errorStatusesOf(route, options)) responses[String(status)] = errorResponseRef(status);

  const parameters = parametersOf(route);
  return {
    operationId: operationId(route),
    summary: route.summary,
    tags: [tagOf(route)],
    ...(parameters.length && { parameters }),
    ...(route.body && {
      requestBody: {
        required: true,
        content: Object.fromEntries(JSON_MEDIA_TYPES.map((type) => [type, { schema: jsonSchemaOf(route.body!, "input") }])),
      },
    }),
    responses,
  };
}

/** The document without `servers`: where the API is served is known per request. */
export function buildOpenApiDocument(routes: readonly RegisteredRoute[], options: OpenApiOptions): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = (paths[openApiPath(route.url)] ??= {});
    path[route.method.toLowerCase()] = operation(route, options);
  }
  const errors = errorComponents();
  return {
    openapi: "3.1.0",
    info: {
      title: options.title,
      version: options.version,
      description: "Generated from the server's route registry and the zod schemas of @asset-delivery/sdk. Do not edit by hand.",
    },
    security: [{ bearer: [] }],
    tags: [...new Set(routes.map(tagOf))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "Authorization: Bearer <API key>" } },
      schemas: errors.schemas,
      responses: errors.responses,
    },
  };
}
