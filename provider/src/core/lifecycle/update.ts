// `update`: the PATCHes of what differs (see patch.ts: one, unless `enabled` changes too), then wait
// until deployed, then purge what `purgeAfterUpdate` lists if rendering changed (purge.ts). A
// change of the provider's own options alone (how to wait, what to purge) needs no request.
import type { Session } from "../session";
import { diffSource } from "../diff";
import { declaredAttributes, sourceOutputs, type SourceInputs, type SourceState } from "../codec";
import type { WriteOptions } from "./create";
import { planPatches, sendPatches } from "./patch";
import { purgeAfterUpdate } from "./purge";
import { deployedBefore, settle } from "./settle";

export async function updateSource(
  session: Session,
  id: string,
  olds: SourceState,
  news: SourceInputs,
  options: Pick<WriteOptions, "timeoutSeconds"> = {},
): Promise<{ outs: SourceState }> {
  const plan = planPatches(diffSource(id, olds, news), declaredAttributes(news), olds.enabled);
  const patched = await sendPatches(session, id, plan.patches);
  if (!patched) return { outs: { ...olds, options: news.options } };
  // The state holds the Source as last read: its deployment predates these PATCHes.
  const source = await settle(
    session,
    { source: patched, ...deployedBefore(plan.deploys, olds.date_deployed) },
    news,
    options.timeoutSeconds,
  );
  session.reads.remember(source);
  await purgeAfterUpdate(session, olds.deployment, news, source);
  return { outs: sourceOutputs(source, news) };
}
