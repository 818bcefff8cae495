// A stored Source as the API returns it (spec 2.2): the deployment with its computed read-only
// flags, no write-only value, and the secure URL token only while secure URLs are on.
import { selectFields, type Source, type SourceAttributes } from "@asset-delivery/sdk";
import { addComputedFlags, type PublicDeployment } from "./source-record";
import type { SourceRow } from "./source-store";

export function sourceResource(row: SourceRow, secureUrlToken: string | null, fields: readonly string[] | null): Source {
  // Built by assignment into the freshly parsed objects: this runs on every GET.
  const deployment = JSON.parse(row.deployment) as PublicDeployment;
  addComputedFlags(deployment, JSON.parse(row.secrets) as Record<string, unknown>);
  const attributes: SourceAttributes = {
    name: row.name,
    enabled: row.enabled === 1,
    deployment: deployment as unknown as SourceAttributes["deployment"],
    deployment_status: row.deployment_status,
    date_deployed: row.date_deployed,
  };
  if (secureUrlToken !== null) attributes.secure_url_token = secureUrlToken;
  return { id: row.id, type: "sources", attributes: selectFields(attributes, fields) as SourceAttributes };
}
