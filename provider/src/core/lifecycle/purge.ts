// `purgeAfterUpdate`: once an update that changes how images render (a field the sdk's table marks
// as affecting rendering, or the deployment type) has deployed, the declared paths or URLs are
// purged, so the new configuration is served (spec 3.1: previously rendered derivatives may need
// purging). Never on create, never after other updates; a failed purge is a warning, not a failed
// update (the Source was updated).
import deepEqual from "fast-deep-equal";
import { printable, renderingFields, type Source, type StoredDeployment } from "@asset-delivery/sdk";
import type { Session } from "../session";
import type { SourceInputs, StateDeployment } from "../codec";

export function changesRendering(olds: StateDeployment | StoredDeployment, news: StoredDeployment): boolean {
  if (olds.type !== news.type) return true;
  const before: Readonly<Record<string, unknown>> = olds;
  const after: Readonly<Record<string, unknown>> = news;
  return renderingFields(news.type).some((field) => !deepEqual(before[field], after[field]));
}

/** A declared path is on the Source's first service subdomain; a URL is taken as it is. */
export function purgeUrl(target: string, source: Source, deliveryDomain: string): string {
  if (!target.startsWith("/")) return target;
  return `https://${source.attributes.deployment.service_subdomains[0]}.${deliveryDomain}${target}`;
}

export async function purgeAfterUpdate(session: Session, olds: StateDeployment, news: SourceInputs, source: Source): Promise<void> {
  const targets = news.options.purgeAfterUpdate ?? [];
  if (targets.length === 0 || !changesRendering(olds, news.deployment)) return;
  // Without the wait, the Source may still be deploying the old configuration.
  if (!news.options.waitForDeployment) {
    await session.warn(
      `Source ${printable(source.id)}: purgeAfterUpdate skipped: the update's deployment was not waited for (waitForDeployment: false); purge once it has deployed (asset-delivery purge URL...)`,
    );
    return;
  }
  // One at a time: the client paces them to the purge limit (10 per second).
  for (const target of targets) {
    const url = purgeUrl(target, source, session.deliveryDomain);
    try {
      await session.client.purges.create(url);
    } catch (error) {
      await session.warn(
        `Source ${printable(source.id)}: purging ${printable(url)} after the update failed (the update itself succeeded): ${printable(error instanceof Error ? error.message : String(error))}`,
      );
    }
  }
}
