// Reads that arrive together (a refresh of a whole stack) share paged list calls: the API has no
// id filter, so the account's Sources are listed, 100 a page, and every waiting read is answered
// from the pages. A batch is sent once reads stop arriving (10 ms of quiet), at most 50 ms after its
// first read. A lone read, or a few reads when the rest of the listing is longer than they
// are, costs one GET each instead. Pages stay valid for a short while, so that the next wave of
// reads (Pulumi refreshes a handful of resources at a time) is answered at once, without a request.
import { MAX_PAGE_SIZE, NotFoundError, type Source } from "@asset-delivery/sdk";

export interface SourceLookup {
  list(page: { number: number; size: number }): Promise<{ data: Source[]; pagination: { totalPages: number } }>;
  get(id: string): Promise<Source>;
}

export interface ReadCoalescerOptions {
  /** The longest the first read of a batch waits for others to join it. Default 50 ms. */
  windowMs?: number;
  /** A batch is sent once no read has joined it for this long (a refresh's reads come in bursts). Default 10 ms. */
  quietMs?: number;
  /** How long listed pages answer later reads. Default 60 s. */
  snapshotTtlMs?: number;
  /** Reads at or below this count, with nothing listed yet, are GETs. Default 2. */
  maxSingleReads?: number;
  now?: () => number;
}

interface Waiter {
  id: string;
  resolve: (source: Source | undefined) => void;
  reject: (error: unknown) => void;
}

export class ReadCoalescer {
  private readonly windowMs: number;
  private readonly quietMs: number;
  private readonly snapshotTtlMs: number;
  private readonly maxSingleReads: number;
  private readonly now: () => number;

  private waiting: Waiter[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private scheduled = false;
  private lastJoinedAt = 0;
  /** Sources seen in listed pages (or written since), by id. */
  private known = new Map<string, Source>();
  private pagesListed = 0;
  private totalPages: number | undefined;
  private listedAt = 0;

  constructor(
    private readonly lookup: SourceLookup,
    options: ReadCoalescerOptions = {},
  ) {
    this.windowMs = options.windowMs ?? 50;
    this.quietMs = Math.min(options.quietMs ?? 10, this.windowMs);
    this.snapshotTtlMs = options.snapshotTtlMs ?? 60_000;
    this.maxSingleReads = options.maxSingleReads ?? 2;
    this.now = options.now ?? Date.now;
  }

  /** The Source as the server has it, or undefined when the server no longer has it. */
  read(id: string): Promise<Source | undefined> {
    // Listed a moment ago: answered at once, without waiting for a window (a refresh's later waves).
    this.expireSnapshot();
    const listed = this.known.get(id);
    if (listed) return Promise.resolve(listed);
    return new Promise((resolve, reject) => {
      this.waiting.push({ id, resolve, reject });
      this.lastJoinedAt = performance.now();
      if (this.scheduled) return;
      this.scheduled = true;
      // Reads arriving while a batch is being answered form the next batch.
      this.flushing = this.flushing.then(() => this.gathered()).then(() => this.flush());
    });
  }

  /** A Source this process just wrote: later reads get it as written. */
  remember(source: Source): void {
    if (this.pagesListed > 0) this.known.set(source.id, source);
  }

  /** Resolves when reads have stopped joining the batch for `quietMs`, or `windowMs` after it began. */
  private gathered(): Promise<void> {
    const began = performance.now();
    return new Promise((resolve) => {
      const check = () => {
        const now = performance.now();
        const quietFor = now - Math.max(this.lastJoinedAt, began);
        const left = Math.min(this.quietMs - quietFor, this.windowMs - (now - began));
        if (left <= 0) resolve();
        else setTimeout(check, left);
      };
      setTimeout(check, this.quietMs);
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = [];
    try {
      const found = await this.answer([...new Set(batch.map((w) => w.id))]);
      for (const waiter of batch) waiter.resolve(found.get(waiter.id));
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    }
  }

  private async answer(ids: string[]): Promise<Map<string, Source | undefined>> {
    this.expireSnapshot();
    const found = new Map<string, Source | undefined>();
    let missing = ids.filter((id) => !this.known.has(id));
    while (missing.length > 0 && this.shouldListNextPage(missing.length)) {
      await this.listNextPage();
      missing = missing.filter((id) => !this.known.has(id));
    }
    // A Source missing from a complete listing is confirmed gone by a GET: pages may shift.
    const fetched = await Promise.all(missing.map(async (id) => [id, await this.getOrUndefined(id)] as const));
    for (const id of ids) found.set(id, this.known.get(id));
    for (const [id, source] of fetched) found.set(id, source);
    return found;
  }

  private shouldListNextPage(missing: number): boolean {
    if (this.totalPages === undefined) return missing > this.maxSingleReads;
    const remaining = this.totalPages - this.pagesListed;
    return remaining > 0 && missing >= remaining;
  }

  private async listNextPage(): Promise<void> {
    if (this.pagesListed === 0) this.listedAt = this.now();
    const page = await this.lookup.list({ number: this.pagesListed, size: MAX_PAGE_SIZE });
    for (const source of page.data) this.known.set(source.id, source);
    this.pagesListed += 1;
    this.totalPages = page.pagination.totalPages;
  }

  private async getOrUndefined(id: string): Promise<Source | undefined> {
    try {
      return await this.lookup.get(id);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  private expireSnapshot(): void {
    if (this.pagesListed === 0 || this.now() - this.listedAt < this.snapshotTtlMs) return;
    this.known.clear();
    this.pagesListed = 0;
    this.totalPages = undefined;
  }
}
