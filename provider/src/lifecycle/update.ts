// `update`: one PATCH of what differs (see patch.ts), then wait until deployed. A change of the
// provider's own options alone (how to wait) needs no request.
import type { Session } from "../session";
import { diffSource } from "../diff";
import { PROVIDER_OPTION_KEYS, providerOptions, sourceOutputs, type SourceInputs } from "../source-state";
import { patchFor } from "./patch";
import { settle } from "./settle";

export async function updateSource(session: Session, id: string, olds: SourceInputs, news: SourceInputs): Promise<{ outs: Record<string, unknown> }> {
  const patch = patchFor(diffSource(id, olds, news).changed, news);
  if (!patch) {
    const kept = Object.fromEntries(Object.entries(olds).filter(([key]) => !(PROVIDER_OPTION_KEYS as readonly string[]).includes(key)));
    return { outs: { ...kept, ...providerOptions(news) } };
  }
  const source = await settle(session, await session.client.sources.update(id, patch), news);
  session.reads.remember(source);
  return { outs: sourceOutputs(source, news) };
}
