// `update`: one PATCH of what differs (see patch.ts), then wait until deployed. A change of the
// provider's own options alone (how to wait) needs no request.
import type { Session } from "../session";
import { diffSource } from "../diff";
import { providerOptions, withoutProviderOptions } from "../provider-options";
import { apiAttributes, sourceOutputs, type SourceInputs, type SourceState } from "../source-state";
import { patchFor } from "./patch";
import { settle } from "./settle";

export async function updateSource(session: Session, id: string, olds: SourceState, news: SourceInputs): Promise<{ outs: SourceState }> {
  const patch = patchFor(diffSource(id, olds, news).changed, apiAttributes(news));
  if (!patch) return { outs: { ...withoutProviderOptions(olds), ...providerOptions(news) } };
  const source = await settle(session, await session.client.sources.update(id, patch), news);
  session.reads.remember(source);
  return { outs: sourceOutputs(source, news) };
}
