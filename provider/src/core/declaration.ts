// What to declare for a Source made elsewhere (the dashboard, a script) to bring it under
// management (`asset-delivery import`): the arguments of `new Source(...)` that reproduce it, with
// `adoptSourceId`, so that the next update adopts it without a write; and which write-only secrets it
// holds, which the API never returns. Fields equal to the API's default (the sdk's field table,
// which `check` fills in) are left out, so that a declaration reads like one written by hand; the
// server's generated annotation too (an undeclared annotation is not compared). Undeclared secrets
// stay as stored: adoption keeps them.
import deepEqual from "fast-deep-equal";
import { deploymentDefaults, holdsSecret, writeOnlyFields, type Source, type SourceType } from "@asset-delivery/sdk";
import { declarableDeployment } from "./codec";

export interface SourceImport {
  /** The arguments of `new Source(...)`, in the API's names (a shell renames them); `enabled` only when false. */
  args: { name: string; enabled?: false; deployment: Record<string, unknown>; adoptSourceId: string };
  /** The type's write-only fields and whether the Source has each: per its `*_set` flag, always for a required one, undefined where the API does not say. */
  secrets: { field: string; set: boolean | undefined }[];
}

export function declarationOf(source: Source): SourceImport {
  const { annotation: _generated, ...deployment } = declarableDeployment(source);
  const args = {
    name: source.attributes.name,
    ...(source.attributes.enabled ? {} : { enabled: false as const }),
    deployment: withoutDefaults(deployment),
    adoptSourceId: source.id,
  };
  return { args, secrets: secretsOf(source) };
}

/** The deployment without the fields whose value is the API's default (what `check` would fill in by itself). */
function withoutDefaults(deployment: { type: SourceType; service_subdomains: string[] }): Record<string, unknown> {
  // The fields that say what the Source is come first; the rest as the API orders them.
  const { type, service_subdomains, ...rest } = deployment;
  const defaults = deploymentDefaults(type);
  const kept: Record<string, unknown> = { type, service_subdomains };
  for (const [field, value] of Object.entries(rest)) if (!(field in defaults) || !deepEqual(defaults[field], value)) kept[field] = value;
  return kept;
}

function secretsOf(source: Source): SourceImport["secrets"] {
  const { deployment } = source.attributes;
  return writeOnlyFields(deployment.type).map((field) => ({ field, set: holdsSecret(deployment, field) }));
}
