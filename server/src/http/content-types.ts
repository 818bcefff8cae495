// Request bodies: JSON:API documents (`application/vnd.api+json`) and plain `application/json`.
// Anything else is refused with 415 by Fastify, and the error handler words it.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { JSONAPI_MEDIA_TYPE } from "@asset-delivery/sdk";

export const contentTypesPlugin = fp(
  async function contentTypes(app: FastifyInstance) {
    app.removeContentTypeParser("text/plain");
    app.addContentTypeParser(JSONAPI_MEDIA_TYPE, { parseAs: "string" }, app.getDefaultJsonParser("error", "error"));
  },
  { name: "content-types" },
);
