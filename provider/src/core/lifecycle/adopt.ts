// Taking over an existing Source and bringing it to the declared state: by id (`adoptSourceId`,
// the import path), or a retired Source of this account found holding the declared hostnames.
import { BadRequestError, HOSTNAME_FIELDS, type Source } from "@asset-delivery/sdk";
import { changedAttributes } from "../diff";
import type { Session } from "../session";
import { liveDeclaration, type DeclaredAttributes, type SourceInputs } from "../codec";
import { planPatches, sendPatches } from "./patch";
import { deployedBefore, type Written } from "./settle";

/** Read like a refresh (an import's many adoptions share list pages), then PATCHed only where it differs. */
export async function adoptById(session: Session, id: string, inputs: SourceInputs, attributes: DeclaredAttributes): Promise<Written> {
  const existing = await session.reads.read(id);
  if (!existing) throw new Error(`adoptSourceId: the account of the API key has no Source "${id}"`);
  return bringToDeclaredState(session, existing, inputs, attributes);
}

/** The PATCHes of whatever differs (see patch.ts); secrets are unknown on the server, so declared ones are always sent. */
export async function bringToDeclaredState(
  session: Session,
  existing: Source,
  inputs: SourceInputs,
  attributes: DeclaredAttributes,
): Promise<Written> {
  const plan = planPatches(changedAttributes(liveDeclaration(existing), inputs), attributes, existing.attributes.enabled);
  const patched = await sendPatches(session, existing.id, plan.patches);
  return { source: patched ?? existing, ...deployedBefore(plan.deploys, existing.attributes.date_deployed) };
}

/**
 * After a create was refused (400): the retired (disabled) Source of this account that holds the
 * declared hostnames, which `destroy` left behind. The refusal is not read for its cause (the spec
 * promises no member that names the field): every declared hostname is looked up instead, one list
 * call each. When no Source of the account holds one, the refusal had another cause and is raised
 * as it is; when they are held otherwise than by one retired Source, the holders are named.
 */
export async function retiredHolder(session: Session, failure: unknown, attributes: DeclaredAttributes): Promise<Source> {
  if (!(failure instanceof BadRequestError)) throw failure;
  const holders = new Map<string, { source: Source; names: string[] }>();
  for (const field of HOSTNAME_FIELDS) {
    for (const name of attributes.deployment[field] ?? []) {
      const holder = await session.client.sources.findByHostname(field, name);
      if (holder) holders.set(holder.id, { source: holder, names: [...(holders.get(holder.id)?.names ?? []), name] });
    }
  }
  const [only, ...others] = [...holders.values()];
  if (!only) throw failure;
  if (others.length === 0 && !only.source.attributes.enabled) return only.source;
  const owners = [...holders.values()].map(
    ({ source, names }) =>
      `${names.map((n) => `"${n}"`).join(", ")} to Source ${source.id} ("${source.attributes.name}", ${source.attributes.enabled ? "enabled" : "retired"})`,
  );
  throw new Error(
    `${failure.message}. In this account the hostnames belong ${owners.join("; ")}. ` +
      `To take a Source over, set adoptSourceId to its id; a retired Source is adopted by itself only when it alone holds every declared hostname that is taken.`,
    { cause: failure },
  );
}
