// A stored Source as the API returns it (spec 2.2): the deployment with its computed read-only
// flags, no write-only value, and the secure URL token only while secure URLs are on.
import { selectFields, type Source, type SourceAttributes, type SourceType } from "@asset-delivery/sdk";
import { computedFlagsJson } from "./source-record";
import type { SourceRow } from "./source-store";

/**
 * The resource as JSON text, built from the stored deployment text without parsing it (GET and
 * lists run this for every Source they return). The stored deployment is a non-empty object
 * written by JSON.stringify, so its closing brace is its last character.
 */
export function sourceResourceJson(row: SourceRow, secureUrlToken: string | null): string {
  const flags = computedFlagsJson(deploymentTypeOf(row.deployment), JSON.parse(row.secrets) as Record<string, unknown>);
  const deployment = row.deployment.slice(0, -1) + flags + "}";
  const token = secureUrlToken === null ? "" : `,"secure_url_token":${JSON.stringify(secureUrlToken)}`;
  return (
    `{"id":${JSON.stringify(row.id)},"type":"sources","attributes":{"name":${JSON.stringify(row.name)},"enabled":${row.enabled === 1},` +
    `"deployment":${deployment},"deployment_status":"${row.deployment_status}","date_deployed":${JSON.stringify(row.date_deployed)}${token}}}`
  );
}

const LEADING_TYPE = /^\{"type":"([a-z0-9_]+)"/;

/** The type of a stored deployment: the store writes it first; parsing is the fallback. */
function deploymentTypeOf(deploymentJson: string): SourceType {
  return (LEADING_TYPE.exec(deploymentJson)?.[1] ?? (JSON.parse(deploymentJson) as { type: string }).type) as SourceType;
}

/** The resource with only the requested attributes (`fields[sources]`, dot notation for nested ones). */
export function sparseSourceResource(resourceJson: string, fields: readonly string[]): Source {
  const resource = JSON.parse(resourceJson) as Source;
  return { ...resource, attributes: selectFields(resource.attributes, fields) as SourceAttributes };
}
