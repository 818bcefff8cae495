// `client.purges`: removing an asset and all its derivatives from the service's caches (the call
// the vendor's docs describe; the spec names only its permission and rate limit).
import { callEndpoint } from "./endpoint";
import { endpoints } from "./endpoints";
import { ConflictError } from "./errors";
import type { Send } from "./transport";

export interface PurgeOptions {
  /** The URL is an image used inside others (a mark or blend): purge those too. Needs `sourceId`. */
  subImage?: boolean;
  /** With `subImage`: the Source whose images use the sub-image. */
  sourceId?: string;
}

/**
 * What became of a purge request. Both mean the purge takes effect: `accepted` (not yet finished:
 * the service works through it), or `already-purging` (the same URL was purged less than 10
 * seconds ago; the service answered 409, which is no error to retry).
 */
export type PurgeResult = { status: "accepted"; purgeId: string } | { status: "already-purging" };

export class PurgesResource {
  constructor(private readonly send: Send) {}

  /** Purges `url` (query parameters are ignored: every derivative of the path goes). Paced to 10 per second. */
  async create(url: string, options: PurgeOptions = {}): Promise<PurgeResult> {
    try {
      const document = await callEndpoint(this.send, endpoints.purge, {
        input: {
          url,
          ...(options.subImage !== undefined && { sub_image: options.subImage }),
          ...(options.sourceId !== undefined && { source_id: options.sourceId }),
        },
      });
      return { status: "accepted", purgeId: document.data.attributes.purge_id };
    } catch (error) {
      if (error instanceof ConflictError) return { status: "already-purging" };
      throw error;
    }
  }
}
