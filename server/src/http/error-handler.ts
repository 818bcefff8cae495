// The one place where failures become responses: every error, thrown anywhere, leaves as a JSON:API
// error document (spec section 7) with the request id, and unknown paths get the same shape.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { errorDocumentSchema, JSONAPI_MEDIA_TYPE } from "@asset-delivery/sdk";
import { errorDocument } from "./documents";
import { HttpError, ERROR_TITLES, titleFor } from "./errors";
import { documentSerializer } from "./serialization";

const serializeErrorDocument = documentSerializer(errorDocumentSchema);

/** Fastify's own request errors, with details a client can act on. */
function fromFastifyError(error: FastifyError, request: FastifyRequest): HttpError | undefined {
  const status = error.statusCode;
  if (status === undefined || status < 400 || status >= 500) return undefined;
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new HttpError(
        415,
        ERROR_TITLES[415]!,
        `Content-Type "${request.headers["content-type"] ?? ""}" is not supported: send ${JSONAPI_MEDIA_TYPE} (or application/json).`,
      );
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new HttpError(400, ERROR_TITLES[400]!, "The request body is empty but its Content-Type says JSON: send a JSON document.");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new HttpError(413, ERROR_TITLES[413]!, "The request body is larger than the server accepts.");
  }
  // The JSON parser throws a SyntaxError carrying status 400.
  if (error instanceof SyntaxError || error.code === "FST_ERR_CTP_INVALID_JSON_BODY") {
    return new HttpError(400, ERROR_TITLES[400]!, `The request body is not valid JSON: ${error.message}`);
  }
  return new HttpError(status, titleFor(status), error.message);
}

function internalError(request: FastifyRequest): HttpError {
  return new HttpError(500, ERROR_TITLES[500]!, `The server failed to handle this request. Quote request id ${request.id} to support.`);
}

function send(reply: FastifyReply, request: FastifyRequest, error: HttpError) {
  return reply
    .code(error.status)
    .headers(error.headers)
    .type(JSONAPI_MEDIA_TYPE)
    .serializer(serializeErrorDocument)
    .send(errorDocument(request, error.status, error.entries));
}

export const errorHandlingPlugin = fp(
  async function errorHandling(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const known = error instanceof HttpError ? error : fromFastifyError(error, request);
      if (known && known.status < 500) return send(reply, request, known);
      // 5xx: the details stay in the log, under the request id the client sees.
      request.log.error({ err: error, reqId: request.id }, "request failed");
      return send(reply, request, known ?? internalError(request));
    });

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split("?")[0];
      return send(reply, request, new HttpError(404, ERROR_TITLES[404]!, `The resource ${path} was not found: no such path in this API.`));
    });
  },
  { name: "error-handling" },
);
