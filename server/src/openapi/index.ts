// Serves the OpenAPI document at /openapi.json (no key needed). It is built on the first request,
// when every route is defined, and kept: only `servers` follows the address the client used.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { baseUrlOf } from "../http/base-url";
import { SERVER_INFO } from "../http/documents";
import { buildOpenApiDocument } from "./document";
import type { JsonSchema } from "./json-schema";

export { buildOpenApiDocument, type OpenApiOptions } from "./document";

export const OPENAPI_PATH = "/openapi.json";

export const openApiPlugin = fp(
  async function openApi(app: FastifyInstance) {
    let document: JsonSchema | undefined;
    app.get(OPENAPI_PATH, { config: { public: true } }, async (request, reply) => {
      document ??= buildOpenApiDocument(app.routeRegistry, {
        title: "Asset Delivery Management API",
        version: SERVER_INFO.version,
        rateLimits: app.appOptions.rateLimits,
      });
      return reply.type("application/json").send({ ...document, servers: [{ url: baseUrlOf(request) }] });
    });
  },
  { name: "openapi", dependencies: ["route-registry"] },
);
