// Client-side rate pacing (Octokit's throttling, as a layer around the request core): one token
// bucket and one queue per endpoint class, so a caller at full speed waits here instead of
// receiving 429s. A 429 that still comes back (another client spent the account's budget, or an
// earlier run did) tells the bucket how much is spent, so the requests behind it wait their turn.
import { isHourlyClass, refilledTokens, type EndpointClass, type RateTable } from "../api";
import type { Clock } from "./clock";
import { RateBudgetError, RateLimitError } from "./errors";
import { parseRetryAfter } from "./retry";
import type { HttpRequest, Send } from "./transport";

export type RateLimitTable = RateTable;

/**
 * A token bucket refilled continuously at `limit` per `intervalMs`.
 *
 * It holds one token less than the server's bucket (at least one): the server counts arrivals, and
 * that spare token absorbs network jitter that would otherwise make a request arrive a moment early.
 */
export class TokenBucket {
  readonly capacity: number;
  readonly msPerToken: number;
  private readonly rate: { limit: number; intervalMs: number };
  private tokens: number;
  private updatedAt: number;

  constructor(limit: number, intervalMs: number, now: number) {
    this.rate = { limit, intervalMs };
    this.capacity = Math.max(1, limit - 1);
    this.msPerToken = intervalMs / limit;
    this.tokens = this.capacity;
    this.updatedAt = now;
  }

  /** Takes a token, owed if there is none; returns how many milliseconds to wait before using it. */
  reserve(now: number): number {
    this.refill(now);
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil(-this.tokens * this.msPerToken);
  }

  /** Milliseconds until `count` tokens are there (0: now), if none is taken meanwhile. */
  untilAvailable(now: number, count = 1): number {
    this.refill(now);
    return Math.max(0, Math.ceil((count - this.tokens) * this.msPerToken));
  }

  /** The tokens at `now` (fractional; below zero when owed). */
  available(now: number): number {
    this.refill(now);
    return this.tokens;
  }

  /** Takes a token that `untilAvailable` said is there. */
  take(now: number): void {
    this.refill(now);
    this.tokens -= 1;
  }

  /** A 429: the server has no token now and admits the next request after `retryAfterMs`. */
  spent(now: number, retryAfterMs: number): void {
    this.refill(now);
    this.tokens = Math.min(this.tokens, 1 - retryAfterMs / this.msPerToken);
  }

  private refill(now: number): void {
    this.tokens = refilledTokens({ tokens: this.tokens, updatedAt: this.updatedAt }, now, this.rate, this.capacity);
    this.updatedAt = Math.max(now, this.updatedAt);
  }
}

/** What a request waiting for its class's budget is told to the client's `onPacingWait` hook. */
export interface PacingWait {
  endpointClass: EndpointClass;
  method: string;
  /** Path and query relative to the base URL. */
  path: string;
  /** When it is sent (milliseconds since the epoch), if nothing else spends the budget meanwhile. */
  until: number;
  /** Requests of the class waiting, this one included. */
  waiting: number;
}

export interface PacingLayerOptions {
  limits: RateLimitTable;
  clock: Clock;
  /** A request that could not be sent within this long after the client was made fails at once (RateBudgetError). */
  maxWaitMs?: number | undefined;
  onWait?: ((wait: PacingWait) => void) | undefined;
}

// A request refused by 429s this many times in a row is handed to the retry layer: something
// other than this client keeps spending the budget.
const MAX_REQUEUES = 10;

interface Waiter {
  request: HttpRequest<unknown>;
  resolve: () => void;
  reject: (error: Error) => void;
  /** Whether onWait was told about this waiter. */
  told: boolean;
}

/**
 * The requests of one endpoint class, sent in order as the bucket allows. The hourly classes send
 * one request at a time: a 429 then stops the next request before it is sent, so a spent budget
 * costs one refused request, not a burst of them.
 */
class ClassQueue {
  readonly bucket: TokenBucket;
  private readonly waiting: Waiter[] = [];
  private inFlight = 0;
  private pumping = false;

  constructor(
    readonly endpointClass: EndpointClass,
    private readonly oneAtATime: boolean,
    private readonly clock: Clock,
    private readonly deadline: number | undefined,
    private readonly onWait: PacingLayerOptions["onWait"],
    limits: RateLimitTable,
  ) {
    const { limit, intervalMs } = limits[endpointClass];
    this.bucket = new TokenBucket(limit, intervalMs, clock.now());
  }

