// A stored Source as the API returns it (spec 2.2): the deployment with its computed read-only
// flags, no write-only value, and the secure URL token only while secure URLs are on.
import { isPlainObject, selectFields, type Source, type SourceAttributes } from "@asset-delivery/sdk";
import { inNameOrder } from "../http/documents";
import { computedFlags, type PublicDeployment } from "./source-record";
import type { SourceRow } from "./source-store";

/** The resource of a row read for a response (the serializer orders its keys, the maps come in order). */
export function sourceResource(row: SourceRow, secureUrlToken: string | null): Source {
  const stored = JSON.parse(row.deployment) as PublicDeployment;
  // A deployment field whose value is an object is a map (default_params): its member names are data.
  for (const name in stored) {
    const value = stored[name];
    if (isPlainObject(value)) stored[name] = inNameOrder(value);
  }
  const deployment = { ...stored, ...computedFlags(stored.type, JSON.parse(row.secrets) as Record<string, unknown>) };
  const attributes = {
    date_deployed: row.date_deployed,
    deployment,
    deployment_status: row.deployment_status,
    enabled: row.enabled === 1,
    name: row.name,
    ...(secureUrlToken !== null && { secure_url_token: secureUrlToken }),
  } as SourceAttributes;
  return { attributes, id: row.id, type: "sources" };
}

/** The resource with only the requested attributes (`fields[sources]`, dot notation for nested ones). */
export function sparseSourceResource(resource: Source, fields: readonly string[]): Source {
  return { ...resource, attributes: selectFields(resource.attributes, fields) as SourceAttributes };
}
