// One API client (and one read coalescer) per set of credentials for the life of the provider
// process, so that reads arriving together share requests and pacing covers every call.
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import type { Credentials } from "./credentials";
import { ReadCoalescer } from "./read-coalescer";

export interface Session {
  client: AssetDeliveryClient;
  reads: ReadCoalescer;
  /** Service subdomains are `<label>.<deliveryDomain>`; default the sdk's DEFAULT_DELIVERY_DOMAIN. */
  deliveryDomain?: string;
}

const sessions = new Map<string, Session>();

/** The provider's session for these credentials, shared by the whole process: never closed. */
export function sessionFor(credentials: Credentials): Session {
  const key = JSON.stringify([credentials.baseUrl, credentials.apiKey, credentials.pacing, credentials.deliveryDomain]);
  let session = sessions.get(key);
  if (!session) {
    session = openSession(credentials);
    sessions.set(key, session);
  }
  return session;
}

/** A session of the caller's own, which the caller closes (`session.client.close()`). */
export function openSession({ deliveryDomain, ...clientOptions }: Credentials): Session {
  const client = createClient(clientOptions);
  return {
    client,
    reads: new ReadCoalescer({ list: (page) => client.sources.list({ page }), get: (id) => client.sources.get(id) }),
    ...(deliveryDomain !== undefined && { deliveryDomain }),
  };
}