  /** Resolves when the request may be sent (call `done` after its answer); `first`: ahead of the others. */
  turn(request: HttpRequest<unknown>, first: boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter = { request, resolve, reject, told: false };
      if (first) this.waiting.unshift(waiter);
      else this.waiting.push(waiter);
      this.refuseLate();
      this.pump();
    });
  }

  done(): void {
    this.inFlight--;
    this.pump();
  }

  /** A 429 with `Retry-After` (else one token's time: the spec's window spread over its count). */
  spent(retryAfterMs: number | undefined): void {
    this.bucket.spent(this.clock.now(), retryAfterMs ?? this.bucket.msPerToken);
    this.refuseLate();
  }

  /** Every waiter that could not be sent before the deadline fails now: the first such one and all behind it. */
  private refuseLate(): void {
    if (this.deadline === undefined) return;
    const deadline = this.deadline;
    const now = this.clock.now();
    // Only a wait can run past the deadline: a request the budget allows now goes, however late.
    const late = this.waiting.findIndex((_, index) => {
      const wait = this.bucket.untilAvailable(now, index + 1);
      return wait > 0 && now + wait > deadline;
    });
    if (late === -1) return;
    // The bucket as it is now: the errors' times must not move as it changes later.
    const tokens = this.bucket.available(now);
    const { msPerToken, capacity } = this.bucket;
    const tokensAt = (count: number) => now + Math.max(0, Math.ceil((count - tokens) * msPerToken));
    const refused = this.waiting.splice(late);
    refused.forEach((waiter, offset) => {
      const ahead = late + offset;
      const { method, target } = waiter.request;
      waiter.reject(
        new RateBudgetError({
          endpointClass: this.endpointClass,
          method,
          path: target,
          sendableAt: tokensAt(ahead + 1),
          deadline,
          readyAt: (count) => tokensAt(ahead + Math.min(Math.max(1, count), capacity)),
        }),
      );
    });
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    void this.run().finally(() => {
      this.pumping = false;
      if (this.waiting.length > 0 && this.maySend()) this.pump();
    });
  }

  private maySend(): boolean {
    return !this.oneAtATime || this.inFlight === 0;
  }

  private async run(): Promise<void> {
    while (this.waiting.length > 0 && this.maySend()) {
      this.refuseLate(); // a request sent one at a time can fall behind what the budget alone allows
      const head = this.waiting[0];
      if (!head) return;
      const now = this.clock.now();
      const wait = this.bucket.untilAvailable(now);
      if (wait > 0) {
        if (!head.told) {
          head.told = true;
          this.onWait?.({
            endpointClass: this.endpointClass,
            method: head.request.method,
            path: head.request.target,
            until: now + wait,
            waiting: this.waiting.length,
          });
        }
        await this.clock.sleep(wait);
        continue;
      }
      this.bucket.take(now);
      this.waiting.shift();
      this.inFlight++;
      head.resolve();
    }
  }
}

export function withPacing(send: Send, { limits, clock, maxWaitMs, onWait }: PacingLayerOptions): Send {
  const deadline = maxWaitMs === undefined ? undefined : clock.now() + maxWaitMs;
  const queues = new Map<EndpointClass, ClassQueue>();
  const queueFor = (endpointClass: EndpointClass): ClassQueue => {
    let queue = queues.get(endpointClass);
    if (!queue) {
      queue = new ClassQueue(endpointClass, isHourlyClass(endpointClass), clock, deadline, onWait, limits);
      queues.set(endpointClass, queue);
    }
    return queue;
  };
  return async (request) => {
    const queue = queueFor(request.endpointClass);
    const hourly = isHourlyClass(request.endpointClass);
    const firstAttempt = request.attempt ?? 0;
    for (let requeued = 0; ; requeued++) {
      // A request refused with a 429 keeps its place: first in line.
      await queue.turn(request, requeued > 0);
      try {
        return await send(requeued === 0 ? request : { ...request, attempt: firstAttempt + requeued });
      } catch (error) {
        if (!(error instanceof RateLimitError)) throw error;
        queue.spent(parseRetryAfter(error.retryAfter, clock.now()));
        // An hourly budget's 429 is waited out here, within maxWaitMs like every wait for the
        // budget; other classes' go to the retry layer, whose next try waits in this queue.
        if (!hourly || requeued + 1 >= MAX_REQUEUES) throw error;
      } finally {
        queue.done();
      }
    }
  };
}
