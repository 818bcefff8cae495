// Reads of Sources (a refresh, the adoptions of an import, a drift review) answered from one
// listing of the account: the API has no id filter, so the account's Sources are listed 100 a
// page, and every read is answered from the pages, each as soon as the page holding it arrives.
//
// Why not gather reads in a time window and list only as far as they need: the engine refreshes
// (and creates) a few resources at a time (`--parallel`, 8 by default), each next read only after
// an earlier one is answered. So there are never more than 8 reads waiting, and a rule that lists
// the next pages only when more reads wait than pages remain never lists a big account: at 1,000
// Sources (10 pages) every read became a single GET, 1,000 GETs at the spec's 4 requests a second.
//
// Instead the first read starts a listing. A lone read that page 0 does not answer is a GET (a
// targeted refresh, one adoption); once a second read has been asked, every remaining page is
// requested at once (the client's pacing spaces them) and reads are answered from them. A refresh
// then costs the account's pages, whatever the stack's size. A Source missing from the complete
// listing is confirmed gone by a GET: the API promises no order, so a page may shift when a Source
// is created meanwhile, and dropping a live Source from the state would be worse than one request.
// A listing serves one wave of reads, as one operation asks them: each Source once (a refresh or an
// import reads each once; a Source read again is asked of the server again, in a new listing), and
// only while reads keep coming (`maxIdleMs` since the last one) and for `maxAgeMs` at most. The wave
// of a big stack's adoptions is as long as the engine takes to create them all (minutes for 1,000),
// so a fixed lifetime of a minute listed the account again and again within one update; a pause
// means a new operation in a process that lives through several (tests, a drift review after a
// write), which then never answers from a copy older than its last read. What this process writes
// replaces a listed copy.
import { MAX_PAGE_SIZE, NotFoundError, type Source } from "@asset-delivery/sdk";

export interface SourceLookup {
  list(page: { number: number; size: number }): Promise<{ data: Source[]; pagination: { totalPages: number } }>;
  get(id: string): Promise<Source>;
}

export interface ReadCoalescerOptions {
  /** How long a listing answers reads after the last read it was asked. Default 30 s. */
  maxIdleMs?: number;
  /** How long a listing answers reads after it began, however busy. Default 15 min. */
  maxAgeMs?: number;
  now?: () => number;
}

interface Waiter {
  resolve: (source: Source | undefined) => void;
  reject: (error: unknown) => void;
}

/** One pass over the account's pages. */
interface Listing {
  startedAt: number;
  /** When it was last asked for a Source. */
  lastReadAt: number;
  /** Sources seen in its pages, or written by this process since. */
  sources: Map<string, Source>;
  /** Distinct ids asked of this listing. */
  asked: Set<string>;
  /** Ids it answered: each Source once. */
  answered: Set<string>;
  /** Reads waiting for a page, by id. */
  waiting: Map<string, Waiter[]>;
  /** Page 0 is listed (and with it the number of pages). */
  firstPage: Promise<number>;
  /** Every page is listed; started once more than one read was asked. */
  allPages?: Promise<void>;
  complete: boolean;
  /** GETs of reads the pages did not answer, by id. */
  confirming: Map<string, Promise<void>>;
}

export class ReadCoalescer {
  private readonly maxIdleMs: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private listing: Listing | undefined;

