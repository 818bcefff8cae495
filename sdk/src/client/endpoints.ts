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
  purgeAttributesSchema,
  purgeSchema,
  videoCreateRequestSchema,
  videoJobDocumentSchema,
  API_ROUTES,
} from "../api";
import { endpoint } from "./endpoint";

// Bodies are built from the attributes as parsed (read-only members dropped, defaults filled in).

export const endpoints = {
  listSources: endpoint({ route: API_ROUTES.listSources, format: "jsonapi", response: listDocumentSchema(sourceSchema) }),
  listSelectedSources: endpoint({ route: API_ROUTES.listSources, format: "jsonapi", response: listDocumentSchema(selectedSourceSchema) }),
  getSource: endpoint({ route: API_ROUTES.getSource, format: "jsonapi", response: singleDocumentSchema(sourceSchema) }),
  getSelectedSource: endpoint({ route: API_ROUTES.getSource, format: "jsonapi", response: singleDocumentSchema(selectedSourceSchema) }),
  createSource: endpoint({
    route: API_ROUTES.createSource,
    format: "jsonapi",
    input: {
      schema: sourceCreateAttributesSchema,
      describe: "Source attributes",
      document: (attributes) => ({ data: { type: "sources", attributes } }),
    },
    response: singleDocumentSchema(sourceSchema),
  }),
  updateSource: endpoint({
    route: API_ROUTES.updateSource,
    format: "jsonapi",
    input: {
      schema: sourcePatchAttributesSchema,
      describe: "Source attributes",
      document: (attributes, params) => ({ data: { type: "sources", id: params.id, attributes } }),
    },
    response: singleDocumentSchema(sourceSchema),
  }),
  listReports: endpoint({ route: API_ROUTES.listReports, format: "jsonapi", response: listDocumentSchema(reportSchema) }),
  listSelectedReports: endpoint({ route: API_ROUTES.listReports, format: "jsonapi", response: listDocumentSchema(selectedReportSchema) }),
  getReport: endpoint({ route: API_ROUTES.getReport, format: "jsonapi", response: singleDocumentSchema(reportSchema) }),
  getSelectedReport: endpoint({ route: API_ROUTES.getReport, format: "jsonapi", response: singleDocumentSchema(selectedReportSchema) }),
  purge: endpoint({
    route: API_ROUTES.purge,
    format: "jsonapi",
    input: { schema: purgeAttributesSchema, describe: "purge", document: (attributes) => ({ data: { type: "purges", attributes } }) },
    response: singleDocumentSchema(purgeSchema),
  }),
  createVideo: endpoint({
    route: API_ROUTES.createVideo,
    format: "json",
    input: { schema: videoCreateRequestSchema, describe: "video request", document: (request) => request },
    response: videoJobDocumentSchema,
  }),
  getVideo: endpoint({ route: API_ROUTES.getVideo, format: "json", response: videoJobDocumentSchema }),
};
