// The account's Sources that match a query, page after page (100 a page), and never more than a
// cap: every list is bounded.
import { MAX_PAGE_SIZE, type AssetDeliveryClient, type Source } from "@asset-delivery/sdk";
import type { SourceQuery } from "./filters";

export const DEFAULT_MAX_SOURCES = 10_000;

export async function accountSources(client: AssetDeliveryClient, query: SourceQuery, max = DEFAULT_MAX_SOURCES): Promise<Source[]> {
  const sources = await client.sources.all({ ...query, page: { size: MAX_PAGE_SIZE } }, { max: max + 1 });
  if (sources.length > max) throw new Error(`the account has more than ${max} matching Sources: narrow the selection with --filter`);
  return sources;
}
