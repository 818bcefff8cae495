// The account as a drift review needs it, in list pages whatever the number of Sources: the
// managed Sources as the server has them (the provider's read coalescer answers each from the
// listing and confirms with a GET one missing from it), and the account's enabled Sources, for
// the unmanaged list. Without filters one complete listing serves both. Only GETs are sent.
import type { Source } from "@asset-delivery/sdk";
import { connect, type ProviderSettings } from "@asset-delivery/provider/core";
import { accountSources } from "../sources/account";
import type { SourceQuery } from "../sources/filters";

export interface LiveAccount {
  /** Every id asked, with its Source, or undefined when the server does not have it. */
  live: Map<string, Source | undefined>;
  /** The account's enabled Sources that the query selects. */
  enabled: Source[];
}

export async function liveSources(settings: ProviderSettings, ids: readonly string[], query: SourceQuery = {}): Promise<LiveAccount> {
  // A connection of its own, closed after the review.
  const session = connect(settings);
  try {
    const filtered = query.filter !== undefined || query.or !== undefined;
    // The whole account first: the managed Sources are then read from the same pages.
    const enabled = filtered
      ? await accountSources(session.client, { ...query, filter: { ...query.filter, enabled: true } })
      : (await session.reads.all()).filter((source) => source.attributes.enabled);
    // Asked all at once, so that reads missing from the listing are confirmed side by side.
    const live = new Map(await Promise.all(ids.map(async (id) => [id, await session.reads.read(id)] as const)));
    return { live, enabled };
  } finally {
    await session.close();
  }
}
