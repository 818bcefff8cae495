// Taking over an existing Source and bringing it to the declared state: by id (`adoptSourceId`,
// the import path), or the Source of this account found holding the declared hostnames when it was
// created for this resource (create-mark.ts) or is retired.
import { BadRequestError, printable, type Source } from "@asset-delivery/sdk";
import { changedAttributes } from "../diff";
import type { Session } from "../session";
import { liveDeclaration, type DeclaredAttributes, type SourceInputs } from "../codec";
import { holdersOf } from "../hand-over/holders";
import { holdsMessage } from "../hand-over/messages";
import { hostnamesOf, takenOverHolder, type Holder } from "../hand-over/plan";
import { isOwnSource, type NewSource } from "../hand-over/take-over";
import { trustedSecretsOf } from "../trusted-secrets";
import { planPatches, sendPatches } from "./patch";
import { deployedBefore, type Written } from "./settle";

/**
 * Read like a refresh (an import's many adoptions share list pages), then PATCHed only where it
 * differs; a declared secret equal to one the user declared the server holds is not sent (trusted-secrets.ts).
 */
export async function adoptById(session: Session, id: string, inputs: SourceInputs, attributes: DeclaredAttributes): Promise<Written> {
  const existing = await session.reads.read(id);
  if (!existing) throw new Error(`adoptSourceId: the account of the API key has no Source "${printable(id)}"`);
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
 * when the take-over rule (hand-over/plan.ts `takenOverHolder`) lets this create take it: its own (its create
 * mark, or the Source it replaces: run-replacements.ts) or retired, and the only Source holding
 * them. The refusal is not read for its cause (the spec promises no member that names the field):
 * the holders are found as the hand-over plan finds them, in a listing of the account. When no
 * Source holds one, the refusal had another cause and is raised as it is; otherwise the holders are named.
 */
export async function reclaimableHolder(
  session: Session,
  failure: unknown,
  attributes: DeclaredAttributes,
  created: NewSource,
): Promise<Source> {
  if (!(failure instanceof BadRequestError)) throw failure;
  const listed = holdersOf(await session.reads.all());
  const held = new Map<string, { holder: Holder; names: string[] }>();
  for (const [id, { name }] of hostnamesOf(attributes.deployment)) {
    const holder = listed.get(id);
    if (holder) held.set(holder.id, { holder, names: [...(held.get(holder.id)?.names ?? []), name] });
  }
  if (held.size === 0) throw failure;
  const taken = takenOverHolder(
    [...held.values()].map(({ holder }) => holder),
    isOwnSource(created),
  );
  if (taken?.source) return taken.source;
  throw new Error(
    `${failure.message}. In this account, ${[...held.values()].map(({ holder, names }) => holdsMessage(holder, names)).join("; ")}`,
    {
      cause: failure,
    },
  );
}
