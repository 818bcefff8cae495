// What to declare for a Source made elsewhere (the dashboard, a script) to bring it under
// management (`asset-delivery import`): the arguments of `new Source(...)` that reproduce it, with
// `adoptSourceId`, so that `pulumi up` adopts it without a write; and which write-only secrets it
// holds, which the API never returns. Fields equal to the default `check` fills in are left out,
// so that a declaration reads like one written by hand; the server's generated annotation too (an
// undeclared annotation is not compared). Undeclared secrets stay as stored: adoption keeps them.
import deepEqual from "fast-deep-equal";
import { requiredWriteOnlyFields, secretPresenceFlags, writeOnlyFields, type Source } from "@asset-delivery/sdk";
import { checkSource } from "./check";
import { camelCase } from "./names";
import { declarableDeployment, type SourceInputs } from "./source-state";

export interface SourceImport {
  /** The arguments of `new Source(...)`, camelCase; `enabled` only when false. */
  args: { name: string; enabled?: false; deployment: Record<string, unknown>; adoptSourceId: string };
  /** The type's write-only fields (camelCase) and whether the Source has each: per its `*_set` flag, always for a required one, undefined where the API does not say. */
  secrets: { field: string; set: boolean | undefined }[];
}

// Never left out, even where a default exists: what a reader needs to recognise the Source.
const ALWAYS_SHOWN = new Set(["type", "serviceSubdomains"]);

export function declarationOf(source: Source): SourceImport {
  const { annotation: _generated, ...deployment } = declarableDeployment(source);
  const args = {
    name: source.attributes.name,
    ...(source.attributes.enabled ? {} : { enabled: false as const }),
    deployment: withoutDefaults(deployment, source.attributes.name),
    adoptSourceId: source.id,
  };
  return { args, secrets: secretsOf(source) };
}

/** The deployment without the fields whose value `check` would fill in by itself. */
function withoutDefaults(deployment: Record<string, unknown>, name: string): Record<string, unknown> {
  // The fields that say what the Source is come first; the rest as the API orders them.
  const { type, serviceSubdomains, ...rest } = deployment;
  const kept: Record<string, unknown> = { type, serviceSubdomains, ...rest };
  for (const field of Object.keys(deployment)) {
    if (ALWAYS_SHOWN.has(field)) continue;
    const { [field]: value, ...without } = kept;
    const checked = checkSource({ name, deployment: without, adoptSourceId: "0".repeat(24) });
    if (checked.failures.length === 0 && deepEqual((checked.inputs as SourceInputs).deployment[field], value)) delete kept[field];
  }
  return kept;
}

function secretsOf(source: Source): SourceImport["secrets"] {
  const { deployment } = source.attributes;
  const required = new Set(requiredWriteOnlyFields(deployment.type));
  const flagOf = new Map(secretPresenceFlags(deployment.type).map(({ flag, secret }) => [secret, flag]));
  return writeOnlyFields(deployment.type).map((secret) => {
    const flag = flagOf.get(secret);
    const set = required.has(secret) ? true : flag === undefined ? undefined : (deployment as Record<string, unknown>)[flag] === true;
    return { field: camelCase(secret), set };
  });
}
