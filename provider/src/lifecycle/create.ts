// `create`: POST the declared Source (the sdk reconciles ambiguous failures, so a retried POST
// never makes two), or adopt: the Source named by `adoptSourceId`, or the retired Source of this
// account that still holds the declared subdomains after a `destroy`. Then wait until deployed.
import type { SourceCreateAttributes } from "@asset-delivery/sdk";
import type { Session } from "../session";
import { apiAttributes, sourceOutputs, type SourceInputs } from "../source-state";
import { adoptById, bringToDeclaredState, retiredHolder } from "./adopt";
import { settle } from "./settle";

export async function createSource(session: Session, inputs: SourceInputs): Promise<{ id: string; outs: Record<string, unknown> }> {
  const written = typeof inputs.adoptSourceId === "string" ? await adoptById(session, inputs.adoptSourceId, inputs) : await createOrReclaim(session, inputs);
  const source = await settle(session, written, inputs);
  session.reads.remember(source);
  return { id: source.id, outs: sourceOutputs(source, inputs) };
}

async function createOrReclaim(session: Session, inputs: SourceInputs) {
  const attributes = apiAttributes(inputs) as SourceCreateAttributes;
  try {
    return await session.client.sources.create(attributes);
  } catch (error) {
    const retired = await retiredHolder(session, error, attributes);
    return bringToDeclaredState(session, retired, inputs);
  }
}
