// Creating a Source without ever creating two. A POST is not blindly repeated: after an ambiguous
// failure (a 5xx, a timeout, a connection lost once the request was out) the Source is looked up by
// its first service subdomain, which is unique across Sources. Found with what this create sent (the
// same name, and the same annotation when one was sent: callers put a mark of their own in it, as
// the provider does, since another client may well use the same name): that is our Source. Not
// found: the create did not land, so it is sent again, after the client's backoff and as often as
// its retry policy allows.
import type { Source } from "../api";
import { BadRequestError } from "./errors";
import { isAmbiguousFailure } from "./retry";

export interface CreateSteps {
  /** Sends the create request once (pacing, 429 and before-send retries included). */
  send: () => Promise<Source>;
  /** The Source holding the new Source's first subdomain, if any. */
  findExisting: () => Promise<Source | undefined>;
  /** Whether a Source holding the subdomain is the one this create made (see the top of this file). */
  isOurs: (existing: Source) => boolean;
  /** How many times the create may be sent in all: 1 + the client's `maxRetries`. */
  attempts: number;
  /** Waits before the create is sent again (the client's backoff after `retriesSoFar` retries). */
  pause: (retriesSoFar: number) => Promise<void>;
}

export async function createWithoutDuplicate(steps: CreateSteps): Promise<Source> {
  let failure: unknown;
  for (let attempt = 0; attempt < steps.attempts; attempt++) {
    if (attempt > 0) await steps.pause(attempt - 1);
    try {
      return await steps.send();
    } catch (error) {
      // On the repeat, "subdomain taken" may mean the first request landed after our lookup.
      const mayBeOurs = isAmbiguousFailure(error) || (attempt > 0 && error instanceof BadRequestError);
      if (!mayBeOurs) throw error;
      const existing = await steps.findExisting();
      if (existing && steps.isOurs(existing)) return existing;
      // Held by another Source: a create with this subdomain cannot have succeeded.
      if (existing) throw error;
      failure = error;
    }
  }
  throw failure;
}
