// Paging (spec 4.1): one async iterator that chains pages by hasNextPage/nextPage, and `collect`
// on top of it, which refuses to gather a list without a cap (stripe's autoPagingToArray).
import { z } from "zod";
import { fieldIssue, type Pagination } from "../api";
import { checked } from "./checked";
import { ResponseValidationError } from "./errors";

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

/** Fetches one page by its zero-based number. */
export type PageFetcher<T> = (pageNumber: number) => Promise<Page<T>>;

/**
 * Iterates every item from `firstPage` on. Concurrent `next()` calls queue on one pending promise:
 * each gets the following item in order, and no page is fetched twice.
 */
export class PageIterator<T> implements AsyncIterableIterator<T> {
  private buffer: T[] = [];
  private nextPage: number | null;
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly fetchPage: PageFetcher<T>,
    firstPage: number,
    /** The list's path, for errors. */
    private readonly path: string,
  ) {
    this.nextPage = firstPage;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    const result = this.pending.then(() => this.advance());
    this.pending = result.catch(() => undefined);
    return result;
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    this.buffer = [];
    this.nextPage = null;
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private async advance(): Promise<IteratorResult<T, undefined>> {
    while (this.buffer.length === 0) {
      if (this.nextPage === null) return { done: true, value: undefined };
      const requested = this.nextPage;
      const page = await this.fetchPage(requested);
      this.buffer = [...page.data];
      this.nextPage = page.pagination.hasNextPage ? page.pagination.nextPage : null;
      // A server that points back at the same page would loop forever.
      if (this.nextPage !== null && this.nextPage <= requested) {
        this.nextPage = null;
        throw new ResponseValidationError("GET", this.path, [
          fieldIssue(
            ["meta", "pagination", "nextPage"],
            `must be after page ${requested} when hasNextPage is true (got ${page.pagination.nextPage})`,
          ),
        ]);
      }
    }
    return { done: false, value: this.buffer.shift() as T };
  }
}

const collectOptionsSchema = z.object(
  {
    max: z
      .int({ error: (issue) => (issue.input === undefined ? "is required: all() collects at most this many items" : "must be an integer") })
      .positive({ error: "must be >= 1" }),
  },
  { error: "is required: pass { max } to cap how many items all() collects" },
);

/** Up to `max` items of an iterator; stops fetching as soon as it has them. */
export async function collect<T>(iterator: AsyncIterableIterator<T>, options: { max: number }): Promise<T[]> {
  const { max } = checked(collectOptionsSchema, options, "all() options");
  const items: T[] = [];
  for await (const item of iterator) {
    items.push(item);
    if (items.length >= max) break;
  }
  return items;
}
