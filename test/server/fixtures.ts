// Valid Source documents of every type, with unique hostnames per call and recognizable secrets
// (so a test can scan responses and the database file for them).
import { randomBytes } from "node:crypto";
import type { SourceType } from "@asset-delivery/sdk";
import { apiRequest, type ApiResponse, type TestServer } from "../support/server";

let counter = 0;
/** A subdomain label no other test uses. */
export function uniqueLabel(prefix = "src"): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${randomBytes(3).toString("hex")}`;
}

/** A secret value that appears nowhere else: what must never be returned or stored in clear. */
export function secretMarker(field: string): string {
  return `SECRET${field.replace(/[^a-z]/gi, "")}${randomBytes(8).toString("hex")}`;
}

/** The minimal valid deployment of a type: its required fields, secrets included. */
export function minimalDeployment(type: SourceType, subdomain = uniqueLabel()): Record<string, unknown> {
  const base = { type, service_subdomains: [subdomain] };
  switch (type) {
    case "s3":
      return { ...base, s3_access_key: "AKIAEXAMPLE", s3_bucket: "my-bucket", s3_secret_key: secretMarker("s3_secret_key") };
    case "gcs":
      return { ...base, gcs_access_key: "GOOGEXAMPLE", gcs_bucket: "my-gcs-bucket", gcs_secret_key: secretMarker("gcs_secret_key") };
    case "azure":
      return {
        ...base,
        azure_account: "myaccount",
        azure_bucket: "my-container",
        azure_sas_string: `sv=2024&sig=${secretMarker("sas")}`,
        azure_service_type: "blob",
      };
    case "webfolder":
      return { ...base, webfolder_base_url: "https://images.example.com/base/" };
    case "webproxy":
      return { ...base };
    case "s3_compatible":
      return {
        ...base,
        access_key_id: "DOEXAMPLE",
        bucket_name: "compat-bucket",
        endpoint_url: "https://nyc3.digitaloceanspaces.com",
        region: "nyc3",
        secret_key: secretMarker("secret_key"),
        storage_provider: "DigitalOcean",
      };
  }
}

export function createDocument(attributes: Record<string, unknown>) {
  return { data: { type: "sources", attributes } };
}

export function patchDocument(id: string, attributes: Record<string, unknown>) {
  return { data: { type: "sources", id, attributes } };
}

export interface SourceClient {
  create(attributes: Record<string, unknown>): Promise<ApiResponse>;
  /** Creates a Source and returns its id; fails the test on anything but 201. */
  createOk(attributes: Record<string, unknown>): Promise<string>;
  get(id: string, query?: string): Promise<ApiResponse>;
  patch(id: string, attributes: Record<string, unknown>): Promise<ApiResponse>;
  list(query?: string): Promise<ApiResponse>;
}

export function sourceClient(server: TestServer, key: string): SourceClient {
  const base = `${server.url}/api/v1/sources`;
  const client: SourceClient = {
    create: (attributes) => apiRequest(base, { method: "POST", key, body: createDocument(attributes) }),
    async createOk(attributes) {
      const response = await client.create(attributes);
      if (response.status !== 201) throw new Error(`create failed: ${response.status} ${response.text}`);
      return response.body.data.id as string;
    },
    get: (id, query = "") => apiRequest(`${base}/${id}${query ? `?${query}` : ""}`, { key }),
    patch: (id, attributes) => apiRequest(`${base}/${id}`, { method: "PATCH", key, body: patchDocument(id, attributes) }),
    list: (query = "") => apiRequest(`${base}${query ? `?${query}` : ""}`, { key }),
  };
  return client;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
