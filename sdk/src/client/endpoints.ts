// The API's endpoints (spec section 4), as data.
import {
  listDocumentSchema,
  reportSchema,
  selectedReportSchema,
  selectedSourceSchema,
  singleDocumentSchema,
  sourceCreateAttributesSchema,
  sourcePatchAttributesSchema,
  sourceSchema,
  videoCreateRequestSchema,
  videoJobDocumentSchema,
} from "../schemas";
import { endpoint } from "./endpoint";

// Bodies are built from the attributes as parsed (read-only members dropped, defaults filled in).

export const endpoints = {
  listSources: endpoint({ method: "GET", path: "/api/v1/sources", format: "jsonapi", response: listDocumentSchema(sourceSchema) }),
  listSelectedSources: endpoint({ method: "GET", path: "/api/v1/sources", format: "jsonapi", response: listDocumentSchema(selectedSourceSchema) }),
  getSource: endpoint({ method: "GET", path: "/api/v1/sources/{id}", format: "jsonapi", response: singleDocumentSchema(sourceSchema) }),
  getSelectedSource: endpoint({ method: "GET", path: "/api/v1/sources/{id}", format: "jsonapi", response: singleDocumentSchema(selectedSourceSchema) }),
  createSource: endpoint({
    method: "POST",
    path: "/api/v1/sources",
    format: "jsonapi",
    input: {
      schema: sourceCreateAttributesSchema,
      describe: "Source attributes",
      document: (attributes) => ({ data: { type: "sources", attributes } }),
    },
    response: singleDocumentSchema(sourceSchema),
  }),
  updateSource: endpoint({
    method: "PATCH",
    path: "/api/v1/sources/{id}",
    format: "jsonapi",
    input: {
      schema: sourcePatchAttributesSchema,
      describe: "Source attributes",
      document: (attributes, params) => ({ data: { type: "sources", id: params.id, attributes } }),
    },
    response: singleDocumentSchema(sourceSchema),
  }),
  listReports: endpoint({ method: "GET", path: "/api/v1/reports", format: "jsonapi", response: listDocumentSchema(reportSchema) }),
  listSelectedReports: endpoint({ method: "GET", path: "/api/v1/reports", format: "jsonapi", response: listDocumentSchema(selectedReportSchema) }),
  getReport: endpoint({ method: "GET", path: "/api/v1/reports/{id}", format: "jsonapi", response: singleDocumentSchema(reportSchema) }),
  getSelectedReport: endpoint({ method: "GET", path: "/api/v1/reports/{id}", format: "jsonapi", response: singleDocumentSchema(selectedReportSchema) }),
  createVideo: endpoint({
    method: "POST",
    path: "/api/v1/generations/video",
    format: "json",
    input: { schema: videoCreateRequestSchema, describe: "video request", document: (request) => request },
    response: videoJobDocumentSchema,
  }),
  getVideo: endpoint({ method: "GET", path: "/api/v1/generations/video/{id}", format: "json", response: videoJobDocumentSchema }),
};
