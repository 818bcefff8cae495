// A Source as the API returns it (spec 2.2): the deployment with its computed read-only flags, no
// write-only value, and the secure URL token only while secure URLs are on. Reads and lists build
// it from a row (status and date computed by SQLite); a create or an update from the record it has
// just written (status and date by the same rule in TypeScript), without reading the row back.
import { isPlainObject, selectFields, type Source, type SourceAttributes } from "@asset-delivery/sdk";
import { inNameOrder } from "../http/documents";
import { dateDeployedAt, deploymentStatusAt, type DeploymentStatus } from "./deployment-status";
import { computedFlags, type PublicDeployment, type SourceRecord } from "./source-record";
import type { SourceRow } from "./source-store";

interface SourceView {
  id: string;
  name: string;
  enabled: boolean;
  deployment: PublicDeployment;
  /** The stored write-only values by name; only which names are present is read (the flags). */
  storedSecrets: Record<string, unknown>;
  secureUrlToken: string | null;
  deploymentStatus: DeploymentStatus;
  dateDeployed: number | null;
}

/** The serializer orders the keys of every object; the maps come in order too. */
function resource(view: SourceView): Source {
  const deployment: Record<string, unknown> = {};
  // A deployment field whose value is an object is a map (default_params): its member names are data.
  for (const name in view.deployment) {
    const value = view.deployment[name];
    deployment[name] = isPlainObject(value) ? inNameOrder(value) : value;
  }
  Object.assign(deployment, computedFlags(view.deployment.type, view.storedSecrets));
  const attributes = {
    date_deployed: view.dateDeployed,
    deployment,
    deployment_status: view.deploymentStatus,
    enabled: view.enabled,
    name: view.name,
    ...(view.secureUrlToken !== null && { secure_url_token: view.secureUrlToken }),
  } as SourceAttributes;
  return { attributes, id: view.id, type: "sources" };
}

/** The resource of a row read for a response (status and date as of the read). */
export function sourceResource(row: SourceRow, secureUrlToken: string | null): Source {
  return resource({
    id: row.id,
    name: row.name,
    enabled: row.enabled === 1,
    deployment: JSON.parse(row.deployment) as PublicDeployment,
    storedSecrets: JSON.parse(row.secrets) as Record<string, unknown>,
    secureUrlToken,
    deploymentStatus: row.deployment_status,
    dateDeployed: row.date_deployed,
  });
}

/** The resource of the record a create or an update has just written, as a read at `now` (milliseconds) would return it. */
export function writtenSourceResource(record: SourceRecord, now: number): Source {
  return resource({
    id: record.id,
    name: record.name,
    enabled: record.enabled,
    deployment: record.deployment,
    storedSecrets: record.secrets,
    secureUrlToken: record.secureUrlToken,
    deploymentStatus: deploymentStatusAt(record, now),
    dateDeployed: dateDeployedAt(record, now),
  });
}

/** The resource with only the requested attributes (`fields[sources]`, dot notation for nested ones). */
export function sparseSourceResource(resource: Source, fields: readonly string[]): Source {
  return { ...resource, attributes: selectFields(resource.attributes, fields) as SourceAttributes };
}
