// Taking over an existing Source and bringing it to the declared state: by id (`adoptSourceId`,
// the import path), or the Source of this account found holding the declared hostnames when it was
// created for this resource (create-mark.ts) or is retired.
import { BadRequestError, HOSTNAME_FIELDS, type Source } from "@asset-delivery/sdk";
import { changedAttributes } from "../diff";
import type { Session } from "../session";
import { liveDeclaration, type DeclaredAttributes, type SourceInputs } from "../codec";
import { carriesMark, type Creator } from "../create-mark";
import { trustedSecretsOf } from "../trusted-secrets";
import { planPatches, sendPatches } from "./patch";
import { deployedBefore, type Written } from "./settle";

/**
 * Read like a refresh (an import's many adoptions share list pages), then PATCHed only where it
 * differs; a declared secret equal to one the user declared the server holds is not sent (trusted-secrets.ts).
 */
export async function adoptById(session: Session, id: string, inputs: SourceInputs, attributes: DeclaredAttributes): Promise<Written> {
  const existing = await session.reads.read(id);
  if (!existing) throw new Error(`adoptSourceId: the account of the API key has no Source "${id}"`);
  return bringToDeclaredState(session, existing, inputs, attributes, trustedSecretsOf(session.trustedSecrets, existing));
}

/**
 * The PATCHes of whatever differs (see patch.ts); secrets are unknown on the server, so declared
 * ones are sent, but for those `onServer` says it holds (API names to values).
 */
export async function bringToDeclaredState(
  session: Session,
  existing: Source,
  inputs: SourceInputs,
  attributes: DeclaredAttributes,
  onServer: Readonly<Record<string, string>> = {},
): Promise<Written> {
  const live = liveDeclaration(existing);
  const known = { ...live, deployment: { ...live.deployment, ...onServer } };
  const plan = planPatches(
    changedAttributes(known, inputs),
    attributes,
    existing.attributes.enabled,
    existing.attributes.deployment.annotation,
  );
  const patched = await sendPatches(session, existing.id, plan.patches);
  return { source: patched ?? existing, ...deployedBefore(plan.deploys, existing.attributes.date_deployed) };
}

/**
 * After a create was refused (400): the Source of this account that holds the declared hostnames,
 * when the evidence says this resource may take it: it carries this resource's create mark
 * (`creator`'s: a create of a run that was killed before it was recorded), or it is the Source this
 * create's resource replaces (`replaces`: run-replacements.ts), or it is retired
 * (disabled, as a retirement leaves it). Same hostnames and same name are no evidence: a copy of a
 * project declares both. The refusal is not read for its cause (the spec promises no member that names the
 * field): every declared hostname is looked up instead, one list call each. When no Source of the
 * account holds one, the refusal had another cause and is raised as it is; when they are held
 * otherwise than by one such Source, the holders are named.
 */
export async function reclaimableHolder(
  session: Session,
  failure: unknown,
  attributes: DeclaredAttributes,
  creator: Creator | undefined,
  replaces?: string,
): Promise<Source> {
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
  const ours = (creator !== undefined && carriesMark(only.source, creator)) || only.source.id === replaces;
  if (others.length === 0 && (ours || !only.source.attributes.enabled)) return only.source;
  const owners = [...holders.values()].map(
    ({ source, names }) =>
      `Source ${source.id} ("${source.attributes.name}", ${source.attributes.enabled ? "enabled" : "retired"}) holds ${names.map((n) => `"${n}"`).join(", ")}`,
  );
  throw new Error(
    `${failure.message}. In this account, ${owners.join("; ")}: not a Source created for this resource by an interrupted run, ` +
      `nor one retired Source holding every declared hostname that is taken. To take a Source over, set adoptSourceId to its id.`,
    { cause: failure },
  );
}