  constructor(
    private readonly lookup: SourceLookup,
    options: ReadCoalescerOptions = {},
  ) {
    this.maxIdleMs = options.maxIdleMs ?? 30_000;
    this.maxAgeMs = options.maxAgeMs ?? 15 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** The Source as the server has it, or undefined when the server no longer has it. */
  read(id: string): Promise<Source | undefined> {
    const listing = this.current(id);
    const listed = listing.sources.get(id);
    if (listed) {
      listing.answered.add(id);
      return Promise.resolve(listed);
    }
    const answer = new Promise<Source | undefined>((resolve, reject) => {
      listing.waiting.set(id, [...(listing.waiting.get(id) ?? []), { resolve, reject }]);
    });
    listing.asked.add(id);
    void this.pursue(listing, id);
    return answer;
  }

  /** Every Source of the account, from a new complete listing, which then answers reads of them. */
  async all(): Promise<Source[]> {
    const listing = this.startListing();
    await this.listAll(listing, await listing.firstPage);
    return [...listing.sources.values()];
  }

  /** A new run (the provider configured again): no read is answered from an earlier run's listing. */
  forget(): void {
    this.listing = undefined;
  }

  /** A Source this process just wrote: the listing's copy, if it has one, is replaced. */
  remember(source: Source): void {
    if (this.listing?.sources.has(source.id)) this.listing.sources.set(source.id, source);
  }

  /**
   * The listing that answers a read of `id` now: a new one when there is none, when it is too old,
   * or when it already answered `id` (a second read of a Source wants the server's copy now).
   */
  private current(id: string): Listing {
    const listing = this.listing;
    const now = this.now();
    const fresh =
      listing && now - listing.lastReadAt < this.maxIdleMs && now - listing.startedAt < this.maxAgeMs && !listing.answered.has(id);
    const current = fresh ? listing : this.startListing();
    current.lastReadAt = now;
    return current;
  }

  private startListing(): Listing {
    const listing: Listing = {
      startedAt: this.now(),
      lastReadAt: this.now(),
      sources: new Map(),
      asked: new Set(),
      answered: new Set(),
      waiting: new Map(),
      firstPage: Promise.resolve(0),
      complete: false,
      confirming: new Map(),
    };
    listing.firstPage = this.listPage(listing, 0).then(async (totalPages) => {
      if (totalPages <= 1) await this.completed(listing);
      return totalPages;
    });
    // Failures reach the waiting reads (see listPage); this only keeps Node from reporting them twice.
    listing.firstPage.catch(() => undefined);
    this.listing = listing;
    return listing;
  }

  /** Lists pages 1 .. totalPages-1 (once per listing), then confirms the still-missing reads. */
  private listAll(listing: Listing, totalPages: number): Promise<void> {
    if (!listing.allPages) {
      listing.allPages = (async () => {
        const rest = Array.from({ length: totalPages - 1 }, (_, i) => this.listPage(listing, i + 1));
        await Promise.all(rest);
        if (!listing.complete) await this.completed(listing);
      })();
      // Failures reach the waiting reads (see listPage), and all() through this promise.
      listing.allPages.catch(() => undefined);
    }
    return listing.allPages;
  }

  /** Lists one page and answers the reads it holds; a failure fails every waiting read and the listing. */
  private async listPage(listing: Listing, number: number): Promise<number> {
    try {
      const page = await this.lookup.list({ number, size: MAX_PAGE_SIZE });
      for (const source of page.data) {
        if (!listing.sources.has(source.id)) listing.sources.set(source.id, source);
        this.settle(listing, source.id, listing.sources.get(source.id));
      }
      return page.pagination.totalPages;
    } catch (error) {
      this.fail(listing, error);
      throw error;
    }
  }

  /** The listing is complete: a read it did not answer is confirmed by a GET. */
  private async completed(listing: Listing): Promise<void> {
    listing.complete = true;
    await Promise.all([...listing.waiting.keys()].map((id) => this.confirm(listing, id)));
  }

  /** After page 0: the read is answered, or waits for the other pages, or is a GET. Never throws: failures reach the waiters. */
  private async pursue(listing: Listing, id: string): Promise<void> {
    let totalPages: number;
    try {
      totalPages = await listing.firstPage;
    } catch {
      return; // the listing failed and rejected every waiting read
    }
    if (!listing.waiting.has(id)) return;
    const lone = listing.asked.size === 1 && listing.allPages === undefined;
    if (listing.complete || lone) await this.confirm(listing, id);
    else await this.listAll(listing, totalPages).catch(() => undefined);
  }

  /** One GET for a read the pages did not answer (once per id). */
  private confirm(listing: Listing, id: string): Promise<void> {
    let confirming = listing.confirming.get(id);
    if (!confirming) {
      confirming = this.getOrUndefined(id).then(
        (source) => this.settle(listing, id, source),
        (error: unknown) => {
          const waiters = listing.waiting.get(id) ?? [];
          listing.waiting.delete(id);
          for (const waiter of waiters) waiter.reject(error);
        },
      );
      listing.confirming.set(id, confirming);
    }
    return confirming;
  }

  private settle(listing: Listing, id: string, source: Source | undefined): void {
    if (source) listing.sources.set(id, source);
    if (listing.waiting.has(id)) listing.answered.add(id);
    const waiters = listing.waiting.get(id) ?? [];
    listing.waiting.delete(id);
    for (const waiter of waiters) waiter.resolve(source);
  }

  private fail(listing: Listing, error: unknown): void {
    if (this.listing === listing) this.listing = undefined;
    const waiters = [...listing.waiting.values()].flat();
    listing.waiting.clear();
    for (const waiter of waiters) waiter.reject(error);
  }

  private async getOrUndefined(id: string): Promise<Source | undefined> {
    try {
      return await this.lookup.get(id);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }
}
