// Serves the OpenAPI document at /openapi.json (no key needed), built once all routes are defined.
import type { FastifyInstance } from "fastify";
import { baseUrlOf } from "../http/base-url";
import { SERVER_INFO } from "../http/documents";
import { buildOpenApiDocument } from "./document";

export { buildOpenApiDocument, type OpenApiOptions } from "./document";

export const OPENAPI_PATH = "/openapi.json";

export function registerOpenApi(app: FastifyInstance): void {
  app.get(OPENAPI_PATH, { config: { public: true } }, async (request, reply) => {
    const document = buildOpenApiDocument(app.routeRegistry, {
      title: "Asset Delivery Management API",
      version: SERVER_INFO.version,
      serverUrl: baseUrlOf(request),
      rateLimits: app.appOptions.rateLimits,
    });
    return reply.type("application/json").send(document);
  });
}
