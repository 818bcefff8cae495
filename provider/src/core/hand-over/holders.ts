// Who holds each host name, from a listing of the account's Sources (the read coalescer's: one
// pass over the account's pages, however many names are looked up).
import type { Source } from "@asset-delivery/sdk";
import { hostnamesOf, type Holder } from "./plan";

/** Each name's holder, by hostnameId. */
export function holdersOf(sources: readonly Source[]): Map<string, Holder> {
  const holders = new Map<string, Holder>();
  for (const source of sources) {
    const holder = { id: source.id, name: source.attributes.name, enabled: source.attributes.enabled, source };
    for (const id of hostnamesOf(source.attributes.deployment).keys()) holders.set(id, holder);
  }
  return holders;
}
