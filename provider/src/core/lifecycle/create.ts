// `create`: POST the declared Source (the sdk reconciles ambiguous failures, so a retried POST
// never makes two), or adopt: the Source named by `adoptSourceId`, or the retired Source of this
// account that still holds the declared hostnames after a `destroy`. Then wait until deployed.
import type { Session } from "../session";
import { apiAttributes, sourceOutputs, type DeclaredAttributes, type SourceInputs, type SourceState } from "../codec";
import { adoptById, bringToDeclaredState, retiredHolder } from "./adopt";
import { settle, type Written } from "./settle";

export async function createSource(session: Session, inputs: SourceInputs): Promise<{ id: string; outs: SourceState }> {
  const attributes = apiAttributes(inputs);
  const written =
    inputs.adoptSourceId !== undefined
      ? await adoptById(session, inputs.adoptSourceId, inputs, attributes)
      : await createOrReclaim(session, inputs, attributes);
  const source = await settle(session, written, inputs);
  session.reads.remember(source);
  return { id: source.id, outs: sourceOutputs(source, inputs) };
}

async function createOrReclaim(session: Session, inputs: SourceInputs, attributes: DeclaredAttributes): Promise<Written> {
  try {
    // A new Source has no deployment before its first: any `deployed` read is of this one.
    return { source: await session.client.sources.create(attributes), deployedBefore: null };
  } catch (error) {
    const retired = await retiredHolder(session, error, attributes);
    return bringToDeclaredState(session, retired, inputs, attributes);
  }
}
