// One API client (and one read coalescer) per set of credentials for the life of the provider
// process, so that reads arriving together share requests and pacing covers every call.
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import type { Credentials } from "./credentials";
import { ReadCoalescer } from "./read-coalescer";

export interface Session {
  client: AssetDeliveryClient;
  reads: ReadCoalescer;
}

const sessions = new Map<string, Session>();

export function sessionFor(credentials: Credentials): Session {
  const key = JSON.stringify([credentials.baseUrl, credentials.apiKey, credentials.pacing]);
  let session = sessions.get(key);
  if (!session) {
    const client = createClient(credentials);
    session = { client, reads: new ReadCoalescer({ list: (page) => client.sources.list({ page }), get: (id) => client.sources.get(id) }) };
    sessions.set(key, session);
  }
  return session;
}
