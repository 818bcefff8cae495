// The Sources endpoints (spec 4.2, permission "Sources"). Handlers only translate between HTTP and
// the service; the rules live in the sdk's schemas and in source-service.ts.
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  createDocumentSchema,
  listDocumentSchema,
  selectedSourceSchema,
  singleDocumentSchema,
  sourceCreateAttributesSchema,
  sourceListSpec,
  sourcePatchAttributesSchema,
  sourceSchema,
  updateDocumentSchema,
  type ParsedListQuery,
  API_ROUTES,
  routePath,
} from "@asset-delivery/sdk";
import { listDocument, singleDocument } from "../http/documents";
import { HttpError, notFound, VALIDATION_ERROR } from "../http/errors";
import { defineRoute } from "../http/route";
import type { SourceService } from "./source-service";
import type { SourceStore } from "./source-store";
import { sourceResource, sparseSourceResource, writtenSourceResource } from "./source-view";

export function defineSourceRoutes(app: FastifyInstance, store: SourceStore, service: SourceService, now: () => number): void {
  /** The Source's document as read now; 404 when it is not this account's. */
  function sourceDocument(request: FastifyRequest, accountId: string, id: string, fields: ParsedListQuery["fields"]) {
    const row = store.find(accountId, id);
    if (row === undefined) throw notFound("Source", id);
    const resource = sourceResource(row, store.openToken(row));
    return singleDocument(request, fields === null ? resource : sparseSourceResource(resource, fields));
  }

  defineRoute(app, {
    route: API_ROUTES.listSources,
    permission: "Sources",
    list: sourceListSpec,
    response: listDocumentSchema(sourceSchema),
    selectedResponse: listDocumentSchema(selectedSourceSchema),
    status: 200,
    summary: "List the account's Sources (paged; fields, sort and filter parameters)",
    handler({ request, auth, list }) {
      const { rows, total } = store.page(auth.accountId, list);
      const resources = rows.map((row) => sourceResource(row, store.openToken(row)));
      const fields = list.fields;
      return listDocument(
        request,
        fields === null ? resources : resources.map((resource) => sparseSourceResource(resource, fields)),
        list.page,
        total,
      );
    },
  });

  defineRoute(app, {
    route: API_ROUTES.createSource,
    permission: "Sources",
    body: createDocumentSchema("sources", sourceCreateAttributesSchema),
    response: singleDocumentSchema(sourceSchema),
    status: 201,
    summary: "Create a Source; it starts deploying",
    handler({ request, reply, auth, body }) {
      const record = service.create(auth, body.data.attributes);
      reply.header("location", routePath(API_ROUTES.getSource, { id: record.id }));
      return singleDocument(request, writtenSourceResource(record, now()));
    },
  });

  defineRoute(app, {
    route: API_ROUTES.getSource,
    permission: "Sources",
    fields: sourceListSpec,
    response: singleDocumentSchema(sourceSchema),
    selectedResponse: singleDocumentSchema(selectedSourceSchema),
    status: 200,
    summary: "Retrieve a Source",
    handler({ request, auth, params, list }) {
      return sourceDocument(request, auth.accountId, params.id!, list.fields);
    },
  });

  defineRoute(app, {
    route: API_ROUTES.updateSource,
    permission: "Sources",
    body: updateDocumentSchema("sources", sourcePatchAttributesSchema),
    response: singleDocumentSchema(sourceSchema),
    status: 200,
    summary: "Update a Source: omitted attributes keep their values; a deployment change redeploys",
    handler({ request, auth, params, body }) {
      const id = params.id!;
      if (body.data.id !== id) {
        throw new HttpError(400, VALIDATION_ERROR, `data.id: must be the id in the URL ("${id}"), got "${body.data.id}"`, {
          source: { pointer: "/data/id" },
        });
      }
      const record = service.patch(auth, id, body.data.attributes ?? {});
      return singleDocument(request, writtenSourceResource(record, now()));
    },
  });
}
