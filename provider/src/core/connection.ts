// A connection to the API for one set of settings: the client (paced, retried) and the read
// coalescer over it, so that reads arriving together share requests and pacing covers every call.
// Whoever opens one closes it: the provider object when it is closed, a
// data-source function or a CLI command after its calls.
import { createClient, DEFAULT_DELIVERY_DOMAIN, type AssetDeliveryClient, type ClientOptions } from "@asset-delivery/sdk";
import { ReadCoalescer } from "./read-coalescer";
import { clientOptionsOf, type ProviderSettings } from "./settings";

export interface Connection {
  client: AssetDeliveryClient;
  reads: ReadCoalescer;
  /** Service subdomains are `<label>.<deliveryDomain>`: the setting, else the sdk's DEFAULT_DELIVERY_DOMAIN. */
  deliveryDomain: string;
  close: () => Promise<void>;
}

/** `hooks`: the client's hooks (the provider's write budget listens to its requests and waits). */
export function connect(settings: ProviderSettings, hooks: Pick<ClientOptions, "onResponse" | "onPacingWait"> = {}): Connection {
  const { deliveryDomain = DEFAULT_DELIVERY_DOMAIN } = settings;
  const client = createClient({ ...clientOptionsOf(settings), ...hooks });
  return {
    client,
    reads: new ReadCoalescer({ list: (page) => client.sources.list({ page }), get: (id) => client.sources.get(id) }),
    deliveryDomain,
    close: () => client.close(),
  };
}
