// Builders of the documents a test server answers with, shaped like the API's (spec 2.1, 7). A
// returned Source is derived from a create input through the sdk's own tables: defaults filled in,
// write-only fields removed, read-only ones added.
import {
  deploymentCreateSchema,
  paginationFor,
  readOnlyFields,
  writeOnlyFields,
  type DeploymentInput,
  type Report,
  type Source,
  type SourceType,
  type VideoJob,
} from "@asset-delivery/sdk";

export const META = { authentication: { authorized: true, key_id: "key1" }, server: { name: "test", version: "1" } };

let counter = 0;
/** A fresh 24-character Source id. */
export function sourceId(): string {
  counter++;
  return `src${String(counter).padStart(21, "0")}`;
}

export const WEBFOLDER: DeploymentInput = {
  type: "webfolder",
  service_subdomains: ["photos"],
  webfolder_base_url: "https://origin.example.com/images/",
};

/** A complete create deployment of each type: what it requires, nothing more. */
export const COMPLETE: Record<SourceType, Record<string, unknown>> = {
  s3: { type: "s3", service_subdomains: ["a"], s3_access_key: "AKIA1", s3_bucket: "images", s3_secret_key: "secret1" },
  gcs: { type: "gcs", service_subdomains: ["a"], gcs_access_key: "GOOG1", gcs_bucket: "images", gcs_secret_key: "secret1" },
  azure: {
    type: "azure",
    service_subdomains: ["a"],
    azure_account: "acct1",
    azure_bucket: "images",
    azure_sas_string: "sv=1&sig=2",
    azure_service_type: "blob",
  },
  webfolder: { type: "webfolder", service_subdomains: ["a"], webfolder_base_url: "https://origin.example.com/" },
  webproxy: { type: "webproxy", service_subdomains: ["a"] },
  s3_compatible: {
    type: "s3_compatible",
    service_subdomains: ["a"],
    access_key_id: "AK",
    bucket_name: "images",
    endpoint_url: "https://e.example.com",
    region: "nyc3",
    secret_key: "SK",
    storage_provider: "Linode",
  },
};

export function returnedDeployment(input: DeploymentInput): Source["attributes"]["deployment"] {
  const stored = deploymentCreateSchema.parse(input) as Record<string, unknown>;
  for (const name of writeOnlyFields(input.type)) delete stored[name];
  for (const name of readOnlyFields(input.type)) stored[name] = false;
  stored.annotation ??= "New deployment created for this Source by test@example.com";
  return stored as Source["attributes"]["deployment"];
}

export function sourceResource(
  overrides: {
    id?: string;
    name?: string;
    enabled?: boolean;
    deployment?: DeploymentInput;
    deployment_status?: Source["attributes"]["deployment_status"];
  } = {},
): Source {
  return {
    id: overrides.id ?? sourceId(),
    type: "sources",
    attributes: {
      name: overrides.name ?? "Photos",
      enabled: overrides.enabled ?? true,
      deployment: returnedDeployment(overrides.deployment ?? WEBFOLDER),
      deployment_status: overrides.deployment_status ?? "deploying",
      date_deployed: 1_767_225_600,
    },
  };
}

export function single(data: unknown) {
  return { data, included: [], jsonapi: { version: "1.0" }, meta: META };
}

/** One page of `all`, as the server pages it. */
export function page(all: readonly unknown[], number: number, size: number) {
  return {
    data: all.slice(number * size, number * size + size),
    included: [],
    jsonapi: { version: "1.0" },
    meta: { ...META, pagination: paginationFor({ number, size }, all.length) },
  };
}

export function errorDocument(status: number, title: string, detail: string, id = "req-123") {
  return { errors: [{ detail, id, meta: {}, status: String(status), title }], jsonapi: { version: "1.0" }, meta: META };
}

export function reportResource(files: string[], reportType: Report["attributes"]["report_type"] = "credit_analytics_daily"): Report {
  return {
    id: `rep_${reportType}_20260101`,
    type: "reports",
    attributes: {
      completed: true,
      files,
      period_start: 1_767_139_200,
      period_end: 1_767_225_600,
      report_key: `${reportType}_20260101`,
      report_type: reportType,
    },
  };
}

export function videoJob(status: VideoJob["attributes"]["status"], extra: Partial<VideoJob["attributes"]> = {}) {
  return { data: { id: "job1", type: "job", attributes: { status, created_at: 1_767_225_600, ...extra } } };
}
