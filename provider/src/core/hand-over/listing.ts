// Who holds each name, from one listing of the account per run (the read coalescer's), made when a
// check first needs it. A failed listing is not kept: the next need lists again.
import type { Source } from "@asset-delivery/sdk";
import { holdersOf } from "./holders";
import type { Holder } from "./plan";

export class HolderListing {
  private holders: Promise<Map<string, Holder>> | undefined;
  private listed: Map<string, Holder> | undefined;

  constructor(private readonly listSources: () => Promise<Source[]>) {}

  /** The holders, listing the account if no listing was made (or the last one failed). */
  get(): Promise<Map<string, Holder>> {
    if (!this.holders) {
      this.holders = this.listSources()
        .then(holdersOf)
        .then((holders) => (this.listed = holders));
      this.holders.catch(() => (this.holders = undefined));
    }
    return this.holders;
  }

  /** What a check listed, without listing (a write lists nothing itself); empty when none was made or it failed. */
  async known(): Promise<Map<string, Holder>> {
    return (await this.holders?.catch(() => undefined)) ?? new Map<string, Holder>();
  }

  /** A Source this run wrote (a replacement's create, which took it over): it holds `names` (by hostnameId) now. */
  replace(holder: Holder, names: Iterable<string>): void {
    if (!this.listed) return;
    for (const [name, known] of this.listed) if (known.id === holder.id) this.listed.delete(name);
    for (const name of names) this.listed.set(name, holder);
  }

  /** The listing's answer if it came (a listing still under way is not awaited at the end of a run). */
  settled(): Map<string, Holder> {
    return this.listed ?? new Map<string, Holder>();
  }
}
