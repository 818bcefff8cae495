// A Source (spec 2.2, 2.3): its field table, the documents' schemas and types derived from it, and
// the plain field descriptors everyone outside the API contract reads.
export {
  DEPLOYMENT_STATUSES,
  defaultParamsSchema,
  deploymentFieldsByType,
  HOSTNAME_FIELDS,
  READ_ONLY_SOURCE_ATTRIBUTES,
  SOURCE_TYPES,
  sourceIdSchema,
  STORAGE_PROVIDERS,
  WRITABLE_SOURCE_ATTRIBUTES,
  type DeploymentStatus,
  type HostnameField,
  type ReadOnlySourceAttribute,
  type SourceType,
  type WritableSourceAttribute,
} from "./field-table";
export {
  ALWAYS_RETURNED_SOURCE_ATTRIBUTES,
  deploymentCreateSchema,
  deploymentPatchSchema,
  deploymentSchema,
  REQUIRED_SOURCE_CREATE_ATTRIBUTES,
  requiredMembers,
  selectedSourceSchema,
  sourceAttributesSchema,
  sourceCreateAttributesSchema,
  sourcePatchAttributesSchema,
  sourceSchema,
} from "./documents";
export type * from "./deployment-types";
export type * from "./types";
export * from "./descriptors";
