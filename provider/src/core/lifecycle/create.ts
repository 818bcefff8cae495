// `create`: POST the declared Source (the sdk reconciles ambiguous failures, so a retried POST
// never makes two), or adopt: the Source named by `adoptSourceId`, or, when the declared hostnames
// are taken, the Source holding them if the evidence says it is this resource's: it carries this
// resource's create mark (a create of a run that was killed, see create-mark.ts), or it is a
// retired Source of this account (left by a `destroy`), or the Source this resource replaces
// (run-replacements.ts). Then wait until deployed.
import type { Session } from "../session";
import { declaredAttributes, sourceOutputs, type DeclaredAttributes, type SourceInputs, type SourceState } from "../codec";
import { annotationWithMark, type Creator } from "../create-mark";
import { adoptById, bringToDeclaredState, reclaimableHolder } from "./adopt";
import { settle, type Written } from "./settle";

/** What a shell knows of a write besides the inputs. */
export interface WriteOptions {
  /** Who creates the Source, for the create mark (create-mark.ts): each shell says it its own way. */
  creator?: Creator;
  /** A bound the shell sets on the write (seconds; 0 or absent when none): it bounds the wait when shorter than `deploymentTimeoutSeconds`. */
  timeoutSeconds?: number;
}

/** What a create knows besides the shell's options: the Source its resource replaces in this run (run-replacements.ts). */
export interface CreateOptions extends WriteOptions {
  replaces?: string;
  /** The replaced Source holds names the create declares (its check listed them): taken over with no POST, which the API would refuse. */
  keepsNames?: boolean;
  /** Told the id of a Source the create takes over, as soon as it does (before the wait for its deployment). */
  onTakeOver?: (id: string) => void;
}

export async function createSource(
  session: Session,
  inputs: SourceInputs,
  options: CreateOptions = {},
): Promise<{ id: string; outs: SourceState }> {
  // Check's parse, handed back by the engine: sent without another (the sdk's createParsed).
  const attributes = declaredAttributes(inputs);
  const { adoptSourceId } = inputs.options;
  const written =
    adoptSourceId !== undefined
      ? await adoptById(session, adoptSourceId, inputs, attributes)
      : await createOrReclaim(session, inputs, attributes, options);
  const source = await settle(session, written, inputs, options.timeoutSeconds);
  session.reads.remember(source);
  return { id: source.id, outs: sourceOutputs(source, inputs) };
}

async function createOrReclaim(
  session: Session,
  inputs: SourceInputs,
  attributes: DeclaredAttributes,
  { creator, replaces, keepsNames, onTakeOver }: CreateOptions,
): Promise<Written> {
  // A replacement keeping names its Source holds: a POST would be refused (and counted by the hourly budget).
  const replaced = replaces !== undefined && keepsNames === true ? await session.reads.read(replaces) : undefined;
  if (replaced) {
    onTakeOver?.(replaced.id);
    return bringToDeclaredState(session, replaced, inputs, attributes);
  }
  const annotation =
    creator === undefined ? attributes.deployment.annotation : annotationWithMark(attributes.deployment.annotation, creator);
  const marked = { ...attributes, deployment: { ...attributes.deployment, ...(annotation !== undefined && { annotation }) } };
  try {
    // A new Source has no deployment before its first: any `deployed` read is of this one.
    return { source: await session.client.sources.createParsed(marked), deployedBefore: null };
  } catch (error) {
    const holder = await reclaimableHolder(session, error, attributes, creator, replaces);
    onTakeOver?.(holder.id);
    return bringToDeclaredState(session, holder, inputs, attributes);
  }
}
