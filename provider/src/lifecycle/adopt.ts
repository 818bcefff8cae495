// Taking over an existing Source and bringing it to the declared state: by id (`adoptSourceId`,
// the import path), or a retired Source of this account found holding a declared subdomain.
import { BadRequestError, type Source, type SourceCreateAttributes } from "@asset-delivery/sdk";
import { changedAttributes } from "../diff";
import type { Session } from "../session";
import { liveDeclaration, type SourceInputs } from "../source-state";
import { patchFor } from "./patch";

/** Read like a refresh (an import's many adoptions share list pages), then PATCHed only where it differs. */
export async function adoptById(session: Session, id: string, inputs: SourceInputs, attributes: SourceCreateAttributes): Promise<Source> {
  const existing = await session.reads.read(id);
  if (!existing) throw new Error(`adoptSourceId: the account of the API key has no Source "${id}"`);
  return bringToDeclaredState(session, existing, inputs, attributes);
}

/** One PATCH of whatever differs; secrets are unknown on the server, so declared ones are always sent. */
export async function bringToDeclaredState(session: Session, existing: Source, inputs: SourceInputs, attributes: SourceCreateAttributes): Promise<Source> {
  const patch = patchFor(changedAttributes(liveDeclaration(existing), inputs), attributes);
  return patch ? session.client.sources.update(existing.id, patch) : existing;
}

// The server names the taken hostname by a JSON pointer into the request.
const HOSTNAME_POINTER = /\/deployment\/(service_subdomains|custom_domains)(\/|$)/;

/**
 * After a create failed because a hostname is taken: the retired (disabled) Source of this
 * account that holds the declared subdomains, which `destroy` left behind. Anything else is
 * explained and raised.
 */
export async function retiredHolder(session: Session, failure: unknown, attributes: SourceCreateAttributes): Promise<Source> {
  if (!(failure instanceof BadRequestError) || !failure.errors.some((e) => HOSTNAME_POINTER.test(e.source?.pointer ?? ""))) throw failure;
  const holders = new Map<string, { source: Source; labels: string[] }>();
  for (const label of attributes.deployment.service_subdomains) {
    const holder = await session.client.sources.findBySubdomain(label);
    if (holder) holders.set(holder.id, { source: holder, labels: [...(holders.get(holder.id)?.labels ?? []), label] });
  }
  const [only, ...others] = [...holders.values()];
  if (only && others.length === 0 && !only.source.attributes.enabled) return only.source;
  if (!only) throw failure;
  const owners = [...holders.values()].map(({ source, labels }) => `${labels.map((l) => `"${l}"`).join(", ")} to Source ${source.id} ("${source.attributes.name}", ${source.attributes.enabled ? "enabled" : "retired"})`);
  throw new Error(
    `${failure.message}. In this account the subdomains belong ${owners.join("; ")}. ` +
      `To take a Source over, set adoptSourceId to its id; a retired Source is adopted by itself only when it holds every taken subdomain alone.`,
    { cause: failure },
  );
}
