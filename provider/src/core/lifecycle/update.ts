// `update`: the PATCHes of what differs (see patch.ts: one, unless `enabled` changes too), then wait
// until deployed, then purge what `purgeAfterUpdate` lists if rendering changed (purge.ts). A
// change of the provider's own options alone (how to wait, what to purge) needs no request. The
// PATCHes are sent apart (`sendUpdate`), so that a change handing host names over to another
// Source of the run can be sent in the order hand-over/plan.ts decides, by whichever write needs it.
import type { Source } from "@asset-delivery/sdk";
import type { Session } from "../session";
import { diffSource } from "../diff";
import { declaredAttributes, sourceOutputs, type SourceInputs, type SourceState } from "../codec";
import type { WriteOptions } from "./create";
import { planPatches, sendPatches } from "./patch";
import { purgeAfterUpdate } from "./purge";
import { deployedBefore, settle } from "./settle";

/** What an update's PATCHes left: the Source as the last one returned it (none when none was needed), and whether they deploy. */
export interface SentUpdate {
  patched: Source | undefined;
  deploys: boolean;
  /**
   * The `date_deployed` read before these PATCHes: the state's, or the release-only PATCH's
   * response's when one went first (its own deployment is not this change's).
   */
  deployedBefore: number | null;
}

/** The PATCHes of what differs between the state and the declared inputs; `released`: the Source a release-only PATCH sent first returned. */
export async function sendUpdate(
  session: Session,
  id: string,
  olds: SourceState,
  news: SourceInputs,
  released?: Source,
): Promise<SentUpdate> {
  const plan = planPatches(diffSource(id, olds, news), declaredAttributes(news), olds.enabled, olds.deployment.annotation);
  const deployedBefore = released ? released.attributes.date_deployed : olds.date_deployed;
  return { patched: await sendPatches(session, id, plan.patches), deploys: plan.deploys, deployedBefore };
}

export async function updateSource(
  session: Session,
  id: string,
  olds: SourceState,
  news: SourceInputs,
  options: Pick<WriteOptions, "timeoutSeconds"> & { send?: () => Promise<SentUpdate> } = {},
): Promise<{ outs: SourceState }> {
  const { send = () => sendUpdate(session, id, olds, news) } = options;
  const plan = await send();
  const patched = plan.patched;
  if (!patched) return { outs: { ...olds, options: news.options } };
  // The state (or the release-only PATCH's response) holds the Source as last read: its deployment predates these PATCHes.
  const source = await settle(
    session,
    { source: patched, ...deployedBefore(plan.deploys, plan.deployedBefore) },
    news,
    options.timeoutSeconds,
  );
  session.reads.remember(source);
  await purgeAfterUpdate(session, olds.deployment, news, source);
  return { outs: sourceOutputs(source, news) };
}
