// The managed Sources as the server has them, in a handful of requests whatever their number: the
// provider's read coalescer lists the account's Sources 100 a page and confirms with a GET each
// Source missing from the listing. Only GETs are sent.
import type { Source } from "@asset-delivery/sdk";
import { openSession, type Credentials } from "@asset-delivery/provider/drift";

/** Every id, with its Source, or undefined when the server does not have it. */
export async function liveSources(credentials: Credentials, ids: readonly string[]): Promise<Map<string, Source | undefined>> {
  // A session of its own, closed after the review (the provider's per-process session is the
  // provider's: closing it would break every later review in this process).
  const session = openSession(credentials);
  try {
    // Asked all at once, so that the reads form one batch.
    return new Map(await Promise.all(ids.map(async (id) => [id, await session.reads.read(id)] as const)));
  } finally {
    await session.client.close();
  }
}
